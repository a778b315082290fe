import Foundation

// The attributes the legacy v1 Applets API shows on top of a connection: when it was published and which mobile
// services it uses (for the `platform` filter of `GET /v1/services/{slug}/applets`).

extension SeedData {
    /// Which mobile services a connection uses, for the legacy `platform` filter.
    ///
    /// `GET /v1/services/{slug}/applets` keeps an Applet when:
    ///
    /// | `platform` parameter | kept platforms |
    /// |---|---|
    /// | absent (the SDK's `noMobileServices`) | ``none`` only |
    /// | `ios` | ``none``, ``ios``, ``iosAndAndroid`` |
    /// | `android` | ``none``, ``android``, ``iosAndAndroid`` |
    public enum AppletPlatform: String, Codable, Sendable, CaseIterable {
        /// Uses no mobile service.
        case none
        /// Uses an iOS-only mobile service (e.g. iOS Reminders).
        case ios
        /// Uses an Android-only mobile service (e.g. Android SMS).
        case android
        /// Uses mobile services that exist on both platforms (Location, Notifications).
        case iosAndAndroid = "ios_and_android"

        /// Whether an Applet of this platform is listed for the `platform` query value (`nil`: parameter absent).
        public func isListed(forQuery platform: String?) -> Bool {
            switch platform {
            case nil: return self == .none
            case "ios": return self != .android
            case "android": return self != .ios
            default: return false
            }
        }

        /// The platform derived from service ids when a connection does not say: `location` and
        /// `if_notifications` are on both platforms, `ios_*` services are iOS-only, `android_*` Android-only.
        public static func derived(fromServiceIds ids: [String]) -> AppletPlatform {
            let iosOnly = ids.contains { $0.hasPrefix("ios_") }
            let androidOnly = ids.contains { $0.hasPrefix("android_") }
            switch (iosOnly, androidOnly) {
            case (true, false): return .ios
            case (false, true): return .android
            case (true, true): return .iosAndAndroid
            case (false, false):
                return ids.contains { ["location", "if_notifications"].contains($0) } ? .iosAndAndroid : .none
            }
        }
    }

    /// The `published_at` of a connection whose seed gives none: the date of the legacy SDK, 2017-11-01 UTC.
    public static let defaultPublishedAt = "2017-11-01T00:00:00Z"

    /// Parses an ISO 8601 date with a time and an offset (`2017-02-16T11:10:43-08:00`, `2025-01-15T09:30:00Z`).
    static func parsePublishedAt(_ text: String) -> Date? {
        try? Date(text, strategy: .iso8601)
    }
}

extension SeedData.Connection {
    /// The platform used by the `platform` filter: ``platform``, or one derived from the displayed services.
    var effectivePlatform: SeedData.AppletPlatform {
        platform ?? .derived(fromServiceIds: displayedServiceIds)
    }

    /// The publication date: ``publishedAt``, or ``SeedData/defaultPublishedAt``.
    var effectivePublishedAt: Date {
        publishedAt.flatMap(SeedData.parsePublishedAt) ?? SeedData.parsePublishedAt(SeedData.defaultPublishedAt)!
    }

    /// Checks `published_at` (part of ``SeedData/validate(source:)``).
    func validateLegacyAppletAttributes(at: String, source: String) throws(SandboxError) {
        if let publishedAt, SeedData.parsePublishedAt(publishedAt) == nil {
            throw .invalidSeedData(
                source: source,
                problem:
                    "\(at).published_at \"\(publishedAt)\" is not an ISO 8601 date such as 2017-02-16T11:10:43-08:00")
        }
    }
}
