import Foundation

/// Why a request about a Connection failed, with the two cases of ConnectSDK-iOS 2.8, so that a 2.8 app's
/// exhaustive `switch` still compiles.
///
/// The SDK reports every failure as ``genericError(_:)`` carrying a ``ConnectAPIError`` that says exactly
/// what happened (status code, IFTTT's error code and message, the JSON path of an undecodable body, a
/// timeout, ...). Read it with ``apiError``; ``isAuthenticationFailure`` says whether the user token was refused:
///
/// ```swift
/// switch error {
/// case .genericError(let underlying):
///     print("failed:", underlying)                    // e.g. "The Connect API answered 404: not_found: ..."
/// case .unknownResponse:
///     print("unexpected answer")
/// }
/// if error.isAuthenticationFailure { signOut() }
/// ```
///
/// ``unknownResponse`` is kept for 2.8 source compatibility; this SDK reports an undecodable body as
/// ``genericError(_:)`` with ``ConnectAPIError/invalidResponse(statusCode:_:)``, which names the JSON path.
public enum ConnectionNetworkError: Error, Sendable, CustomStringConvertible {
    /// The request failed; the error says why (a ``ConnectAPIError`` when the SDK produced it).
    case genericError(Error)
    /// The response was not what the SDK expected (kept from 2.8; see the type's documentation).
    case unknownResponse

    /// Wraps the detailed error.
    ///
    /// - Parameter error: The detailed error.
    @_spi(Sandbox) public init(_ error: ConnectAPIError) {
        self = .genericError(error)
    }

    /// The detailed error, when the SDK produced this one.
    public var apiError: ConnectAPIError? {
        guard case .genericError(let error) = self else { return nil }
        return error as? ConnectAPIError
    }

    /// The HTTP status code, when the API answered.
    @_spi(Sandbox) public var statusCode: Int? { apiError?.statusCode }

    /// IFTTT's error code (`not_found`, `unauthorized`, ...), when the API sent one.
    @_spi(Sandbox) public var apiCode: String? { apiError?.apiCode }

    /// IFTTT's error envelope (code, message and details), when the API sent one.
    @_spi(Sandbox) public var payload: APIErrorPayload? { apiError?.payload }

    /// Whether the API answered 401: the user token is missing, invalid or revoked.
    public var isAuthenticationFailure: Bool { apiError?.isAuthenticationFailure ?? false }

    /// Whether retrying the same request later may succeed (timeouts, transport failures, 408, 429, 5xx).
    @_spi(Sandbox) public var isRetryable: Bool { apiError?.isRetryable ?? false }

    /// A one-line description; it never contains a token, a key or an email address.
    public var description: String {
        switch self {
        case .genericError(let error as ConnectAPIError): return error.description
        case .genericError(let error): return "Network failure: \(error.localizedDescription)"
        case .unknownResponse: return "The Connect API's answer was not what the SDK expected"
        }
    }
}

extension ConnectionNetworkError: Hashable {
    /// Equal when both carry equal ``ConnectAPIError``s, or other errors of the same domain and code, or are
    /// both ``unknownResponse``.
    public static func == (lhs: ConnectionNetworkError, rhs: ConnectionNetworkError) -> Bool {
        switch (lhs, rhs) {
        case (.unknownResponse, .unknownResponse):
            return true
        case (.genericError(let a), .genericError(let b)):
            if let a = a as? ConnectAPIError, let b = b as? ConnectAPIError { return a == b }
            if a is ConnectAPIError || b is ConnectAPIError { return false }
            let (x, y) = (a as NSError, b as NSError)
            return x.domain == y.domain && x.code == y.code
        default:
            return false
        }
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .unknownResponse:
            hasher.combine(0)
        case .genericError(let error as ConnectAPIError):
            hasher.combine(1)
            hasher.combine(error)
        case .genericError(let error):
            hasher.combine(2)
            hasher.combine((error as NSError).domain)
            hasher.combine((error as NSError).code)
        }
    }
}

/// The errors of ConnectSDK-iOS 2.8's internal network layer, kept public for source compatibility.
///
/// This SDK reports ``ConnectAPIError`` (inside ``ConnectionNetworkError``) instead.
public enum NetworkControllerError: Error, Sendable {
    /// The retries were exhausted.
    case exhaustedRetryAttempts
    /// The response could not be dealt with.
    case invalidResponse
    /// The response was not what the SDK expected.
    case unknownResponse
    /// The request was cancelled.
    case cancelled
    /// The API answered 401.
    case authenticationFailure
    /// Image data could not be decoded.
    case invalidImageData
    /// Another failure.
    case genericError(Error)

    /// The nearest 2.8 case for a detailed error: 401 is ``authenticationFailure``, a cancelled request
    /// ``cancelled``, an undecodable body ``invalidResponse``, anything else ``genericError(_:)`` carrying it.
    ///
    /// - Parameter error: The detailed error.
    @_spi(Sandbox) public init(_ error: ConnectAPIError) {
        switch error {
        case .authenticationFailure: self = .authenticationFailure
        case .cancelled: self = .cancelled
        case .invalidResponse: self = .invalidResponse
        default: self = .genericError(error)
        }
    }
}

extension ConnectionNetworkError {
    /// Converts as ConnectSDK-iOS 2.8 did: ``NetworkControllerError/genericError(_:)`` stays a generic error,
    /// every other case becomes ``unknownResponse``.
    ///
    /// - Parameter networkControllerError: The error to convert.
    @_spi(Sandbox) public init(networkControllerError: NetworkControllerError) {
        switch networkControllerError {
        case .genericError(let error): self = .genericError(error)
        default: self = .unknownResponse
        }
    }
}
