import Foundation

extension ConnectColor {
    /// The HSB brightness: the largest of the three components, 0 to 1.
    @_spi(Sandbox) public var brightness: Double {
        Double(max(red, green, blue)) / 255
    }

    /// The same hue and saturation with HSB brightness `value` (clamped to 0...1).
    @_spi(Sandbox) public func withBrightness(_ value: Double) -> ConnectColor {
        let target = min(1, max(0, value))
        let current = brightness
        guard current > 0 else {
            let grey = UInt8((target * 255).rounded())
            return ConnectColor(red: grey, green: grey, blue: grey)
        }
        func scale(_ component: UInt8) -> UInt8 {
            UInt8(min(255, max(0, (Double(component) * target / current).rounded())))
        }
        return ConnectColor(red: scale(red), green: scale(green), blue: scale(blue))
    }

    /// A version that stands out from the original: dark colours (brightness below 0.25) get `brightening`
    /// more brightness, the others `darkening` less.
    @_spi(Sandbox) public func contrasting(brightening: Double = 0.08, darkening: Double = 0.15) -> ConnectColor {
        brightness < 0.25 ? withBrightness(brightness + brightening) : withBrightness(brightness - darkening)
    }

    /// The WCAG 2 contrast ratio between this colour and `other`, from 1 (same) to 21 (black on white).
    @_spi(Sandbox) public func contrastRatio(with other: ConnectColor) -> Double {
        let a = relativeLuminance
        let b = other.relativeLuminance
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}

/// The fixed colours of the Connect Button.
@_spi(Sandbox) public enum ConnectButtonPalette {
    /// The pill of the `.light` style (for light host backgrounds): `#222222`.
    public static let almostBlack = ConnectColor(red: 0x22, green: 0x22, blue: 0x22)
    /// The background of the email step, and the progress bar without a service in the dark style: `#CCCCCC`.
    public static let lightGrey = ConnectColor(red: 0xCC, green: 0xCC, blue: 0xCC)
    /// The email field's typed text: `#333333` (2.8's `#666666` on the `#CCCCCC` pill was 3.58:1, below WCAG AA).
    public static let emailText = ConnectColor(red: 0x33, green: 0x33, blue: 0x33)
    /// The email field's placeholder: `#505050` (5.0:1 on `#CCCCCC`).
    public static let emailPlaceholder = ConnectColor(red: 0x50, green: 0x50, blue: 0x50)
    /// Footer text on light hosts: `#6E6E6E` (5.1:1 on white; 2.8's `#999999` was 2.85:1).
    public static let footerOnLight = ConnectColor(red: 0x6E, green: 0x6E, blue: 0x6E)
    /// 2.8's email text and placeholder, and the About page's icons and legal text: `#666666`.
    public static let mediumGrey = ConnectColor(red: 0x66, green: 0x66, blue: 0x66)
    /// The progress bar without a service in the light style: `#414141`.
    public static let grey = ConnectColor(red: 0x41, green: 0x41, blue: 0x41)
    /// The knob when the service has no brand colour: `#0099FF`.
    public static let blue = ConnectColor(red: 0x00, green: 0x99, blue: 0xFF)
    /// Footer text on dark hosts (7.4:1 on black); 2.8 used it on every host: `#999999`.
    public static let footer = ConnectColor(red: 0x99, green: 0x99, blue: 0x99)
    /// Footer error text on light hosts: `#D70015`, the system red's high-contrast variant (5.4:1 on white;
    /// the system red `#FF3B30` was 3.55:1).
    public static let errorLight = ConnectColor(red: 0xD7, green: 0x00, blue: 0x15)
    /// Footer error text on dark hosts: `#FF453A`.
    public static let errorDark = ConnectColor(red: 0xFF, green: 0x45, blue: 0x3A)
}
