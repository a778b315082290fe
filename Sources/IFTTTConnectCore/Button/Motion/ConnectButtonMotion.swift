import Foundation

/// How the Connect Button moves from one visual state to the next: a portable timeline of tracks with 2.8's
/// durations and curves, sampled into ``ConnectButtonMotionFrame``s.
///
/// A pure function of the two states and the Reduce Motion setting: UIKit samples it on every display refresh,
/// SwiftUI on every timeline tick, and `ifttt-connect button animate` renders its frames as SVG.
///
/// ```swift
/// let motion = ConnectButtonMotion(from: .connect, to: .enterEmail(email: "", isInvalid: false))
/// motion.duration                      // 0.75 (0.5 s slide and grow, then 0.25 s knob fade)
/// motion.frame(at: 0.25).knob?.position // about 0.5
/// ```
///
/// The numbers (ConnectSDK-iOS 2.8): a state change animates in 0.4 s ease-in-out (0.5 s into the email step);
/// the old label and the old footer fade out over the whole change and the new ones fade in from half way;
/// progress bars fill linearly (hand-off 1 s, lookup 0.75 s to half, new account 2.25 s, service 2 s, connecting
/// 2 s, disconnect 1.125 s to three quarters); an invalid email shakes the pill 10 pt to the left in 0.1 s and a
/// spring (mass 1, stiffness 1000, damping 7) brings it back; the checkmark's circle grows in 0.4 s ease-in-out
/// while a dot travels round it in 0.75 s ease-in to where the tick starts, then the tick strokes in 0.3 s
/// ease-out. The word on the pill fades out in the first 0.2 s before the checkmark begins, so nothing is drawn
/// inside it. The loading label pulses 1 ↔ 0.4 every 1.2 s. With Reduce Motion nothing slides, grows, shakes or
/// pulses: the knob and the checkmark cross-fade in place.
@_spi(Sandbox) public struct ConnectButtonMotion: Sendable, Hashable {
    /// A timing curve, mapping elapsed fraction to animated fraction (both 0...1).
    public enum Curve: String, Sendable, Hashable, CaseIterable {
        /// Constant speed.
        case linear
        /// Slow start (cubic Bézier 0.42, 0, 1, 1, as Core Animation's `easeIn`).
        case easeIn
        /// Slow end (cubic Bézier 0, 0, 0.58, 1, as Core Animation's `easeOut`).
        case easeOut
        /// Slow start and end (cubic Bézier 0.42, 0, 0.58, 1, as Core Animation's `easeInEaseOut`).
        case easeInOut
        /// 2.8's shake spring (mass 1, stiffness 1000, damping 7, starting at rest) over its settling time
        /// (``ConnectButtonMotion/shakeSpringDuration``): it overshoots and swings back, so it is not monotonic and
        /// goes outside 0...1 on the way.
        case spring

        /// The animated fraction at elapsed fraction `x` (clamped to 0...1). Exact at 0 and 1; monotonic except
        /// for ``spring``.
        public func value(at x: Double) -> Double {
            let x = min(1, max(0, x.isFinite ? x : 0))
            if x == 0 || x == 1 { return x }
            switch self {
            case .linear: return x
            case .easeIn: return Self.bezier(x, 0.42, 0, 1, 1)
            case .easeOut: return Self.bezier(x, 0, 0, 0.58, 1)
            case .easeInOut: return Self.bezier(x, 0.42, 0, 0.58, 1)
            case .spring: return Self.spring(seconds: x * ConnectButtonMotion.shakeSpringDuration)
            }
        }

        /// An underdamped spring released at rest from 0 towards 1, `seconds` after its release: with
        /// ω₀ = √(k/m) and ζ = c / (2√(km)), 1 − e^(−ζω₀t) (cos ω_d t + ζω₀/ω_d sin ω_d t), ω_d = ω₀√(1−ζ²).
        static func spring(seconds t: Double, mass: Double = 1, stiffness: Double = 1000, damping: Double = 7)
            -> Double
        {
            let omega = (stiffness / mass).squareRoot()
            let zeta = damping / (2 * (stiffness * mass).squareRoot())
            let decay = zeta * omega
            let omegaD = omega * (1 - zeta * zeta).squareRoot()
            return 1 - exp(-decay * t) * (cos(omegaD * t) + decay / omegaD * sin(omegaD * t))
        }

