import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

// What the endpoints IFTTT documents as "Service-authenticated with user_id" share: field options,
// `PUT .../user_connection`, refresh, run, perform and test. IFTTT's docs: "For endpoints that require a user_id,
// requests will fail if the user does not have the connection enabled".
extension RouteEnvironment {
    /// Authenticates a service-key request acting for the partner user `user_id` (of the query, else of `body`):
    /// a user token is 401, a missing `user_id` 400, a `user_id` no IFTTT user has connected 404.
    func serviceUser(_ request: Request, body: JSONValue? = nil) async throws -> (
        principal: Principal, user: SeedData.User
    ) {
        let principal = try await withBodyUser(
            try await authenticator.authenticate(request, policy: .serviceOnly), body: body)
        return (principal, try principal.requireUser())
    }

    /// A service-key `principal` without a `user_id` query parameter, now acting for the partner user `user_id` of
    /// a JSON `body` (IFTTT's run, perform and test examples, and the legacy `/v1` POSTs, carry it there); any other
    /// principal unchanged.
    func withBodyUser(_ principal: Principal, body: JSONValue?) async throws -> Principal {
        guard case .service(let service, nil, _) = principal, let partnerUserId = try RequestBody.userId(body) else {
            return principal
        }
        let user = try await store.linkedUser(serviceId: service.id, partnerUserId: partnerUserId)
        return .service(service, partnerUserId: partnerUserId, user: user)
    }

    /// The Connection `id` as the service sees it, with `user`'s configuration, which must exist and be enabled
    /// (404 otherwise: Connections are enabled only through IFTTT's activation flow).
    func enabledConnection(_ id: String, principal: Principal, user: SeedData.User, request: Request) async throws
        -> (snapshot: ConnectionSnapshot, userConnection: SeedData.UserConnection)
    {
        let snapshot = try await visibleConnection(id, principal: principal, request: request)
        guard let userConnection = snapshot.userConnection, userConnection.status == .enabled else {
            throw APIError.notFound(
                "The user does not have connection \"\(id)\" enabled. Connections are enabled through IFTTT's activation flow."
            )
        }
        return (snapshot, userConnection)
    }
}

/// Request bodies of the service endpoints.
enum RequestBody {
    /// The body as a JSON object; `nil` when it is empty. Anything else is 400 `invalid_parameters`.
    static func optionalObject(_ data: Data) throws -> JSONValue? {
        guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return nil }
        guard let json = try? JSONValue.decodeSorted(from: data), case .object = json else {
            throw APIError.badRequest("The request body must be a JSON object.")
        }
        return json
    }

    /// A body that may be empty (whitespace only), any JSON value, of which only an object is read: `nil` for an
    /// empty body or JSON that is not an object; 400 `invalid_parameters` for bytes that are not JSON.
    static func optionalJSONObject(_ data: Data) throws -> JSONValue? {
        guard !data.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) else { return nil }
        guard let json = try? JSONValue.decodeSorted(from: data) else {
            throw APIError.badRequest("The request body must be JSON.")
        }
        if case .object = json { return json }
        return nil
    }

    /// The member `user_id` of `body` as a string (IFTTT's examples send it as a number, `"user_id": 123`); `nil`
    /// when absent or `null`, 422 for anything but a non-empty string or a whole number.
    static func userId(_ body: JSONValue?) throws -> String? {
        switch body?["user_id"] {
        case nil: return nil
        case .null?:
            if StrictMode.isOn { throw nullRefused("user_id") }
            return nil
        case .string(let text)? where !text.isEmpty: return text
        case .number(let number)? where number.rounded() == number && abs(number) < 1e15:
            return String(Int64(number))
        default:
            throw APIError.unprocessable(
                "user_id must be a string or a whole number.",
                details: [.init(parameter: "/user_id", message: "must be a string or a whole number")])
        }
    }

    /// The 422 of a `null` member in strict mode (``StrictMode``).
    static func nullRefused(_ key: String) -> APIError {
        APIError.unprocessable(
            "\(key) must not be null (strict mode: leave it out instead).",
            details: [.init(parameter: "/\(key)", message: "must not be null")])
    }

    /// The string member `key` of `body`: `nil` when absent or `null` (422 for `null` in strict mode), 422 when it is
    /// not a non-empty string.
    static func string(_ body: JSONValue?, _ key: String) throws -> String? {
        guard let value = body?[key] else { return nil }
        if value.isNull {
            if StrictMode.isOn { throw nullRefused(key) }
            return nil
        }
        guard let text = value.stringValue, !text.isEmpty else {
            throw APIError.unprocessable(
                "\(key) must be a non-empty string.",
                details: [.init(parameter: "/\(key)", message: "must be a non-empty string")])
        }
        return text
    }
}
