#if canImport(UIKit) && !os(watchOS)
import UIKit

/// Plays a ``ConnectButtonMotion`` on a ``ConnectButton``: a `CADisplayLink` redraws the button's canvas once per
/// display refresh with ``ConnectButtonAppearance/applying(_:from:)`` until the motion ends (the loading pulse repeats
/// until the state changes). Every frame's content comes from the portable timeline; this type only asks for redraws.
@MainActor
final class ConnectButtonMotionPlayer {
    /// The motion playing, with the appearance of the state it leaves and when it started.
    private var playing: (motion: ConnectButtonMotion, previous: ConnectButtonAppearance, start: Date)?
    private let frames = ConnectButtonFrameTicker()
    /// The view redrawn on every tick.
    weak var view: UIView?

    /// Whether a motion is running.
    var isPlaying: Bool { playing != nil }

    /// Starts `motion`, leaving `previous`; stops the one playing.
    func play(_ motion: ConnectButtonMotion, from previous: ConnectButtonAppearance) {
        stop()
        guard !motion.isFinished(at: 0) else { return }
        playing = (motion, previous, Date())
        frames.start { [weak self] in
            guard let self else { return false }
            self.tick()
            return self.isPlaying
        }
        view?.setNeedsDisplay()
    }

    /// Stops the motion; the view draws its state's appearance again.
    func stop() {
        frames.stop()
        if playing != nil {
            playing = nil
            view?.setNeedsDisplay()
        }
    }

    private func tick() {
        guard let playing else { return stop() }
        if playing.motion.isFinished(at: Date().timeIntervalSince(playing.start)) { return stop() }
        view?.setNeedsDisplay()
    }

    /// What to draw now: `current` (the state's appearance) at the running motion's current frame.
    func appearance(over current: ConnectButtonAppearance) -> ConnectButtonAppearance {
        guard let playing else { return current }
        let frame = playing.motion.frame(at: Date().timeIntervalSince(playing.start))
        return current.applying(frame, from: playing.previous)
    }
}

/// Calls a closure once per display refresh, on the main thread, until it returns `false` or ``stop()`` is called:
/// a `CADisplayLink` in the run loop's common modes (so frames keep coming while a scroll view tracks). A display
/// link retains its target, which holds only the closure: when the button goes away, the closure (holding the
/// player weakly) returns `false` and the link is invalidated on that frame.
///
/// The Linux check of the Apple-only lines against stub frameworks (scripts/check-apple.sh) has no Objective-C
/// runtime, so it cannot compile the display link's `@objc` target; it compiles the timer below in its place, which
/// no Apple platform builds. scripts/check-ios-sdk.sh compiles and links the display link against Apple's SDK.
@MainActor
final class ConnectButtonFrameTicker {
    #if canImport(ObjectiveC)
    /// The display link's target: the link is in the main run loop, so it calls `frame(_:)` on the main thread.
    @MainActor
    private final class Target: NSObject {
        let onFrame: @MainActor () -> Bool
        init(_ onFrame: @escaping @MainActor () -> Bool) { self.onFrame = onFrame }
        @objc func frame(_ link: CADisplayLink) {
            if !onFrame() { link.invalidate() }
        }
    }
    private var link: CADisplayLink?
    #else
    private var link: Timer?
    #endif

    /// Starts calling `onFrame` once per refresh until it returns `false`; stops the calls of an earlier start.
    func start(_ onFrame: @escaping @MainActor () -> Bool) {
        stop()
        #if canImport(ObjectiveC)
        let link = CADisplayLink(target: Target(onFrame), selector: #selector(Target.frame(_:)))
        link.add(to: .main, forMode: .common)
        #else
        let link = Timer(timeInterval: 1.0 / 60, repeats: true) { [weak self] _ in
            MainActor.assumeIsolated {
                if !onFrame() { self?.stop() }
            }
        }
        RunLoop.main.add(link, forMode: .common)
        #endif
        self.link = link
    }

    /// Stops the calls.
    func stop() {
        link?.invalidate()
        link = nil
    }
}

extension ConnectButton {
    /// Called when ``visualState`` changed from the state drawn as `previous`: plays the transition (the Reduce
    /// Motion variant when the user asked for it) and posts the new state's announcement.
    func didChangeVisualState(from previous: ConnectButtonAppearance) {
        guard previous.state != visualState else { return }
        motionPlayer.view = canvas
        motionPlayer.play(
            ConnectButtonMotion(
                from: previous.state, to: visualState, reduceMotion: UIAccessibility.isReduceMotionEnabled),
            from: previous)
        announceAccessibility()
        moveFocus(ConnectButtonFocus(from: previous.state, to: visualState))
    }

    /// Raises or dismisses the keyboard and moves VoiceOver to the element that replaced the one it was on.
    private func moveFocus(_ change: ConnectButtonFocus) {
        switch change.keyboard {
        case .raise: emailField.becomeFirstResponder()
        case .dismiss: emailField.resignFirstResponder()
        case .unchanged: break
        }
        guard let kind = change.focus else { return }
        let element: Any? =
            kind == .emailField
            ? emailField
            : (accessibilityElements ?? []).first {
                ($0 as? UIAccessibilityElement)?.accessibilityIdentifier == kind.rawValue
            }
        UIAccessibility.post(notification: .layoutChanged, argument: element)
    }
}
#endif