        /// The y of the cubic Bézier (0,0) (x1,y1) (x2,y2) (1,1) at the point whose x is `x`, found by bisection.
        static func bezier(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
            func coordinate(_ t: Double, _ a: Double, _ b: Double) -> Double {
                let u = 1 - t
                return 3 * u * u * t * a + 3 * u * t * t * b + t * t * t
            }
            var low = 0.0
            var high = 1.0
            for _ in 0..<40 {
                let mid = (low + high) / 2
                if coordinate(mid, x1, x2) < x { low = mid } else { high = mid }
            }
            return coordinate((low + high) / 2, y1, y2)
        }
    }

    /// What a track animates.
    public enum Property: String, Sendable, Hashable, CaseIterable {
        /// The knob's position, 0 (left, off) to 1 (right, on).
        case knobPosition
        /// The knob's opacity.
        case knobOpacity
        /// The knob's scale around its centre (1.125 when it has become the email step's confirm button).
        case knobScale
        /// The progress bar's filled fraction.
        case progress
        /// The opacity of the label of the state being left.
        case outgoingLabelOpacity
        /// The opacity of the label of the state being entered.
        case incomingLabelOpacity
        /// The opacity of the footer of the state being left.
        case outgoingFooterOpacity
        /// The opacity of the footer of the state being entered.
        case incomingFooterOpacity
        /// How far the pill and everything on it is moved sideways, in points (the invalid-email shake; negative
        /// is towards the leading edge).
        case pillOffset
        /// The opacity of the email field and its confirm button.
        case emailOpacity
        /// The checkmark's opacity.
        case checkmarkOpacity
        /// The checkmark circle's scale, 0 to 1.
        case checkmarkScale
        /// How far the dot has travelled round the circle to where the tick starts, 0 to 1.
        case checkmarkDot
        /// How much of the tick is stroked, 0 to 1.
        case checkmarkStroke
        /// How far the pill's colour has changed from the old state's to the new one's, 0 to 1.
        case backgroundBlend
    }

    /// One property animated from one value to another over part of the timeline.
    public struct Track: Sendable, Hashable {
        /// What is animated.
        public var property: Property
        /// The value before ``start``.
        public var from: Double
        /// The value from ``start`` + ``duration`` on.
        public var to: Double
        /// When the change begins, in seconds from the start of the transition.
        public var start: Double
        /// How long the change takes, in seconds (0 jumps at ``start``).
        public var duration: Double
        /// Its timing curve.
        public var curve: Curve

        /// Creates a track.
        public init(property: Property, from: Double, to: Double, start: Double, duration: Double, curve: Curve) {
            self.property = property
            self.from = from
            self.to = to
            self.start = start
            self.duration = duration
            self.curve = curve
        }

        /// The value at `time` seconds.
        public func value(at time: Double) -> Double {
            guard duration > 0 else { return time < start ? from : to }
            let fraction = curve.value(at: (time - start) / duration)
            return from + (to - from) * fraction
        }
    }

    /// The state being left.
    public let from: ConnectButtonVisualState
    /// The state being entered.
    public let to: ConnectButtonVisualState
    /// Whether the user asked for reduced motion (cross-fades instead of slides, no pulse).
    public let reduceMotion: Bool
    /// The tracks, in the order they begin.
    public let tracks: [Track]
    /// The loading label's repeating fade (1 → 0.4 → 1 every 1.2 s, linear), absent with Reduce Motion or
    /// outside the loading state.
    public let pulse: ConnectButtonAppearance.Pulse?
    /// How long the timeline runs, in seconds: until its last track ends, or one pulse period.
    public let duration: Double

