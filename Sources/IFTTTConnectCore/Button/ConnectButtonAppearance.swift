import Foundation

/// Everything a renderer needs to draw the Connect Button in one visual state: texts in the user's language,
/// colours chosen for contrast, the service icon or its monogram, positions, progress, text sizes, the layout
/// direction, the footer and the transition into the state. A pure value; UIKit, SwiftUI and the SVG renderer
/// only map it to pixels, and ``ConnectButtonController`` hands it to its presenter
/// (`show(_:)` of ``ConnectButtonPresenting``), so ``HeadlessConnectButton`` records exactly
/// what UIKit draws.
///
/// Motion and accessibility build on it: a frame of an animation is this value with ``Knob/position`` (see
/// ``moveKnob(to:)``), ``Progress/fraction``, ``Label/opacity`` and ``animationProgress`` set for one moment;
/// assistive technologies read ``accessibilityLabel``, and ``usesLargeContentViewer`` says when the pill's
/// text stopped growing with the user's text size.
///
/// ```swift
/// let appearance = ConnectButtonAppearance(state: .connect, connection: connection,
///                                          localization: ConnectLocalization(identifier: "de"),
///                                          style: .dynamic, hostAppearance: .dark, width: 320)
/// appearance.label?.text        // "Grocery Express verbinden"
/// let svg = ConnectButtonSVGRenderer.render(appearance)
/// ```
@_spi(Sandbox) public struct ConnectButtonAppearance: Sendable, Hashable {
    /// The state this appearance shows.
    public var state: ConnectButtonVisualState
    /// The style the host asked for.
    public var style: ConnectButtonStyle
    /// The host appearance the colours were chosen for (``style`` resolved).
    public var colorScheme: ConnectButtonColorScheme
    /// The localization the texts come from, such as `"es-419"`.
    public var localization: String
    /// The sizes.
    public var geometry: ConnectButtonGeometry
    /// The pill's colour.
    public var backgroundColor: ConnectColor
    /// The centred label, absent in the email and checkmark states.
    public var label: Label?
    /// The knob, present when it rests on the pill (``ConnectButtonVisualState/connect`` and
    /// ``ConnectButtonVisualState/connected``).
    public var knob: Knob?
    /// The progress bar, in the states that show one.
    public var progress: Progress?
    /// The email field and its confirm button, in the email state.
    public var emailField: EmailField?
    /// The checkmark, in the checkmark state.
    public var checkmark: Checkmark?
    /// The footer under the pill, unless the host hid it.
    public var footer: Footer?
    /// How the button animates into this state and when the flow moves on by itself.
    public var transition: Transition
    /// What assistive technologies read for the button.
    public var accessibilityLabel: String
    /// Whether taps and drags act in this state.
    public var isInteractive: Bool
    /// The user's text size the fonts were scaled for.
    public var textSize: ConnectTextSize
    /// The layout direction; frames are already mirrored for ``ConnectLayoutDirection/rightToLeft``.
    public var layoutDirection: ConnectLayoutDirection
    /// Whether the pill's texts were capped below the user's text size (the accessibility sizes): the pill keeps
    /// its height, so a platform shows its label in the Large Content Viewer instead of clipping it.
    public var usesLargeContentViewer: Bool
    /// How far the animation into this state has run, 0 to 1; 1 (at rest) unless a motion timeline computed this
    /// appearance for one frame.
    public var animationProgress: Double = 1
    /// How far the pill and everything on it is moved sideways, in points (the invalid-email shake); the footer
    /// stays.
    public var pillOffset: Double = 0

    /// The label on the pill.
    public struct Label: Sendable, Hashable {
        /// The localized text.
        public var text: String
        /// Its colour.
        public var color: ConnectColor
        /// Space kept clear at each end of the pill.
        public var insets: Insets
        /// The font size before shrinking to fit (bold).
        public var fontSize: Double
        /// The smallest scale the text may shrink to before it is cut.
        public var minimumScaleFactor: Double
        /// A repeating fade, while loading.
        public var pulse: Pulse?
        /// The label's opacity, 1 at rest (animation frames cross-fade labels with it).
        public var opacity: Double = 1

