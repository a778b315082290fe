import Foundation
import Hummingbird

/// Rejects request bodies above ``limit`` (1 MiB) with 413 and the error envelope, and collects smaller bodies so
/// that route handlers can read them in one piece.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext

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
        }
        return try await next(request, context)
    }
}