    /// The default change of state: 0.4 s, ease-in-out.
    public static let standardDuration = 0.4
    /// The change into the email step: 0.5 s.
    public static let emailDuration = 0.5
    /// The knob fading out after it became the confirm button: 0.25 s, ease-out.
    public static let emailKnobFade = 0.25
    /// The word on the pill fading out before the checkmark draws itself: 0.2 s, ease-in-out.
    public static let checkmarkWordFade = 0.2
    /// The checkmark circle growing: 0.4 s, ease-in-out.
    public static let checkmarkCircleDuration = 0.4
    /// The dot travelling round the circle to where the tick starts: 0.75 s, ease-in.
    public static let checkmarkDotDuration = 0.75
    /// The tick stroking in once the dot arrived: 0.3 s, ease-out.
    public static let checkmarkStrokeDuration = 0.3
    /// How far an invalid email moves the pill before it springs back, in points.
    public static let shakeDistance = -10.0
    /// The pill moving out: 0.1 s, ease-in-out.
    public static let shakeOutDuration = 0.1
    /// The spring bringing the pill back, until it is within a third of a point of rest: 1 s.
    public static let shakeSpringDuration = 1.0

    /// The transitions the activation flow goes through, in flow order (used by the documentation and tests).
    public static let flowTransitions: [(from: ConnectButtonVisualState, to: ConnectButtonVisualState)] = [
        (.loading, .loading),
        (.loading, .connect),
        (.connect, .slideToConnect),
        (.slideToConnect, .continueToService),
        (.connect, .enterEmail(email: "", isInvalid: false)),
        (.enterEmail(email: "jane@example.com", isInvalid: false), .enterEmail(email: "jane@", isInvalid: true)),
        (.enterEmail(email: "jane@example.com", isInvalid: false), .verifying),
        (.verifying, .creatingAccount(email: "jane@example.com")),
        (.creatingAccount(email: "jane@example.com"), .continueToService),
        (.continueToService, .connecting),
        (.connecting, .checkmark),
        (.checkmark, .connected),
        (.connected, .disconnecting),
        (.disconnecting, .disconnected),
        (.disconnected, .connect),
    ]

