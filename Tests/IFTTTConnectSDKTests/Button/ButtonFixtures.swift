import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore

/// Connections for the Connect Button tests: invented services, no network.
enum ButtonFixtures {
    static let primary = Connection.Service(
        id: "grocery_express", name: "Grocery Express", shortName: "Grocery", isPrimary: true,
        brandColor: ConnectColor(hex: "#1D9A6C"), url: URL(string: "https://ifttt.com/grocery_express"))

    static let weather = Connection.Service(
        id: "sunny_weather", name: "Sunny Weather Service", shortName: "Sunny Weather", isPrimary: false,
        brandColor: ConnectColor(hex: "#2F6FDE"), url: URL(string: "https://ifttt.com/sunny_weather"))

    static func connection(status: Connection.Status = .initial, connecting: Connection.Service = weather) -> Connection
    {
        // swiftlint:disable:next force_try
        try! Connection(
            id: "gx-weather", name: "Stock up before a storm", description: "",
            url: URL(string: "https://ifttt.com/connect/gx-weather")!, status: status,
            services: [primary, connecting])
    }

    static let standard = connection()

    static let withIcon = connection(
        connecting: Connection.Service(
            id: "sunny_weather", name: "Sunny Weather Service", shortName: "Sunny Weather", isPrimary: false,
            monochromeIconURL: URL(string: "https://assets.example.com/sunny/monochrome.png"),
            brandColor: ConnectColor(hex: "#2F6FDE")))

    /// A service whose brand colour is almost the light style's pill colour.
    static let darkBrand = connection(
        connecting: Connection.Service(
            id: "night", name: "Night Owl", isPrimary: false, brandColor: ConnectColor(hex: "#1A1A1A")))

    /// A service whose brand colour is light (text on it must turn dark).
    static let lightBrand = connection(
        connecting: Connection.Service(
            id: "lemon", name: "Lemon Bank", isPrimary: false, brandColor: ConnectColor(hex: "#FFE14D")))

    static let noBrand = connection(connecting: Connection.Service(id: "plain", name: "Plain", isPrimary: false))
}
