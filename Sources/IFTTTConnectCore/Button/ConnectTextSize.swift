import Foundation

/// The text size the user chose (Dynamic Type), named as UIKit's `UIContentSizeCategory` values are, in the
/// kebab case the command line uses (`accessibility-extra-extra-extra-large`).
@_spi(Sandbox) public enum ConnectTextSize: String, Sendable, Hashable, CaseIterable {
    /// `UIContentSizeCategory.extraSmall`.
    case extraSmall = "extra-small"
    /// `UIContentSizeCategory.small`.
    case small = "small"
    /// `UIContentSizeCategory.medium`.
    case medium = "medium"
    /// `UIContentSizeCategory.large`: the system default.
    case large = "large"
    /// `UIContentSizeCategory.extraLarge`.
    case extraLarge = "extra-large"
    /// `UIContentSizeCategory.extraExtraLarge`.
    case extraExtraLarge = "extra-extra-large"
    /// `UIContentSizeCategory.extraExtraExtraLarge`: the largest size outside the accessibility sizes.
    case extraExtraExtraLarge = "extra-extra-extra-large"
    /// `UIContentSizeCategory.accessibilityMedium` (AX1).
    case accessibilityMedium = "accessibility-medium"
    /// `UIContentSizeCategory.accessibilityLarge` (AX2).
    case accessibilityLarge = "accessibility-large"
    /// `UIContentSizeCategory.accessibilityExtraLarge` (AX3).
    case accessibilityExtraLarge = "accessibility-extra-large"
    /// `UIContentSizeCategory.accessibilityExtraExtraLarge` (AX4).
    case accessibilityExtraExtraLarge = "accessibility-extra-extra-large"
    /// `UIContentSizeCategory.accessibilityExtraExtraExtraLarge` (AX5): the largest.
    case accessibilityExtraExtraExtraLarge = "accessibility-extra-extra-extra-large"

    /// Whether this is one of the five larger accessibility sizes (AX1 to AX5).
    public var isAccessibilitySize: Bool {
        Self.allCases.firstIndex(of: self)! >= Self.allCases.firstIndex(of: .accessibilityMedium)!
    }

    /// The position in ``allCases``, 0 (extra small) to 11 (AX5).
    var index: Int { Self.allCases.firstIndex(of: self)! }
}

/// The text styles the Connect Button and its About page scale with, as 2.8's `Font` mapped its sizes to them
/// (footnote for the footer, body for the About page's rows, title 2 for its title, headline for its button,
/// subheadline for 2.8's 18 pt "h6" of the email field). The pill's label, fixed at 22 pt in 2.8, follows
/// the headline curve here (the style of a button's title), up to ``ConnectButtonGeometry/largestPillTextSize``.
@_spi(Sandbox) public enum ConnectTextStyle: String, Sendable, Hashable, CaseIterable {
    /// `UIFont.TextStyle.title2`.
    case title2
    /// `UIFont.TextStyle.headline`.
    case headline
    /// `UIFont.TextStyle.body`.
    case body
    /// `UIFont.TextStyle.subheadline`.
    case subheadline
    /// `UIFont.TextStyle.footnote`.
    case footnote

    /// The system font's point size of this style in each ``ConnectTextSize``, extra small to AX5: the Dynamic
    /// Type size table of Apple's Human Interface Guidelines (iOS). `UIFontMetrics(forTextStyle:)` scales a
    /// custom font by the ratio of the size at the user's setting to the size at ``ConnectTextSize/large``.
    public var pointSizes: [Double] {
        switch self {
        case .title2: return [19, 20, 21, 22, 24, 26, 28, 34, 39, 44, 50, 56]
        case .headline, .body: return [14, 15, 16, 17, 19, 21, 23, 28, 33, 40, 47, 53]
        case .subheadline: return [12, 13, 14, 15, 17, 19, 21, 25, 30, 36, 42, 49]
        case .footnote: return [12, 12, 12, 13, 15, 17, 19, 23, 27, 33, 38, 44]
        }
    }

    /// The factor `UIFontMetrics` applies to a font of this style at `size` (1 at the default size).
    public func scale(for size: ConnectTextSize) -> Double {
        pointSizes[size.index] / pointSizes[ConnectTextSize.large.index]
    }

    /// `base` scaled to `size`, as `UIFontMetrics.scaledFont(for:)` would, rounded to a tenth of a point.
    public func scaled(_ base: Double, for size: ConnectTextSize) -> Double {
        (base * scale(for: size) * 10).rounded() / 10
    }
}

/// The direction the host lays its interface out in.
@_spi(Sandbox) public enum ConnectLayoutDirection: String, Sendable, Hashable, CaseIterable {
    /// Left to right: the knob starts on the left.
    case leftToRight = "ltr"
    /// Right to left (Arabic, Hebrew): the layout mirrors and the knob starts on the right.
    case rightToLeft = "rtl"
}

/// What the host decides about the button's look: style, light or dark mode, width, text size and layout
/// direction. A presenter reports it (``ConnectButtonPresenting/appearanceEnvironment``) and the controller
/// computes the ``ConnectButtonAppearance`` for it.
@_spi(Sandbox) public struct ConnectButtonEnvironment: Sendable, Hashable {
    /// The style the host chose.
    public var style: ConnectButtonStyle
    /// The host's light or dark mode.
    public var hostAppearance: ConnectButtonColorScheme
    /// The width available, in points.
    public var width: Double
    /// The user's text size.
    public var textSize: ConnectTextSize
    /// The layout direction.
    public var layoutDirection: ConnectLayoutDirection
    /// Whether the footer is shown.
    public var showsFooter: Bool

    /// Creates an environment; by default the light style in light mode, 360 pt, the default text size, left to
    /// right, with the footer.
    public init(
        style: ConnectButtonStyle = .light, hostAppearance: ConnectButtonColorScheme = .light,
        width: Double = ConnectButtonGeometry.maximumWidth, textSize: ConnectTextSize = .large,
        layoutDirection: ConnectLayoutDirection = .leftToRight, showsFooter: Bool = true
    ) {
        self.style = style
        self.hostAppearance = hostAppearance
        self.width = width
        self.textSize = textSize
        self.layoutDirection = layoutDirection
        self.showsFooter = showsFooter
    }
}