        /// Creates a label.
        public init(
            text: String, color: ConnectColor, insets: Insets, fontSize: Double = ConnectButtonGeometry.labelFontSize,
            minimumScaleFactor: Double = 0.5, pulse: Pulse? = nil
        ) {
            self.text = text
            self.color = color
            self.insets = insets
            self.fontSize = fontSize
            self.minimumScaleFactor = minimumScaleFactor
            self.pulse = pulse
        }
    }

    /// Horizontal insets of the label.
    public struct Insets: Sendable, Hashable {
        /// From the left end of the pill.
        public var left: Double
        /// From the right end of the pill.
        public var right: Double

        /// Creates insets.
        public init(left: Double, right: Double) {
            self.left = left
            self.right = right
        }

        /// 36 pt on both sides.
        public static let standard = Insets(
            left: ConnectButtonGeometry.standardLabelInset,
            right: ConnectButtonGeometry.standardLabelInset)
        /// Clear of a knob on the left.
        public static let avoidingLeftKnob = Insets(
            left: ConnectButtonGeometry.knobLabelInset,
            right: ConnectButtonGeometry.standardLabelInset)
        /// Clear of a knob on the right.
        public static let avoidingRightKnob = Insets(
            left: ConnectButtonGeometry.standardLabelInset,
            right: ConnectButtonGeometry.knobLabelInset)
    }

    /// A repeating opacity animation.
    public struct Pulse: Sendable, Hashable {
        /// The lowest opacity reached.
        public var minimumOpacity: Double
        /// One full cycle (1 → minimum → 1), in seconds; linear.
        public var period: Double

        /// The loading pulse: 1 ↔ 0.4 every 1.2 s.
        public static let loading = Pulse(minimumOpacity: 0.4, period: 1.2)
    }

    /// The round knob the user slides.
    public struct Knob: Sendable, Hashable {
        /// 0 at the leading end (off: left, or right in right-to-left layouts), 1 at the trailing end (on).
        public var position: Double
        /// Its frame on the pill.
        public var frame: ConnectButtonRect
        /// Its colour: the brand colour, made to stand out from the pill when the two are too close.
        public var color: ConnectColor
        /// What is drawn on it.
        public var icon: Icon
        /// The service icon's URL while it loads, or `nil` when the service has none.
        public var iconURL: URL?
        /// The letter drawn when no image can be shown (also when a platform cannot decode ``Icon/image(_:)``).
        public var monogram: String
        /// The monogram's colour, chosen for contrast with ``color``.
        public var monogramColor: ConnectColor
        /// The icon's frame (half the knob, centred).
        public var iconFrame: ConnectButtonRect
        /// The drop shadow's opacity (black, radius 6, offset 0/3).
        public var shadowOpacity: Double
    }

    /// The picture on the knob: never empty while there is a service.
    public enum Icon: Sendable, Hashable {
        /// The service's white-on-transparent icon, loaded.
        case image(ConnectButtonIconImage)
        /// The first letter of the service's name: while its icon loads, when loading failed, or when it has none.
        case monogram(String, color: ConnectColor)
        /// Nothing: there is no service (an Interface Builder preview).
        case none
    }

    /// The bar that fills the pill from its leading end (the right in right-to-left layouts).
    public struct Progress: Sendable, Hashable {
        /// The filled fraction to draw now, 0 to 1.
        public var fraction: Double
        /// The fraction the bar animates to.
        public var target: Double
        /// How long it takes to get from the state's start to ``target``, in seconds (linear).
        public var duration: Double
        /// Its colour.
        public var color: ConnectColor
    }

    /// The email step's field and the confirm button the knob turns into.
    public struct EmailField: Sendable, Hashable {
        /// The text in the field.
        public var text: String
        /// The placeholder when ``text`` is empty.
        public var placeholder: String
        /// The field's frame.
        public var frame: ConnectButtonRect
        /// The typed text's colour.
        public var textColor: ConnectColor
        /// The placeholder's colour (opaque, chosen for contrast).
        public var placeholderColor: ConnectColor
        /// The font size.
        public var fontSize: Double
        /// The confirm button: the knob grown by 72/64, its end towards the field squared.
        public var confirmFrame: ConnectButtonRect
        /// The confirm button's colour.
        public var confirmColor: ConnectColor
        /// The glyph's colour on the confirm button.
        public var confirmGlyphColor: ConnectColor
        /// The confirm button's accessibility label.
        public var confirmAccessibilityLabel: String

