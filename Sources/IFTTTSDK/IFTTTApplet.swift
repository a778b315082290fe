import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// An Applet of the legacy IFTTT API (`/v1/services/{service}/applets`), as the 2017 IFTTT SDK modelled it.
public struct IFTTTApplet: Sendable, Hashable, Identifiable {
    /// The user's status for an Applet.
    public enum Status: String, Sendable, Hashable, CaseIterable {
        /// No user was authenticated (`user_status` missing or `null`).
        case unknown
        /// On for the user.
        case enabled
        /// Turned off by the user.
        case disabled
        /// Never turned on: the user must go through the web activation flow.
        case neverEnabled = "never_enabled"
    }

    /// The Applet id.
    public let id: String
    /// The name.
    public let name: String
    /// The description.
    public let description: String
    /// When it was published.
    public let publishedAt: Date?
    /// How many users turned it on.
    public let enabledCount: Int
    /// Its page on ifttt.com.
    public let url: URL
    /// The web activation page the SDK adds its parameters to (see ``embeddedURL(callbackURL:email:userId:)``).
    @_spi(Sandbox) public let embeddedURL: URL
    /// The user's status.
    public let status: Status
    /// When it last ran for the user.
    public let lastRunAt: Date?
    /// The primary service.
    public let primaryService: IFTTTService
    /// The other services, in API order.
    public let secondaryServices: [IFTTTService]

    /// Creates an Applet.
    @_spi(Sandbox) public init(
        id: String, name: String, description: String, publishedAt: Date?, enabledCount: Int, url: URL,
        embeddedURL: URL, status: Status, lastRunAt: Date?, primaryService: IFTTTService,
        secondaryServices: [IFTTTService]
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.publishedAt = publishedAt
        self.enabledCount = enabledCount
        self.url = url
        self.embeddedURL = embeddedURL
        self.status = status
        self.lastRunAt = lastRunAt
        self.primaryService = primaryService
        self.secondaryServices = secondaryServices
    }

    /// The service that brands the Applet: the first secondary service, or the primary one.
    @_spi(Sandbox) public var brandingService: IFTTTService { secondaryServices.first ?? primaryService }

    /// Decodes one Applet (`"type": "applet"`).
    /// - Throws: `ConnectDecodingError` naming the JSON path (unknown status, bad date, no primary service, ...).
    @_spi(Sandbox) public static func decode(from data: Data) throws(ConnectDecodingError) -> IFTTTApplet {
        try decode(json: JSONParser().parse(data))
    }

    /// Decodes one Applet from parsed JSON.
    package static func decode(json: JSONValue) throws(ConnectDecodingError) -> IFTTTApplet {
        do throws(ConnectDecodingError) {
            return try IFTTTApplet(reader: JSONReader(json))
        } catch {
            throw error.rooted()
        }
    }

    /// Decodes a `{"type":"list","data":[...]}` of Applets. Unlike the original, an invalid element is an
    /// error that names it rather than silently dropped.
    @_spi(Sandbox) public static func decodeList(from data: Data) throws(ConnectDecodingError) -> [IFTTTApplet] {
        do throws(ConnectDecodingError) {
            let reader = try JSONReader(JSONParser().parse(data))
            return try reader.array("data") { value throws(ConnectDecodingError) in
                try IFTTTApplet(reader: JSONReader(value))
            }
        } catch {
            throw error.rooted()
        }
    }

