import Foundation

extension Connection {
    /// A service that takes part in a Connection, such as the partner's own service or IFTTT's Location.
    public struct Service: Sendable, Hashable, Identifiable {
        /// The service id, such as `"grocery_express"`.
        public let id: String
        /// The full name.
        public let name: String
        /// The short name shown on the Connect Button ("Connect {shortName}"). Falls back to ``name``
        /// when the API omits `service_short_name`.
        public let shortName: String
        /// Whether this is the Connection's primary (owning) service.
        public let isPrimary: Bool
        /// The white-on-transparent icon drawn on the button's knob (`monochrome_icon_url`).
        public let monochromeIconURL: URL?
        /// The full-colour icon.
        public let colorIconURL: URL?
        /// The brand colour as sRGB components, on every platform, or `nil` when the API sent none or an invalid one.
        public let brandColorValue: ConnectColor?
        #if !(canImport(UIKit) && !os(watchOS))
        /// The brand colour, or `nil` when the API sent none or an invalid one. On UIKit platforms `brandColor` is
        /// a `UIColor`, as in ConnectSDK-iOS 2.8; ``brandColorValue`` is the same colour everywhere.
        public var brandColor: ConnectColor? { brandColorValue }
        #endif
        /// The service's page on ifttt.com as the API sent it (`url`), or `nil` when it sent none.
        @_spi(Sandbox) public let pageURL: URL?

        /// The service's page on ifttt.com, as in ConnectSDK-iOS 2.8: the page the API sent, or `https://ifttt.com/<id>`
        /// (where IFTTT serves every service's page) when the API sent none.
        public var url: URL {
            pageURL ?? Self.defaultPageURL(serviceId: id)
        }

        /// The icon meant to be tinted (2.8's name for ``monochromeIconURL``). When the API sent no monochrome
        /// icon it is the colour icon, and without either the service's ``url``, which loads as no image.
        public var templateIconURL: URL {
            monochromeIconURL ?? colorIconURL ?? url
        }

        /// Creates a service.
        @_spi(Sandbox) public init(
            id: String,
            name: String,
            shortName: String? = nil,
            isPrimary: Bool,
            monochromeIconURL: URL? = nil,
            colorIconURL: URL? = nil,
            brandColor: ConnectColor? = nil,
            url: URL? = nil
        ) {
            self.id = id
            self.name = name
            self.shortName = shortName ?? name
            self.isPrimary = isPrimary
            self.monochromeIconURL = monochromeIconURL
            self.colorIconURL = colorIconURL
            self.brandColorValue = brandColor
            self.pageURL = url
        }

        static func defaultPageURL(serviceId: String) -> URL {
            let segment = serviceId.addingPercentEncoding(withAllowedCharacters: APIRequest.unreserved) ?? ""
            return URL(string: "https://ifttt.com/" + segment) ?? URL(string: "https://ifttt.com")!
        }
    }
}

/// An sRGB colour parsed from a `#RRGGBB` string.
///
/// It is named `ConnectColor`, not `Color`, so that an app that imports both SwiftUI and this SDK can still
/// write `Color.red` for SwiftUI's colour.
public struct ConnectColor: Sendable, Hashable {
    /// Red, 0-255.
    @_spi(Sandbox) public let red: UInt8
    /// Green, 0-255.
    @_spi(Sandbox) public let green: UInt8
    /// Blue, 0-255.
    @_spi(Sandbox) public let blue: UInt8

    /// Creates a colour from its components.
    @_spi(Sandbox) public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses `#RRGGBB` or `RRGGBB` (surrounding whitespace allowed); `nil` for anything else.
    @_spi(Sandbox) public init?(hex: String) {
        var text = Whitespace.trimmed(hex, newlines: true)
        if text.hasPrefix("#") { text = text.dropFirst() }
        guard text.utf8.count == 6, let value = UInt32(text, radix: 16) else { return nil }
        self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// The colour as `#rrggbb`.
    public var hex: String {
        func two(_ v: UInt8) -> String { v < 16 ? "0" + String(v, radix: 16) : String(v, radix: 16) }
        return "#" + two(red) + two(green) + two(blue)
    }

    /// The relative luminance (WCAG 2), 0 for black to 1 for white.
    @_spi(Sandbox) public var relativeLuminance: Double {
        func channel(_ v: UInt8) -> Double {
            let c = Double(v) / 255
            return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(red) + 0.7152 * channel(green) + 0.0722 * channel(blue)
    }

    /// Black.
    @_spi(Sandbox) public static let black = ConnectColor(red: 0, green: 0, blue: 0)
    /// White.
    @_spi(Sandbox) public static let white = ConnectColor(red: 255, green: 255, blue: 255)
}