    /// Builds the timeline from `from` to `to`.
    ///
    /// - Parameters:
    ///   - from: The state on screen before the change. Equal to `to` gives the state's own motion (its
    ///     progress fill, or the loading pulse).
    ///   - to: The state being entered.
    ///   - reduceMotion: UIKit's `UIAccessibility.isReduceMotionEnabled` or SwiftUI's
    ///     `accessibilityReduceMotion`.
    public init(from: ConnectButtonVisualState, to: ConnectButtonVisualState, reduceMotion: Bool = false) {
        self.from = from
        self.to = to
        self.reduceMotion = reduceMotion
        var tracks: [Track] = []
        let change = Self.isEmail(to) && !Self.isEmail(from) ? Self.emailDuration : Self.standardDuration
        let same = from == to
        func add(_ property: Property, _ a: Double, _ b: Double, _ start: Double, _ length: Double, _ curve: Curve) {
            tracks.append(Track(property: property, from: a, to: b, start: start, duration: length, curve: curve))
        }

        if !same { add(.backgroundBlend, 0, 1, 0, change, .easeInOut) }

        // Labels and footers: the old one fades out over the whole change, the new one fades in from half way
        // (renderers draw a text that does not change once). Into the checkmark the word goes first.
        let intoCheckmark = Self.isCheckmark(to) && !same
        if !same {
            let fade = intoCheckmark ? Self.checkmarkWordFade : change
            if Self.hasLabel(from) { add(.outgoingLabelOpacity, 1, 0, 0, fade, .easeInOut) }
            if Self.hasLabel(to) { add(.incomingLabelOpacity, 0, 1, change / 2, change / 2, .easeInOut) }
        } else if Self.hasLabel(to) {
            add(.incomingLabelOpacity, 1, 1, 0, 0, .linear)
        }
        if !same {
            add(.outgoingFooterOpacity, 1, 0, 0, change, .easeInOut)
            add(.incomingFooterOpacity, 0, 1, change / 2, change / 2, .easeInOut)
        }

        // An invalid email shakes the pill: out in 0.1 s, back on a spring. Reduce Motion keeps it still (the
        // footer's message and the announcement still say what went wrong).
        if Self.becomesInvalid(from: from, to: to), !reduceMotion {
            add(.pillOffset, 0, Self.shakeDistance, 0, Self.shakeOutDuration, .easeInOut)
            add(.pillOffset, Self.shakeDistance, 0, Self.shakeOutDuration, Self.shakeSpringDuration, .spring)
        }

        // The knob.
        let start = Self.knobPosition(from)
        let end = Self.knobPosition(to)
        switch (from, to) {
        case (.connect, .slideToConnect):
            // Slides on, then the switch disappears at the end.
            if reduceMotion {
                add(.knobPosition, 0, 0, 0, 0, .linear)
                add(.knobOpacity, 1, 0, 0, change, .easeInOut)
            } else {
                add(.knobPosition, 0, 1, 0, change, .easeInOut)
                add(.knobOpacity, 1, 0, change * 0.8, change * 0.2, .easeInOut)
            }
        case (.connect, .enterEmail):
            // Slides right and grows into the confirm button from 25 %; the field fades in from 70 %; then the
            // switch fades out.
            if reduceMotion {
                add(.knobPosition, 0, 0, 0, 0, .linear)
                add(.knobOpacity, 1, 0, 0, change, .easeInOut)
                add(.emailOpacity, 0, 1, 0, change, .easeInOut)
            } else {
                add(.knobPosition, 0, 1, 0, change, .easeInOut)
                add(.knobScale, 1, Self.confirmScale, change * 0.25, change * 0.75, .easeInOut)
                add(.emailOpacity, 0, 1, change * 0.7, change * 0.3, .easeInOut)
                add(.knobOpacity, 1, 0, change, Self.emailKnobFade, .easeOut)
            }
        case (.checkmark, .connected):
            // The knob starts centred and slides right while the checkmark fades.
            if reduceMotion {
                add(.knobPosition, 1, 1, 0, 0, .linear)
            } else {
                add(.knobPosition, 0.5, 1, 0, change, .easeInOut)
            }
            add(.knobOpacity, 0, 1, 0, change, .easeInOut)
            add(.checkmarkOpacity, 1, 0, 0, change, .easeInOut)
        case (.connected, .disconnecting):
            // Slides off; the switch fades out from 80 %.
            if reduceMotion {
                add(.knobPosition, 1, 1, 0, 0, .linear)
                add(.knobOpacity, 1, 0, 0, change, .easeInOut)
            } else {
                add(.knobPosition, 1, 0, 0, change, .easeInOut)
                add(.knobOpacity, 1, 0, change * 0.8, change * 0.2, .easeInOut)
            }
        default:
            switch (start, end) {
            case (let a?, let b?) where a != b && !reduceMotion:
                add(.knobPosition, a, b, 0, change, .easeInOut)
            case (let a?, let b?):
                add(.knobPosition, a, b, 0, 0, .linear)
                if a != b {
                    add(.knobOpacity, 1, 1, 0, 0, .linear)
                }
            case (nil, let b?):
                add(.knobPosition, b, b, 0, 0, .linear)
                add(.knobOpacity, same ? 1 : 0, 1, 0, same ? 0 : change, .easeInOut)
            case (let a?, nil):
                add(.knobPosition, a, a, 0, 0, .linear)
                add(.knobOpacity, 1, 0, 0, change, .easeInOut)
            case (nil, nil):
                break
            }
        }

        // The email field fades out when the step is left.
        if Self.isEmail(from) && !Self.isEmail(to) { add(.emailOpacity, 1, 0, 0, change, .easeInOut) }
        if Self.isEmail(from) && Self.isEmail(to) { add(.emailOpacity, 1, 1, 0, 0, .linear) }

        // Progress bars fill linearly.
        if let fill = Self.progressFill(to) {
            add(.progress, fill.from, fill.to, 0, fill.duration, .linear)
        }

        // The checkmark draws itself once the word has gone: the circle grows while the dot travels round it,
        // then the tick strokes from where the dot stopped. Reduce Motion fades the whole checkmark in instead.
        if intoCheckmark {
            let begin = Self.hasLabel(from) ? Self.checkmarkWordFade : 0
            if reduceMotion {
                add(.checkmarkScale, 1, 1, 0, 0, .linear)
                add(.checkmarkDot, 1, 1, 0, 0, .linear)
                add(.checkmarkStroke, 1, 1, 0, 0, .linear)
                add(.checkmarkOpacity, 0, 1, begin, change - begin, .easeInOut)
            } else {
                add(.checkmarkOpacity, 0, 1, begin, 0, .linear)
                add(.checkmarkScale, 0, 1, begin, Self.checkmarkCircleDuration, .easeInOut)
                add(.checkmarkDot, 0, 1, begin, Self.checkmarkDotDuration, .easeIn)
                add(.checkmarkStroke, 0, 1, begin + Self.checkmarkDotDuration, Self.checkmarkStrokeDuration, .easeOut)
            }
        }

        let pulse: ConnectButtonAppearance.Pulse? = (to == .loading && !reduceMotion) ? .loading : nil
        self.tracks = tracks.sorted { ($0.start, $0.property.rawValue) < ($1.start, $1.property.rawValue) }
        self.pulse = pulse
        let last = tracks.map { $0.start + $0.duration }.max() ?? 0
        self.duration = max(last, pulse?.period ?? 0)
    }