    init(reader: JSONReader) throws(ConnectDecodingError) {
        if let type = try reader.optionalString("type"), type != "applet" {
            throw ConnectDecodingError(path: ".type", reason: .invalidValue("expected \"applet\""))
        }
        let statusText = try reader.optionalString("user_status")
        let status: Status
        if let statusText {
            guard let known = Status(rawValue: statusText), known != .unknown else {
                throw ConnectDecodingError(path: ".user_status", reason: .invalidValue("unknown status"))
            }
            status = known
        } else {
            status = .unknown
        }
        let services = try reader.array("services", IFTTTService.init(json:))
        guard let primaryIndex = services.lastIndex(where: \.isPrimary) else {
            throw ConnectDecodingError(path: ".services", reason: .noPrimaryService)
        }
        var secondary = services
        secondary.remove(at: primaryIndex)
        let enabledCount = try reader.optionalDouble("enabled_count") ?? 0
        self.init(
            id: try reader.string("id"),
            name: try reader.string("name"),
            description: try reader.optionalString("description") ?? "",
            publishedAt: try IFTTTApplet.date(reader, "published_at"),
            enabledCount: enabledCount >= 0 && enabledCount < 1e15 ? Int(enabledCount) : 0,
            url: try reader.url("url"),
            embeddedURL: try reader.url("embedded_url"),
            status: status,
            lastRunAt: try IFTTTApplet.date(reader, "last_run_at"),
            primaryService: services[primaryIndex],
            secondaryServices: secondary.filter { !$0.isPrimary }
        )
    }

    static func date(_ reader: JSONReader, _ key: String) throws(ConnectDecodingError) -> Date? {
        guard let text = try reader.optionalString(key) else { return nil }
        guard hasValidCalendarDay(text), let date = parseInternetDateTime(text) else {
            throw ConnectDecodingError(path: "." + key, reason: .invalidValue("not an ISO 8601 date"))
        }
        return date
    }

    /// An ISO 8601 internet date-time (`2017-02-16T11:10:43-08:00`, `2017-02-16T19:10:43Z`), or nil.
    ///
    /// `ISO8601DateFormatter` (iOS 10) rather than `Date(_:strategy: .iso8601)`, which needs iOS 15; one formatter a
    /// call, as the formatter is not `Sendable` in every SDK this package supports.
    static func parseInternetDateTime(_ text: String) -> Date? {
        ISO8601DateFormatter().date(from: text)
    }

    /// Whether a `yyyy-MM-dd...` text names a real day; Foundation's parser rolls `2017-02-30` over to March.
    static func hasValidCalendarDay(_ text: String) -> Bool {
        let digits = Array(text.utf8.prefix(10))
        guard digits.count == 10, digits[4] == UInt8(ascii: "-"), digits[7] == UInt8(ascii: "-") else { return false }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in digits[range] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), (1...12).contains(month)
        else { return false }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return (1...lengths[month - 1]).contains(day)
    }
}

/// A service of a legacy Applet.
public struct IFTTTService: Sendable, Hashable, Identifiable {
    /// The service slug, such as `instagram`.
    public let id: String
    /// The name.
    public let name: String
    /// Whether it is the Applet's primary service.
    @_spi(Sandbox) public let isPrimary: Bool
    /// The icon that is safe on any colour.
    public let monochromeIconURL: URL?
    /// The icon that is only safe on the brand colour.
    public let colorIconURL: URL?
    /// The brand colour.
    public let brandColor: ConnectColor?
    /// The service's page on ifttt.com.
    public let url: URL?

    /// Creates a service.
    @_spi(Sandbox) public init(
        id: String, name: String, isPrimary: Bool, monochromeIconURL: URL?, colorIconURL: URL?,
        brandColor: ConnectColor?, url: URL?
    ) {
        self.id = id
        self.name = name
        self.isPrimary = isPrimary
        self.monochromeIconURL = monochromeIconURL
        self.colorIconURL = colorIconURL
        self.brandColor = brandColor
        self.url = url
    }

    init(json: JSONValue) throws(ConnectDecodingError) {
        let reader = try JSONReader(json)
        self.init(
            id: try reader.string("service_id"), name: try reader.string("service_name"),
            isPrimary: try reader.bool("is_primary", default: false),
            monochromeIconURL: try reader.optionalWebURL("monochrome_icon_url"),
            colorIconURL: try reader.optionalWebURL("color_icon_url"),
            brandColor: try reader.optionalString("brand_color").flatMap(ConnectColor.init(hex:)),
            url: try reader.optionalWebURL("url"))
    }
}
