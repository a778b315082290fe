import Foundation
import Hummingbird
import NIOHTTP1

/// Rejects request bodies above ``limit`` (1 MiB) with 413 and the error envelope, and collects smaller bodies so
/// that route handlers can read them in one piece. A body that breaks HTTP's framing (a malformed chunk size) is a
/// 400, not a 500: the client sent it, nothing failed in the sandbox.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    /// The largest accepted request body: 1 MiB.
    static let limit = 1_048_576

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > Self.limit {
            throw APIError.payloadTooLarge(limit: Self.limit)
        }
        var request = request
        do {
            _ = try await request.collectBody(upTo: Self.limit)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge(limit: Self.limit)
        } catch is HTTPParserError {
            throw APIError.badRequest(
                "The request body could not be parsed as HTTP (its chunked encoding is malformed).")
        }
        return try await next(request, context)
    }
}
