import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectLocation
import Testing

/// Answers 422 (IFTTT's error envelope) without naming a record to every batch that holds the refused event, 200 to the others, and keeps
/// the size of every batch it was sent.
final class RefusingTransport: HTTPTransport, Sendable {
    private let refused: String
    private let sizes = Locked<[Int]>([])

    init(refusing recordId: UUID) { refused = recordId.uuidString }

    var batchSizes: [Int] { sizes.withLock { $0 } }

    func send(_ request: HTTPRequest) async throws(ConnectAPIError) -> HTTPResponse {
        let body = String(decoding: request.body ?? Data(), as: UTF8.self)
        sizes.withLock { $0.append(body.components(separatedBy: #""record_id""#).count - 1) }
        guard body.contains(refused) else { return HTTPResponse(statusCode: 200) }
        return HTTPResponse(
            statusCode: 422,
            body: Data(#"{"type":"error","code":"invalid_request","message":"one event is invalid"}"#.utf8))
    }
}

extension UploaderTests {
    /// A batch refused without naming its bad event is halved, earlier half first, until the event is alone (no later
    /// event is sent before it is settled); alone, it is tried again between probes (here the next event, as nothing
    /// was accepted before), and dead-lettered once its refusals alone are too many to be chance: 8 tries alone and 7
    /// probes. One bad event among 64 costs 26 requests, not one request per event.
    @Test func aRefusedBatchIsHalvedUntilTheBadEventIsAlone() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, events) = try await filledStore(64)
        let transport = RefusingTransport(refusing: events[0].recordId)
        let report = await uploader(store, transport).uploadPending(userToken: "t")
        #expect(report.uploaded == 63)
        #expect(report.rejected == 1)
        #expect(transport.batchSizes == [50, 25, 12, 6, 3, 1] + Array(repeating: 1, count: 15) + [3, 6, 13, 25, 14])
        #expect(try await store.pending(now: epoch).isEmpty)
    }
}
