import Foundation
import Hummingbird
import Logging

/// The outermost middleware: turns every error into the IFTTT error envelope and logs one line per request.
///
/// * ``APIError`` → its status and envelope.
/// * Hummingbird's `HTTPError`s (for example the router's 404 for an unknown route) → the matching code; a path the
///   OpenAPI document describes, asked with a method it does not serve, → 405 with `Allow` (``MethodRules``).
/// * Anything else → 500 `internal_error`; the error is logged, never sent to the client.
///
/// The log line has the method, the path without the query (queries can carry access tokens), the status and the
/// duration. Headers are never logged.
struct ErrorEnvelopeMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext
    let logger: Logger

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as APIError {
            response = error.response()
        } catch let error as any HTTPResponseError {
            if error.status == .notFound || error.status == .methodNotAllowed,
                let allowed = MethodRules.allowed(request.uri.path), !allowed.contains(request.method.rawValue)
            {
                // A documented path, another method: 405 with the path's methods, as IFTTT answers.
                var refused = APIError(
                    status: 405, code: .invalidParameters,
                    message:
                        "\(request.method.rawValue) is not allowed here; this path serves \(allowed.joined(separator: ", "))."
                ).response()
                refused.headers[HeaderName("Allow")!] = allowed.joined(separator: ", ")
                response = refused
            } else {
                response = Self.envelope(for: error.status).response()
            }
        } catch {
            logger.error("\(request.method) \(request.uri.path) failed: \(String(describing: error))")
            response = APIError.internalError().response()
        }
        let elapsed = ContinuousClock.now - start
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        logger.info(
            "\(request.method) \(request.uri.path) → \(response.status.code) (\(milliseconds) ms)",
            metadata: [
                "method": "\(request.method.rawValue)", "path": "\(request.uri.path)",
                "status": "\(response.status.code)", "duration_ms": "\(milliseconds)",
            ])
        return response
    }

    /// The envelope for an error that only has a status.
    static func envelope(for status: HTTPResponse.Status) -> APIError {
        switch status.code {
        case 400: .badRequest("The request is invalid.")
        case 401: .unauthorized("Authentication failed.")
        case 403: .forbidden("This request is not allowed.")
        case 404: .notFound("There is nothing at this path.")
        case 405: .notFound("There is nothing at this path for this method.")
        case 413: .payloadTooLarge(limit: BodyLimitMiddleware.limit)
        case 422: .unprocessable("The request is invalid.", details: [])
        case 503: .serviceUnavailable()
        case 400..<500: APIError(status: status.code, code: .invalidParameters, message: status.reasonPhrase)
        default: .internalError()
        }
    }
}
