import Foundation

/// Everything that can go wrong when the SDK talks to the Connect API, in detail.
///
/// The `async` API throws it directly. The ConnectSDK-iOS 2.8 shapes carry it inside
/// ``ConnectionNetworkError/genericError(_:)`` (read it back with ``ConnectionNetworkError/apiError``).
/// Descriptions never contain a user token, a service key or an email address.
public enum ConnectAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The API answered 401: the user token (or service key) is missing, invalid or revoked.
    case authenticationFailure(APIErrorPayload?)
    /// The API answered another 4xx or 5xx status, with its error code and message when it sent them.
    case apiError(statusCode: Int, payload: APIErrorPayload?)
    /// The API answered with a success status but a body the SDK cannot decode.
    case invalidResponse(statusCode: Int, ConnectDecodingError)
    /// The response body was larger than the transport accepts.
    case responseTooLarge(limit: Int)
    /// The request timed out.
    case timedOut
    /// The request was cancelled.
    case cancelled
    /// The request failed below HTTP (no connection, DNS, TLS, ...); `code` is the `URLError` code.
    case transport(code: Int, description: String)
    /// The request could not be built (for example an empty Connection id).
    case invalidRequest(String)

    /// The HTTP status code, when the API answered.
    public var statusCode: Int? {
        switch self {
        case .authenticationFailure: return 401
        case .apiError(let status, _): return status
        case .invalidResponse(let status, _): return status
        default: return nil
        }
    }

    /// The API's error code (`not_found`, `unauthorized`, ...), when it sent one.
    @_spi(Sandbox) public var apiCode: String? {
        switch self {
        case .authenticationFailure(let payload): return payload?.code
        case .apiError(_, let payload): return payload?.code
        default: return nil
        }
    }

    /// IFTTT's error envelope (code, message and details), when it sent one.
    @_spi(Sandbox) public var payload: APIErrorPayload? {
        switch self {
        case .authenticationFailure(let payload): return payload
        case .apiError(_, let payload): return payload
        default: return nil
        }
    }

    /// Whether the API answered 401: the user token is missing, invalid or revoked.
    public var isAuthenticationFailure: Bool {
        if case .authenticationFailure = self { return true }
        return false
    }

    /// Whether retrying the same request later may succeed (timeouts, transport failures, 408, 429, 5xx).
    public var isRetryable: Bool {
        switch self {
        case .timedOut, .transport: return true
        case .apiError(let status, _): return status == 408 || status == 429 || status >= 500
        default: return false
        }
    }

    /// A one-line description.
    public var description: String {
        switch self {
        case .authenticationFailure(let payload):
            return "Authentication failed (401)" + (payload.map { ": \($0)" } ?? "")
        case .apiError(let status, let payload):
            return "The Connect API answered \(status)" + (payload.map { ": \($0)" } ?? "")
        case .invalidResponse(let status, let error):
            return "Undecodable response (\(status)): \(error)"
        case .responseTooLarge(let limit):
            return "The response exceeded \(limit) bytes"
        case .timedOut:
            return "The request timed out"
        case .cancelled:
            return "The request was cancelled"
        case .transport(let code, let description):
            return "Network failure (\(code)): \(description)"
        case .invalidRequest(let reason):
            return "Invalid request: \(reason)"
        }
    }
}
