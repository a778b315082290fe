import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Gives the 400 that Hummingbird writes for a request it cannot parse (a malformed request line or header, before
/// any route or middleware runs) the IFTTT error envelope and `X-Content-Type-Options: nosniff`, like every other
/// error. Sits in the channel pipeline after the HTTP codec; one instance per connection.
final class ParserErrorEnvelope: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private var parseFailed = false
    private var body: ByteBuffer?

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error is HTTPParserError { parseFailed = true }
        context.fireErrorCaught(error)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let part = unwrapOutboundIn(data)
        switch part {
        case .head(var head) where parseFailed && head.status == .badRequest:
            let error = APIError.badRequest("The request could not be parsed as HTTP.")
            let bytes = error.json.serializedData()
            body = context.channel.allocator.buffer(bytes: bytes)
            head.headerFields[.contentType] = JSONResponse.contentType
            head.headerFields[.contentLength] = String(bytes.count)
            head.headerFields[HTTPField.Name("X-Content-Type-Options")!] = "nosniff"
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .end(let trailers) where body != nil:
            if let body { context.write(wrapOutboundOut(.body(body)), promise: nil) }
            body = nil
            context.write(wrapOutboundOut(.end(trailers)), promise: promise)
        default:
            context.write(data, promise: promise)
        }
    }
}
