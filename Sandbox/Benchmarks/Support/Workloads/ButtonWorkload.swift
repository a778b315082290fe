import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// The Connect Button's work per visual state: its appearance (localized texts, colours, geometry) and its SVG.
public enum ButtonWorkload {
    /// A Connection with a primary and a second service, as the button shows it.
    public static let connection = try! Connection(
        id: "bench", name: "Benchmark", description: "", url: URL(string: "https://ifttt.com/connect/bench")!,
        status: .initial,
        services: [
            .init(id: "primary", name: "Primary Service", isPrimary: true, brandColor: ConnectColor(hex: "#1D9A6C")),
            .init(
                id: "other", name: "Sunny Weather Service", shortName: "Sunny Weather", isPrimary: false,
                brandColor: ConnectColor(hex: "#2F6FDE")),
        ])

    /// Appearance plus SVG render of `state`; returns the SVG's length so the work stays observable.
    package static func render(_ state: ConnectButtonVisualState, _ localization: ConnectLocalization) -> Int {
        ConnectButtonSVGRenderer.render(
            ConnectButtonAppearance(state: state, connection: connection, localization: localization)
        ).utf8.count
    }
}
