import Foundation
@_spi(Sandbox) import IFTTTConnectCore

extension ConnectServiceClient {
    /// Whose field options ``fetchFieldOptions(connectionId:for:userId:)`` reads.
    public enum FieldOptionsOwner: Sendable, Hashable {
        /// A trigger, by its qualified id such as `grocery_express.arrive_store`.
        case trigger(String)
        /// A query, by its qualified id.
        case query(String)
        /// An action, by its qualified id.
        case action(String)
        /// A feature's own fields, by feature id.
        case feature(String)

        /// The owner of a step's fields.
        public init(_ step: Connection.Step) {
            switch step.kind {
            case .trigger: self = .trigger(step.qualifiedTypeId)
            case .query: self = .query(step.qualifiedTypeId)
            case .action: self = .action(step.qualifiedTypeId)
            }
        }

        /// The owner of a feature's own fields.
        public init(_ feature: Connection.Feature) {
            self = .feature(feature.id)
        }

        var pathSegments: [String] {
            switch self {
            case .trigger(let id): return ["triggers", id]
            case .query(let id): return ["queries", id]
            case .action(let id): return ["actions", id]
            case .feature(let id): return ["features", id]
            }
        }
    }

    /// Shows a Connection as one of your users sees it, with their status and configuration
    /// (`GET /v2/connections/{id}?user_id=`).
    /// - Parameters:
    ///   - id: the Connection id.
    ///   - userId: the user's id on your service.
    public func fetchConnection(id: String, userId: String) async throws(Error) -> Connection {
        let data = try await send("GET", ["connections", id], userId: userId)
        return try decode { () throws(ConnectDecodingError) in try Connection.decode(from: data) }
    }

    /// Reads the options of a trigger's, query's, action's or feature's fields for one of your users
    /// (`GET /v2/connections/{id}/{triggers|queries|actions|features}/{owner}/field_options?user_id=`).
    public func fetchFieldOptions(connectionId: String, for owner: FieldOptionsOwner, userId: String)
        async throws(Error) -> FieldOptions
    {
        let data = try await send(
            "GET", ["connections", connectionId] + owner.pathSegments + ["field_options"], userId: userId)
        return try decode { () throws(ConnectDecodingError) in try FieldOptions.decode(from: data) }
    }

    /// Replaces one of your users' whole configuration of a Connection
    /// (`PUT /v2/connections/{id}/user_connection?user_id=`). This is how a Connection enabled with
    /// `skip_config=true` leaves its pending state.
    /// - Returns: the Connection as it now is, or `nil` when the API answers without a body.
    @discardableResult
    public func updateUserConnection(
        connectionId: String, userId: String,
        update: UserConnectionUpdate
    ) async throws(Error) -> Connection? {
        let body = Data(update.jsonValue.serialized().utf8)
        let data = try await send("PUT", ["connections", connectionId, "user_connection"], userId: userId, body: body)
        guard !data.isEmpty else { return nil }
        return try decode { () throws(ConnectDecodingError) in try Connection.decode(from: data) }
    }

    /// Asks IFTTT to re-read the labels of one of your users' dropdown values
    /// (`POST /v2/connections/{id}/user_connection/refresh?user_id=`, answered with 204).
    public func refreshUserConnection(connectionId: String, userId: String) async throws(Error) {
        _ = try await send("POST", ["connections", connectionId, "user_connection", "refresh"], userId: userId)
    }

    /// Reads what the service key authenticates as, optionally for one of your users (`GET /v2/me?user_id=`).
    public func fetchUser(userId: String? = nil) async throws(Error) -> User {
        var query: [(String, String)] = []
        if let userId {
            guard !userId.isEmpty else { throw .network(.invalidRequest("empty user id")) }
            query.append(("user_id", userId))
        }
        let data = try await sendRaw("GET", ["me"], query: query)
        return try decode { () throws(ConnectDecodingError) in try User.decode(from: data) }
    }

    // MARK: Internals

    private func send(_ method: String, _ path: [String], userId: String, body: Data? = nil) async throws(Error) -> Data
    {
        guard !userId.isEmpty else { throw .network(.invalidRequest("empty user id")) }
        return try await sendRaw(method, path, query: [("user_id", userId)], body: body)
    }

    private func sendRaw(_ method: String, _ path: [String], query: [(String, String)], body: Data? = nil)
        async throws(Error) -> Data
    {
        do throws(ConnectAPIError) {
            return try await controller.sendServiceRequest(
                method: method, path: path, query: query,
                serviceKey: serviceKey, body: body)
        } catch {
            throw .network(error)
        }
    }

    private func decode<T>(_ body: () throws(ConnectDecodingError) -> T) throws(Error) -> T {
        do throws(ConnectDecodingError) {
            return try body()
        } catch {
            throw .unexpectedResponse(error)
        }
    }
}
