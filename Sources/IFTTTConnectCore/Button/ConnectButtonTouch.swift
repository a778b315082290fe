import Foundation

/// A finger on the Connect Button, as a pure state machine: press, move, release and cancel go in; the knob's
/// position, the pressed highlight and, on release, what happens come out. UIKit and SwiftUI only forward their
/// touches (in the pill's coordinates, seconds for time) and draw ``ConnectButtonAppearance/applying(_:)``.
///
/// What a finger feels (2.8's drag, see the Connect Button article): the pill highlights while pressed; a touch
/// that moves more than ``slop`` drags the knob, which follows the finger along its track; on release the knob
/// toggles or snaps back. Off → on has light resistance: it toggles past ``lightThreshold`` of the track or on a
/// fling towards "on" (``flingSpeed`` track lengths per second), and snaps back on a short drag or a fling back.
/// On → off has heavy resistance: only past half the track, flings ignored. A touch that never moved is a tap,
/// which toggles when it ends on the pill; a touch that ends off the pill or is cancelled does nothing.
@_spi(Sandbox) public struct ConnectButtonTouch: Sendable, Hashable {
    /// One touch event, in the pill's coordinates (x from its left edge) and seconds.
    @_spi(Sandbox) public enum Event: Sendable, Hashable {
        /// The finger went down at `x`, `y`.
        case press(x: Double, y: Double, time: Double)
        /// The finger moved to `x`, `y`.
        case move(x: Double, y: Double, time: Double)
        /// The finger lifted at `x`, `y`.
        case release(x: Double, y: Double, time: Double)
        /// The system took the touch (a scroll view, a phone call).
        case cancel
    }

    /// What a release decided.
    @_spi(Sandbox) public enum Outcome: String, Sendable, Hashable {
        /// Nothing: the touch is still down, never started on the pill, ended off it, or was cancelled.
        case none
        /// The knob goes back where it started.
        case snapBack
        /// The Connection toggles (the flow's tap).
        case toggle
    }

    /// How far a finger moves before a touch becomes a drag, in points (2.8: 10).
    static let slop = 10.0
    /// Off → on toggles past this fraction of the track when released slowly.
    static let lightThreshold = 0.4
    /// On → off toggles only past this fraction of the track.
    static let heavyThreshold = 0.5
    /// A release faster than this, in track lengths per second, is a fling.
    static let flingSpeed = 0.5
    /// A finger still for longer than this, in seconds, has no speed left.
    static let restTime = 0.05

    /// The knob's resting position: 0 off, 1 on.
    @_spi(Sandbox) public let restingPosition: Double
    /// The pill's width, in points.
    let width: Double
    /// Right to left mirrors the drag: "on" is to the left.
    let layoutDirection: ConnectLayoutDirection
    /// Whether the pill takes touches in this state.
    let isEnabled: Bool

    /// Whether a finger is down on the pill (the highlight).
    @_spi(Sandbox) public private(set) var isPressed = false
    /// Whether the touch became a drag.
    @_spi(Sandbox) public private(set) var isDragging = false
    /// How far the knob has travelled from its resting position towards the other end, 0 to 1.
    @_spi(Sandbox) public private(set) var travel = 0.0
    /// The last release's decision.
    @_spi(Sandbox) public private(set) var outcome = Outcome.none
    private var startX: Double?
    private var lastX = 0.0
    private var lastTime = 0.0
    private var velocity = 0.0

    /// A touch model for the pill in `appearance` (its knob's position, width and direction; no knob, no drag).
    @_spi(Sandbox) public init(appearance: ConnectButtonAppearance) {
        restingPosition = appearance.knob?.position ?? 0
        width = appearance.geometry.width
        layoutDirection = appearance.layoutDirection
        isEnabled = appearance.isInteractive && appearance.knob != nil
    }

    /// The knob's position now, 0 (off end) to 1 (on end).
    @_spi(Sandbox) public var knobPosition: Double {
        restingPosition < 0.5 ? travel : 1 - travel
    }

    /// The length the knob's centre travels, in points.
    var trackLength: Double {
        max(1, width - ConnectButtonGeometry.knobDiameter - 2 * ConnectButtonGeometry.knobInset)
    }

    /// Applies `event`; ``outcome`` tells what a release decided.
    @_spi(Sandbox) public mutating func handle(_ event: Event) {
        switch event {
        case .press(let x, let y, let time):
            outcome = .none
            guard isEnabled, (0...ConnectButtonGeometry.height).contains(y), (0...width).contains(x) else { return }
            isPressed = true
            isDragging = false
            travel = 0
            velocity = 0
            startX = x
            lastX = x
            lastTime = time
        case .move(let x, _, let time):
            guard isPressed, let startX else { return }
            if !isDragging, abs(x - startX) > Self.slop { isDragging = true }
            track(x: x, time: time, from: startX)
        case .release(let x, let y, let time):
            guard isPressed, let startX else { return }
            track(x: x, time: time, from: startX)
            let onPill = (0...ConnectButtonGeometry.height).contains(y) && (0...width).contains(x)
            if !isDragging {
                outcome = onPill ? .toggle : .none
            } else {
                outcome = decision()
            }
            travel = outcome == .toggle ? 1 : 0
            isPressed = false
            isDragging = false
            self.startX = nil
        case .cancel:
            outcome = isDragging ? .snapBack : .none
            isPressed = false
            isDragging = false
            travel = 0
            startX = nil
        }
    }