        /// The confirm glyph, 2.8's: a triangle 9 pt wide and 16 pt tall pointing away from the field (to the
        /// right, or to the left in right-to-left layouts), its corners rounded by a 1.5 pt round-joined stroke
        /// of its colour; centred on its centroid. The three corners, the tip second.
        var confirmGlyph: [(x: Double, y: Double)] {
            let d = confirmFrame.x < frame.x ? -1.0 : 1.0
            let cx = confirmFrame.midX
            let cy = confirmFrame.midY
            return [(cx - 3 * d, cy - 8), (cx + 6 * d, cy), (cx - 3 * d, cy + 8)]
        }
    }

    /// The circled tick shown when activation finished.
    public struct Checkmark: Sendable, Hashable {
        /// The circle's frame, centred on the pill.
        public var frame: ConnectButtonRect
        /// The stroke colour.
        public var color: ConnectColor
        /// The time the circle and tick take to draw: a 0.75 s curve then a 0.3 s stroke.
        public var drawDuration: Double
        /// The circle's scale while it grows, 0 to 1.
        public var circleScale: Double = 1
        /// How much of the tick is stroked, 0 to 1.
        public var stroke: Double = 1
        /// How far the dot has travelled round the circle while it travels, 0 to 1 (``ConnectButtonCheckmarkShape``).
        public var dot: Double?
    }

    /// The line under the pill.
    public struct Footer: Sendable, Hashable {
        /// Which footer this is.
        public enum Kind: String, Sendable, Hashable {
            /// "WORKS WITH IFTTT", 2.8's lockup.
            case worksWithIFTTT
            /// The email step's explanation and its "learn more" link.
            case enterEmail
            /// The email is not valid (error colour).
            case emailInvalid
            /// A new account is being set up for an email.
            case creatingAccount
            /// Loading failed, with a retry link (error colour).
            case loadingFailed
        }

        /// What tapping the footer does.
        public enum Action: String, Sendable, Hashable {
            /// Opens the About page.
            case showAbout
            /// Loads the Connection again.
            case retry
        }

        /// Which footer this is.
        public var kind: Kind
        /// The styled text.
        public var text: StyledText
        /// Its first line's frame below the pill (longer footers wrap onto more lines of this height).
        public var frame: ConnectButtonRect
        /// The font size.
        public var fontSize: Double
        /// What a tap does, if anything.
        public var action: Action?
        /// Its opacity while it cross-fades with another footer.
        public var opacity: Double = 1
    }

    /// How the button animates into this state, and the timer that moves the flow on.
    public struct Transition: Sendable, Hashable {
        /// Timing curves.
        public enum Curve: String, Sendable, Hashable {
            /// Slow start and end.
            case easeInOut
            /// Constant speed.
            case linear
        }

        /// How long the change into this state animates, in seconds (0.4 s; 0.5 s into the email step).
        public var duration: Double
        /// The curve of that animation.
        public var curve: Curve
        /// When the new label starts fading in, as a fraction of ``duration`` (the old one fades out over all of it).
        public var labelFadeInStart: Double
        /// How long the state stays before the flow moves on by itself, in seconds; `nil` waits for the user or
        /// the network.
        public var hold: Double?
        /// The state the button moves to after ``hold``, when that is fixed.
        public var next: ConnectButtonVisualState?

        /// The default change: 0.4 s, ease-in-out, label fading in from half way.
        public static let standard = Transition(
            duration: 0.4, curve: .easeInOut, labelFadeInStart: 0.5, hold: nil, next: nil)
    }

    /// Moves the knob to `position` (0 leading, 1 trailing), as an animation frame does; its frame and icon frame
    /// follow, mirrored in right-to-left layouts.
    ///
    /// - Parameter position: The new position, clamped to 0...1.
    public mutating func moveKnob(to position: Double) {
        guard var knob else { return }
        let frame = geometry.knobFrame(position: position, direction: layoutDirection)
        let size = knob.iconFrame.width
        knob.position = min(1, max(0, position))
        knob.frame = frame
        knob.iconFrame = ConnectButtonRect(
            x: frame.midX - size / 2, y: frame.midY - size / 2, width: size, height: size)
        self.knob = knob
    }
}
