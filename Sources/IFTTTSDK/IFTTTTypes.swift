import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// The order in which ``IFTTTAPIManager/fetchApplets(order:platform:)`` lists Applets (the legacy `IFTTTOrderType`).
///
/// Raw values keep the legacy numbering.
public enum IFTTTAppletOrder: Int, Sendable, Hashable, CaseIterable {
    /// The API's own order; no `order` parameter is sent.
    case `default` = 0
    /// Oldest first (`published_at_asc`).
    case publishedAtAscending = 1
    /// Newest first (`published_at_desc`).
    case publishedAtDescending = 2
    /// Least used first (`enabled_count_asc`).
    case enabledCountAscending = 3
    /// Most used first (`enabled_count_desc`).
    case enabledCountDescending = 4

    /// The value of the `order` query parameter, or `nil` when the parameter is omitted.
    @_spi(Sandbox) public var queryValue: String? {
        switch self {
        case .default: return nil
        case .publishedAtAscending: return "published_at_asc"
        case .publishedAtDescending: return "published_at_desc"
        case .enabledCountAscending: return "enabled_count_asc"
        case .enabledCountDescending: return "enabled_count_desc"
        }
    }
}

/// Which mobile services the listed Applets may use (the legacy `IFTTTPlatformType`).
///
/// Raw values keep the legacy numbering.
/// Leave it at ``ios`` unless you have a reason not to.
public enum IFTTTPlatform: Int, Sendable, Hashable, CaseIterable {
    /// No `platform` parameter is sent, which excludes every Applet that uses a mobile service
    /// (the legacy `IFTTTPlatformTypeNone`).
    case noMobileServices = 0
    /// `platform=ios`: excludes Applets that use non-iOS mobile services.
    case ios = 1
    /// `platform=android`: excludes Applets that use non-Android (iOS) mobile services.
    case android = 2

    /// The value of the `platform` query parameter, or `nil` when the parameter is omitted.
    @_spi(Sandbox) public var queryValue: String? {
        switch self {
        case .noMobileServices: return nil
        case .ios: return "ios"
        case .android: return "android"
        }
    }
}

/// The IFTTT user a user token belongs to (`GET /v1/me`).
public struct IFTTTUser: Sendable, Hashable {
    /// The IFTTT login (`user_login`).
    public let username: String
    /// The service the token was issued to (`service_id`), when the API says.
    public let serviceId: String?

    /// Creates a user.
    @_spi(Sandbox) public init(username: String, serviceId: String? = nil) {
        self.username = username
        self.serviceId = serviceId
    }

    /// Decodes a `/v1/me` payload. A missing or non-string `user_login` is an error (the legacy SDK never
    /// called its completion in that case).
    @_spi(Sandbox) public static func decode(from data: Data) throws(ConnectDecodingError) -> IFTTTUser {
        do throws(ConnectDecodingError) {
            let reader = try JSONReader(JSONParser().parse(data))
            guard case .string(let login)? = reader.value("user_login") else {
                if let value = reader.value("user_login") {
                    throw ConnectDecodingError(
                        path: ".user_login", reason: .typeMismatch(expected: "string", found: value.typeName))
                }
                throw ConnectDecodingError(path: "", reason: .missingKey("user_login"))
            }
            return IFTTTUser(username: login, serviceId: try reader.optionalString("service_id"))
        } catch {
            throw error.rooted()
        }
    }
}
