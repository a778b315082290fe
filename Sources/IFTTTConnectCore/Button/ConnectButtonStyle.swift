import Foundation

/// How the Connect Button is coloured, chosen for the background the host app puts it on.
public enum ConnectButtonStyle: String, Sendable, Hashable, CaseIterable {
    /// For light host backgrounds: an almost-black pill with white text. The default.
    case light
    /// For dark host backgrounds: a white pill with black text.
    case dark
    /// Follows the host's appearance: ``light`` in light mode, ``dark`` in dark mode.
    case dynamic

    /// The host appearance this style draws for, given the host's current appearance.
    @_spi(Sandbox) public func resolved(for hostAppearance: ConnectButtonColorScheme) -> ConnectButtonColorScheme {
        switch self {
        case .light: return .light
        case .dark: return .dark
        case .dynamic: return hostAppearance
        }
    }
}

/// The appearance of the host app around the button (light mode or dark mode).
@_spi(Sandbox) public enum ConnectButtonColorScheme: String, Sendable, Hashable, CaseIterable {
    /// A light background.
    case light
    /// A dark background.
    case dark

    /// The pill's colour for this host appearance.
    public var pillColor: ConnectColor { self == .light ? ConnectButtonPalette.almostBlack : .white }
    /// The label's colour on the pill.
    public var labelColor: ConnectColor { self == .light ? .white : .black }
    /// A typical host background, which renderers may draw behind the button.
    public var hostBackgroundColor: ConnectColor { self == .light ? .white : .black }
    /// The progress bar's colour when there is no service brand colour.
    public var neutralProgressColor: ConnectColor {
        self == .light ? ConnectButtonPalette.grey : ConnectButtonPalette.lightGrey
    }
    /// The footer's text colour on this host's background (WCAG AA).
    public var footerColor: ConnectColor {
        self == .light ? ConnectButtonPalette.footerOnLight : ConnectButtonPalette.footer
    }
    /// The footer's error colour.
    public var errorColor: ConnectColor {
        self == .light ? ConnectButtonPalette.errorLight : ConnectButtonPalette.errorDark
    }
}
