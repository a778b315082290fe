#if canImport(UIKit) && !os(watchOS)
import UIKit

/// Plays a ``ConnectButtonMotion`` on a ``ConnectButton``: a timer at the display's rate redraws the button with
/// ``ConnectButtonAppearance/applying(_:from:)`` until the motion ends (the loading pulse repeats until the state
/// changes).
///
/// A block `Timer` in the run loop's common modes (so it runs while a scroll view tracks), not a `CADisplayLink`:
/// a display link calls an Objective-C selector, and the SDK's UIKit code stays free of `@objc` so that the Linux
/// check of every Apple-only line (scripts/check-apple.sh) can compile it.
@MainActor
final class ConnectButtonMotionPlayer {
    /// The motion playing, with the appearance of the state it leaves and when it started.
    private var playing: (motion: ConnectButtonMotion, previous: ConnectButtonAppearance, start: Date)?
    private var timer: Timer?
    /// The view redrawn on every tick.
    weak var view: UIView?

    /// Redraws per second.
    static let framesPerSecond = 60.0

    /// Whether a motion is running.
    var isPlaying: Bool { playing != nil }

    /// Starts `motion`, leaving `previous`; stops the one playing.
    func play(_ motion: ConnectButtonMotion, from previous: ConnectButtonAppearance) {
        stop()
        guard !motion.isFinished(at: 0) else { return }
        playing = (motion, previous, Date())
        let timer = Timer(timeInterval: 1 / Self.framesPerSecond, repeats: true) { [weak self] _ in
            MainActor.assumeIsolated { self?.tick() }
        }
        RunLoop.main.add(timer, forMode: .common)
        self.timer = timer
        view?.setNeedsDisplay()
    }

    /// Stops the motion; the view draws its state's appearance again.
    func stop() {
        timer?.invalidate()
        timer = nil
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

extension ConnectButton {
    /// Called when ``visualState`` changed from the state drawn as `previous`: plays the transition (the Reduce
    /// Motion variant when the user asked for it) and posts the new state's announcement.
    func didChangeVisualState(from previous: ConnectButtonAppearance) {
        guard previous.state != visualState else { return }
        motionPlayer.view = self
        motionPlayer.play(
            ConnectButtonMotion(
                from: previous.state, to: visualState, reduceMotion: UIAccessibility.isReduceMotionEnabled),
            from: previous)
        announceAccessibility()
    }
}
#endif