    /// The travel and its speed (track lengths per second, positive towards the other end) for a finger at `x`.
    private mutating func track(x: Double, time: Double, from startX: Double) {
        let towardsOn = restingPosition < 0.5
        let direction: Double = (layoutDirection == .rightToLeft) == towardsOn ? -1 : 1
        if isDragging {
            travel = min(0.999, max(0.001, direction * (x - startX) / trackLength))
        }
        // The speed of the last movement; a finger that rested before lifting has none (a release reports the
        // place of the last movement again).
        if x != lastX, time > lastTime {
            velocity = direction * (x - lastX) / trackLength / (time - lastTime)
            lastX = x
            lastTime = time
        } else if time - lastTime > Self.restTime {
            velocity = 0
        }
    }

    /// 2.8's release rule: light resistance towards "on", heavy towards "off".
    private func decision() -> Outcome {
        if restingPosition < 0.5 {
            if velocity <= -Self.flingSpeed { return .snapBack }
            if velocity >= Self.flingSpeed { return .toggle }
            return travel >= Self.lightThreshold ? .toggle : .snapBack
        }
        return travel >= Self.heavyThreshold ? .toggle : .snapBack
    }
}

extension ConnectButtonAppearance {
    /// This appearance with a finger on it: the knob where `touch` holds it, the label fading as the knob covers
    /// it, and the pill highlighted (2.8's brightened background) while pressed.
    @_spi(Sandbox) public func applying(_ touch: ConnectButtonTouch) -> ConnectButtonAppearance {
        var result = self
        guard knob != nil else { return result }
        result.moveKnob(to: touch.knobPosition)
        if touch.isPressed {
            result.backgroundColor = backgroundColor.contrasting(brightening: 0.3)
        }
        if var label = result.label {
            label.opacity = max(0, 1 - 2 * touch.travel)
            result.label = label
        }
        return result
    }
}

extension ConnectButtonTouch {
    /// The frames of a scripted drag on `appearance`'s knob, `fps` a second: press on the knob, slide `distance`
    /// track lengths towards the other end over `duration` seconds, then either rest 0.1 s before lifting (a slow
    /// release) or lift while moving (`fling`), and the knob settling (0.25 s, in one step with `reduceMotion`)
    /// where the release sent it. Each frame is ``ConnectButtonAppearance/applying(_:)`` of the model at that
    /// moment; the outcome is the release's.
    @_spi(Sandbox) public static func scriptedDrag(
        on appearance: ConnectButtonAppearance, distance: Double, duration: Double = 0.4, fling: Bool = false,
        fps: Double = 30, reduceMotion: Bool = false
    ) -> (frames: [ConnectButtonAppearance], outcome: Outcome) {
        var touch = ConnectButtonTouch(appearance: appearance)
        guard let knob = appearance.knob else { return ([appearance], .none) }
        let step = 1 / max(1, fps)
        let x0 = knob.frame.midX
        let y = knob.frame.midY
        let sign: Double = (appearance.layoutDirection == .rightToLeft) == (knob.position < 0.5) ? -1 : 1
        let dx = sign * distance * touch.trackLength
        var frames: [ConnectButtonAppearance] = [appearance]
        touch.handle(.press(x: x0, y: y, time: 0))
        frames.append(appearance.applying(touch))
        var t = step
        while t < duration {
            let eased = t / duration
            touch.handle(.move(x: x0 + dx * eased, y: y, time: t))
            frames.append(appearance.applying(touch))
            t += step
        }
        touch.handle(.move(x: x0 + dx, y: y, time: duration))
        frames.append(appearance.applying(touch))
        var end = duration
        if !fling {
            end += 0.1
            touch.handle(.move(x: x0 + dx, y: y, time: end))
        }
        let held = touch.knobPosition
        touch.handle(.release(x: x0 + dx, y: y, time: end + step))
        let target = touch.knobPosition
        let settle = reduceMotion ? step : 0.25
        var s = step
        while s <= settle + step / 2 {
            let p = min(1, s / settle)
            let eased = 1 - (1 - p) * (1 - p)
            var frame = appearance.applying(touch)
            frame.moveKnob(to: held + (target - held) * eased)
            if var label = frame.label {
                let travel = abs((frame.knob?.position ?? knob.position) - knob.position)
                label.opacity = max(0, 1 - 2 * travel)
                frame.label = label
            }
            frames.append(frame)
            s += step
        }
        return (frames, touch.outcome)
    }
}