    /// The sampled values at `time` seconds from the start of the transition. Tracks hold their end values after
    /// ``duration``; the loading pulse keeps repeating, so a player can pass the time elapsed since the change.
    public func frame(at time: Double) -> ConnectButtonMotionFrame {
        let elapsed = max(0, time.isFinite ? time : 0)
        let t = min(duration, elapsed)
        func value(_ property: Property) -> Double? {
            // The last track of a property that has begun wins; before the first, its start value holds.
            let own = tracks.filter { $0.property == property }
            guard let first = own.first else { return nil }
            return (own.last { $0.start <= t } ?? first).value(at: t)
        }
        var knob: ConnectButtonMotionFrame.Knob?
        if let position = value(.knobPosition) {
            knob = .init(position: position, opacity: value(.knobOpacity) ?? 1, scale: value(.knobScale) ?? 1)
        }
        var checkmark: ConnectButtonMotionFrame.Checkmark?
        if let opacity = value(.checkmarkOpacity) {
            let dot = value(.checkmarkDot) ?? 1
            checkmark = .init(
                opacity: opacity, scale: value(.checkmarkScale) ?? 1, stroke: value(.checkmarkStroke) ?? 1,
                dot: dot < 1 && opacity > 0 ? dot : nil)
        }
        var pulseOpacity = 1.0
        if let pulse {
            // Linear 1 → minimum → 1 over one period.
            let phase = elapsed.truncatingRemainder(dividingBy: pulse.period) / pulse.period
            let down = phase < 0.5 ? phase * 2 : (1 - phase) * 2
            pulseOpacity = 1 - (1 - pulse.minimumOpacity) * down
        }
        return ConnectButtonMotionFrame(
            time: elapsed,
            outgoingLabelOpacity: value(.outgoingLabelOpacity) ?? 0,
            incomingLabelOpacity: (value(.incomingLabelOpacity) ?? 0) * pulseOpacity,
            pulseOpacity: pulseOpacity, backgroundBlend: value(.backgroundBlend) ?? 1,
            outgoingFooterOpacity: value(.outgoingFooterOpacity) ?? 0,
            incomingFooterOpacity: value(.incomingFooterOpacity) ?? 1, pillOffset: value(.pillOffset) ?? 0,
            knob: knob, progress: value(.progress), emailOpacity: value(.emailOpacity), checkmark: checkmark)
    }

    /// Whether nothing moves any more at `time` seconds: the tracks have ended and there is no pulse.
    public func isFinished(at time: Double) -> Bool {
        pulse == nil && time >= duration
    }

    /// The frames at `framesPerSecond`, from 0 to ``duration`` inclusive: `ceil(duration × rate) + 1` frames,
    /// the last exactly at the end.
    public func frames(framesPerSecond: Double = 30) -> [ConnectButtonMotionFrame] {
        let rate = framesPerSecond.isFinite && framesPerSecond > 0 ? framesPerSecond : 30
        let count = Int((duration * rate - 1e-9).rounded(.up))
        return (0...max(0, count)).map { index in frame(at: min(duration, Double(index) / rate)) }
    }

    // MARK: - Facts about states

