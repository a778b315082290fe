import Foundation

/// A rectangle in points, origin at the top left.
@_spi(Sandbox) public struct ConnectButtonRect: Sendable, Hashable {
    /// The left edge.
    public var x: Double
    /// The top edge.
    public var y: Double
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The horizontal centre.
    public var midX: Double { x + width / 2 }
    /// The vertical centre.
    public var midY: Double { y + height / 2 }
    /// The right edge.
    public var maxX: Double { x + width }
    /// The bottom edge.
    public var maxY: Double { y + height }
}

/// The sizes of the Connect Button, in points: a 72 pt pill at most 360 pt wide, with a 64 pt knob.
@_spi(Sandbox) public struct ConnectButtonGeometry: Sendable, Hashable {
    /// The pill's height.
    public static let height = 72.0
    /// The widest the pill gets (5 × height); wider containers centre it.
    public static let maximumWidth = 5 * height
    /// The narrowest the pill gets (2 × height), so the knob always has room to slide.
    public static let minimumWidth = 2 * height
    /// The gap between the pill's edge and the knob.
    public static let knobInset = 4.0
    /// The knob's diameter (height − 2 × inset).
    public static let knobDiameter = height - 2 * knobInset
    /// The service icon on the knob (half the knob).
    public static let iconSize = knobDiameter / 2
    /// The checkmark circle's diameter.
    public static let checkmarkDiameter = 42.0
    /// The label's inset from a pill end that has no knob.
    public static let standardLabelInset = height / 2
    /// The label's inset from a pill end that has the knob: clear of the knob by 8 pt. (The original's
    /// 64 pt let long labels run under the knob.)
    public static let knobLabelInset = knobInset + knobDiameter + 8
    /// The space between the pill and the footer.
    public static let footerSpacing = 15.0
    /// The footer's font size.
    public static let footerFontSize = 14.0
    /// The footer line's height (1.1 × a 14 pt line).
    public static let footerHeight = (footerFontSize * 1.4 * 1.1).rounded()
    /// The label's font size before shrinking to fit.
    public static let labelFontSize = 22.0
    /// WCAG 2's large text for a bold font: 14 pt, 18.66 CSS px (a point on screen is a CSS px).
    static let largeBoldTextSize = 18.66
    /// The email field's font size.
    public static let emailFontSize = 18.0
    /// The largest text size the pill's texts grow to: the pill keeps its height, so at the accessibility sizes
    /// its label stays at this size and the platform's Large Content Viewer shows it instead.
    public static let largestPillTextSize = ConnectTextSize.extraExtraExtraLarge

    /// The height of one footer line for a font of `fontSize` points (1.1 × its 1.4 line height, as 2.8's
    /// footer container).
    public static func footerLineHeight(fontSize: Double) -> Double {
        (fontSize * 1.4 * 1.1).rounded()
    }

    /// The pill's width: the requested width clamped to ``minimumWidth``...``maximumWidth``.
    public let width: Double

    /// Creates the geometry for a container `width` points wide.
    public init(width: Double) {
        self.width = min(Self.maximumWidth, max(Self.minimumWidth, width.isFinite ? width : Self.maximumWidth))
    }

    /// The pill.
    public var pillFrame: ConnectButtonRect { ConnectButtonRect(x: 0, y: 0, width: width, height: Self.height) }

    /// The knob at `position` (0 = leading end, 1 = trailing end) scaled by `scale` around its centre; in a
    /// right-to-left layout the leading end is on the right.
    public func knobFrame(
        position: Double, scale: Double = 1, direction: ConnectLayoutDirection = .leftToRight
    ) -> ConnectButtonRect {
        let travel = width - 2 * Self.knobInset - Self.knobDiameter
        let centreX = Self.knobInset + Self.knobDiameter / 2 + travel * min(1, max(0, position))
        let size = Self.knobDiameter * scale
        let frame = ConnectButtonRect(x: centreX - size / 2, y: Self.height / 2 - size / 2, width: size, height: size)
        return direction == .rightToLeft ? mirrored(frame) : frame
    }

    /// `rect` mirrored across the pill's vertical centre line (for right-to-left layouts).
    public func mirrored(_ rect: ConnectButtonRect) -> ConnectButtonRect {
        ConnectButtonRect(x: width - rect.x - rect.width, y: rect.y, width: rect.width, height: rect.height)
    }

    /// The footer line, below the pill.
    public var footerFrame: ConnectButtonRect {
        ConnectButtonRect(x: 0, y: Self.height + Self.footerSpacing, width: width, height: Self.footerHeight)
    }

    /// The whole button's height: the pill, plus the spacing and footer when there is one.
    public func totalHeight(hasFooter: Bool) -> Double {
        hasFooter ? footerFrame.maxY : Self.height
    }
}
