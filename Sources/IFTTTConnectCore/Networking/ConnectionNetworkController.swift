import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Talks to the Connect API: fetches, disables and enables Connections, looks up accounts, reads `/me`
/// and field options, and updates a user's configuration.
///
/// Every call has an `async` form and a completion-handler form. Status codes become typed errors:
/// 401 is ``ConnectAPIError/authenticationFailure(_:)``, other 4xx and 5xx are
/// ``ConnectAPIError/apiError(statusCode:payload:)`` with the API's code and message.
///
/// ```swift
/// let controller = ConnectionNetworkController()   // production: https://connect.ifttt.com/v2
/// let connection = try await controller.fetchConnection(for: "gx-arrive-store",
///                                                       credentialProvider: ConnectionCredentials.anonymous)
/// ```
public final class ConnectionNetworkController: Sendable {
    /// The result of `start(request:completion:)` and `start(urlRequest:completion:)`, shaped like
    /// ConnectSDK-iOS 2.8's.
    public struct Response: Sendable {
        /// The HTTP status the API answered with, or `-1` when no response arrived (a transport failure).
        public let statusCode: Int
        /// The Connection or the error; the error's ``ConnectionNetworkError/apiError`` says what happened.
        public let result: Result<Connection, ConnectionNetworkError>

        /// Creates a response.
        ///
        /// - Parameters:
        ///   - statusCode: The HTTP status, `-1` without a response.
        ///   - result: The Connection or the error.
        @_spi(Sandbox) public init(statusCode: Int, result: Result<Connection, ConnectionNetworkError>) {
            self.statusCode = statusCode
            self.result = result
        }
    }

    /// The closure `start(request:completion:)` and `start(urlRequest:completion:)` call once, on the main actor,
    /// as ConnectSDK-iOS 2.8's did.
    public typealias ConnectionResponseClosure = @MainActor (_ response: Response) -> Void

    /// ``ConnectionResponseClosure``.
    @_spi(Sandbox) public typealias CompletionHandler = ConnectionResponseClosure

    /// Whether an email belongs to an IFTTT account.
    @_spi(Sandbox) public enum AccountLookup: Sendable, Hashable {
        /// An IFTTT account exists (the API answered 204).
        case existingUser
        /// No IFTTT account has this email (the API answered 404).
        case newUser
    }

    /// The configuration.
    @_spi(Sandbox) public let configuration: Configuration

    /// Creates a controller.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    // MARK: Connections

    /// Sends a ``Connection/Request`` and decodes the Connection the API returns.
    @_spi(Sandbox) public func start(request: Connection.Request) async throws(ConnectAPIError) -> Connection {
        let response = try await send(request.apiRequest)
        return try decodeConnection(response)
    }

    /// Fetches a Connection; with a user token the user's status and configuration are included.
    public func fetchConnection(for id: String, credentialProvider: any ConnectionCredentialProvider)
        async throws(ConnectAPIError) -> Connection
    {
        try await start(request: .fetchConnection(for: id, credentialProvider: credentialProvider))
    }

    /// Turns a Connection off for the user and returns it as it now is.
    public func disconnectConnection(with id: String, credentialProvider: any ConnectionCredentialProvider)
        async throws(ConnectAPIError) -> Connection
    {
        try await start(request: .disconnectConnection(with: id, credentialProvider: credentialProvider))
    }

    /// Turns a disabled Connection back on for the user and returns it as it now is.
    public func enableConnection(with id: String, credentialProvider: any ConnectionCredentialProvider)
        async throws(ConnectAPIError) -> Connection
    {
        try await start(request: .enableConnection(with: id, credentialProvider: credentialProvider))
    }

    // MARK: Users

    /// Looks up whether `email` has an IFTTT account. 204 means an existing user and 404 a new user;
    /// any other answer is an error, never "new user".
    @_spi(Sandbox) public func lookUpAccount(email: String) async throws(ConnectAPIError) -> AccountLookup {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .invalidRequest("empty email") }
        let response = try await send(
            APIRequest(method: "GET", path: ["account", "find"], query: [("email", trimmed)]),
            acceptedStatuses: [204, 404])
        switch response.statusCode {
        case 204: return .existingUser
        case 404: return .newUser
        default: throw .apiError(statusCode: response.statusCode, payload: APIErrorPayload(data: response.body))
        }
    }

    /// Reads who the credentials authenticate as (`GET /v2/me`).
    @_spi(Sandbox) public func fetchUser(credentialProvider: any ConnectionCredentialProvider)
        async throws(ConnectAPIError) -> User
    {
        let response = try await send(APIRequest(method: "GET", path: ["me"], credentials: credentialProvider))
        do throws(ConnectDecodingError) {
            return try User.decode(from: response.body)
        } catch {
            throw .invalidResponse(statusCode: response.statusCode, error)
        }
    }

    func fetchFieldOptions(path: [String], credentialProvider: any ConnectionCredentialProvider)
        async throws(ConnectAPIError) -> FieldOptions
    {
        let response = try await send(APIRequest(method: "GET", path: path, credentials: credentialProvider))
        do throws(ConnectDecodingError) {
            return try FieldOptions.decode(from: response.body)
        } catch {
            throw .invalidResponse(statusCode: response.statusCode, error)
        }
    }

}