    /// How much the knob grows to become the email step's confirm button (72/64).
    static let confirmScale = ConnectButtonGeometry.height / ConnectButtonGeometry.knobDiameter

    static func isEmail(_ state: ConnectButtonVisualState) -> Bool {
        if case .enterEmail = state { return true }
        return false
    }

    static func isCheckmark(_ state: ConnectButtonVisualState) -> Bool {
        if case .checkmark = state { return true }
        return false
    }

    /// Whether the change rejects an email: into the email step's invalid state from the step itself (a
    /// confirm), not from a state already showing that rejection of that email.
    static func becomesInvalid(from: ConnectButtonVisualState, to: ConnectButtonVisualState) -> Bool {
        guard case .enterEmail(_, true) = to, case .enterEmail = from, from != to else { return false }
        return true
    }

    /// Whether the state shows a label on the pill.
    static func hasLabel(_ state: ConnectButtonVisualState) -> Bool {
        switch state {
        case .enterEmail, .checkmark: return false
        default: return true
        }
    }

    /// Where the knob rests in `state`, when it shows one.
    static func knobPosition(_ state: ConnectButtonVisualState) -> Double? {
        switch state {
        case .connect: return 0
        case .connected: return 1
        default: return nil
        }
    }

    /// The progress bar's fill in `state`: where it starts, where it goes and how long it takes (linear).
    static func progressFill(_ state: ConnectButtonVisualState) -> (from: Double, to: Double, duration: Double)? {
        switch state {
        case .slideToConnect: return (0, 1, 1.0)
        case .verifying: return (0, 0.5, 0.75)
        case .creatingAccount: return (0.5, 1, 2.25)
        case .continueToService: return (0, 1, 2.0)
        case .connecting: return (0, 1, 2.0)
        case .disconnecting: return (0, 0.75, 1.125)
        default: return nil
        }
    }
}

/// The button's animated values at one moment of a ``ConnectButtonMotion``. Renderers draw the destination
/// state's ``ConnectButtonAppearance`` with these values laid over it.
@_spi(Sandbox) public struct ConnectButtonMotionFrame: Sendable, Hashable {
    /// Seconds from the start of the transition.
    public var time: Double
    /// The opacity of the label of the state being left (0 once it has faded).
    public var outgoingLabelOpacity: Double
    /// The opacity of the label of the state being entered, the loading pulse included.
    public var incomingLabelOpacity: Double
    /// The loading pulse's opacity factor (1 without a pulse); a label whose text does not change is drawn at
    /// this opacity instead of cross-fading with itself.
    public var pulseOpacity: Double
    /// How far the pill's colour has changed from the old state's to the new one's, 0 to 1.
    public var backgroundBlend: Double
    /// The opacity of the footer of the state being left (0 once it has faded).
    public var outgoingFooterOpacity: Double
    /// The opacity of the footer of the state being entered; a footer whose text does not change is drawn at 1.
    public var incomingFooterOpacity: Double
    /// How far the pill and everything on it is moved sideways, in points (the invalid-email shake; negative is
    /// towards the leading edge, so right-to-left layouts mirror it). The footer stays.
    public var pillOffset: Double
    /// The knob, while either state shows one.
    public var knob: Knob?
    /// The progress bar's filled fraction, in states with a progress bar.
    public var progress: Double?
    /// The opacity of the email field and confirm button, while either state is the email step.
    public var emailOpacity: Double?
    /// The checkmark, while it draws itself or fades.
    public var checkmark: Checkmark?

    /// The knob's animated values.
    public struct Knob: Sendable, Hashable {
        /// 0 on the left (off), 1 on the right (on).
        public var position: Double
        /// Its opacity.
        public var opacity: Double
        /// Its scale around its centre.
        public var scale: Double
    }

    /// The checkmark's animated values.
    public struct Checkmark: Sendable, Hashable {
        /// Its opacity.
        public var opacity: Double
        /// The circle's scale, 0 to 1.
        public var scale: Double
        /// How much of the tick is drawn, 0 to 1.
        public var stroke: Double
        /// How far the dot has travelled round the circle to the tick's start, 0 to 1, while it travels (`nil`
        /// before the checkmark begins and once the tick strokes).
        public var dot: Double?
    }
}
