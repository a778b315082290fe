import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// An IFTTT API error: an HTTP status plus the error envelope
/// `{"type":"error","code":"...","message":"...","details":[{"parameter","message"}]}`.
///
/// Route handlers throw `APIError`; the sandbox's error middleware turns it (and any other error) into the envelope.
/// Messages never contain tokens or service keys.
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An IFTTT error code (`code` in the envelope).
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The wire value, e.g. `not_found`.
        public var rawValue: String
        /// Creates a code from its wire value.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The wire value.
        public var description: String { rawValue }

        /// `unauthorized` (401): missing or invalid user token or service key.
        public static let unauthorized = Code(rawValue: "unauthorized")
        /// `forbidden` (403): the credentials are valid but not allowed here (service key on a user endpoint,
        /// unpublished connection without invite code).
        public static let forbidden = Code(rawValue: "forbidden")
        /// `not_found` (404): unknown connection, step, user connection, account or route.
        public static let notFound = Code(rawValue: "not_found")
        /// `invalid_parameters` (400 or 422; also 413 for an oversized body): the request is malformed or invalid.
        public static let invalidParameters = Code(rawValue: "invalid_parameters")
        /// `service_unavailable` (503): an injected fault.
        public static let serviceUnavailable = Code(rawValue: "service_unavailable")
        /// `internal_error` (500): a bug or a database failure in the sandbox.
        public static let internalError = Code(rawValue: "internal_error")
    }

    /// One entry of `details`: which parameter is wrong and why.
    public struct Detail: Sendable, Equatable {
        /// The parameter, e.g. `user_features[0].feature_id`.
        public var parameter: String
        /// What is wrong with it.
        public var message: String

        /// Creates a detail.
        public init(parameter: String, message: String) {
            self.parameter = parameter
            self.message = message
        }
    }

    /// The HTTP status code.
    public var status: Int
    /// The error code.
    public var code: Code
    /// A human-readable message.
    public var message: String
    /// Per-parameter details (mostly for 422).
    public var details: [Detail]

    /// Creates an error.
    public init(status: Int, code: Code, message: String, details: [Detail] = []) {
        self.status = status
        self.code = code
        self.message = message
        self.details = details
    }

    /// 401 `unauthorized`.
    public static func unauthorized(_ message: String) -> APIError {
        APIError(status: 401, code: .unauthorized, message: message)
    }

    /// 403 `forbidden`.
    public static func forbidden(_ message: String) -> APIError {
        APIError(status: 403, code: .forbidden, message: message)
    }

    /// 404 `not_found`.
    public static func notFound(_ message: String) -> APIError {
        APIError(status: 404, code: .notFound, message: message)
    }

    /// 400 `invalid_parameters`.
    public static func badRequest(_ message: String, details: [Detail] = []) -> APIError {
        APIError(status: 400, code: .invalidParameters, message: message, details: details)
    }

    /// 422 `invalid_parameters` with details.
    public static func unprocessable(_ message: String, details: [Detail]) -> APIError {
        APIError(status: 422, code: .invalidParameters, message: message, details: details)
    }

    /// 413 `invalid_parameters`: the request body is too large.
    public static func payloadTooLarge(limit: Int) -> APIError {
        APIError(
            status: 413, code: .invalidParameters,
            message: "The request body is larger than the limit of \(limit) bytes.")
    }

    /// 503 `service_unavailable`.
    public static func serviceUnavailable(
        _ message: String = "The service is temporarily unavailable. Try again later."
    )
        -> APIError
    {
        APIError(status: 503, code: .serviceUnavailable, message: message)
    }

    /// 500 `internal_error`.
    public static func internalError(_ message: String = "Something went wrong in the sandbox.") -> APIError {
        APIError(status: 500, code: .internalError, message: message)
    }

    /// The error envelope.
    public var json: JSONValue {
        [
            "type": "error",
            "code": .string(code.rawValue),
            "message": .string(message),
            "details": .array(details.map { ["parameter": .string($0.parameter), "message": .string($0.message)] }),
        ]
    }

    /// `"<status> <code>: <message>"`.
    public var description: String { "\(status) \(code.rawValue): \(message)" }

    /// The HTTP response carrying the envelope.
    func response() -> Response {
        JSONResponse.make(json, status: HTTPResponse.Status(code: status))
    }
}
