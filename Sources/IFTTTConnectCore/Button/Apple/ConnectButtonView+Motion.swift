#if canImport(SwiftUI)
import SwiftUI
#if canImport(UIKit)
import UIKit
#endif

/// Plays the ``ConnectButtonMotion`` of each state change of a ``ConnectButtonView``: a clock that only grows is
/// animated linearly over the motion's duration, and ``ConnectButtonMotionFrameView`` (animatable) draws the frame
/// of the time elapsed since the change. The loading pulse repeats while the state stays ``ConnectButtonVisualState/loading``.
@available(iOS 14.0, macOS 12.0, tvOS 14.0, watchOS 7.0, *)
struct ConnectButtonMotionView<Content: View>: View {
    /// The state to show.
    var state: ConnectButtonVisualState
    /// The appearance of a state, for the width and colour scheme of the moment.
    var appearance: (ConnectButtonVisualState) -> ConnectButtonAppearance
    /// Draws one appearance.
    var content: (ConnectButtonAppearance) -> Content
    /// Called after the state changed (announcements).
    var onStateChange: (ConnectButtonVisualState) -> Void

    @Environment(\.accessibilityReduceMotion) private var reduceMotion
    /// The state left by the last change; `nil` before the first.
    @State private var previous: ConnectButtonVisualState?
    /// The clock when the last change happened, and the clock itself (animated).
    @State private var base = 0.0
    @State private var clock = 0.0

    var body: some View {
        let from = previous ?? state
        let motion = ConnectButtonMotion(from: from, to: state, reduceMotion: reduceMotion)
        return ConnectButtonMotionFrameView(
            elapsed: previous == nil && motion.pulse == nil ? motion.duration : clock - base, motion: motion,
            previous: appearance(from), current: appearance(state), content: content
        )
        .onAppear {
            if state == .loading { play(ConnectButtonMotion(from: state, to: state, reduceMotion: reduceMotion)) }
        }
        .onChange(of: state) { [state] new in
            previous = state
            play(ConnectButtonMotion(from: state, to: new, reduceMotion: reduceMotion))
            onStateChange(new)
        }
    }

    /// Restarts the clock at the change and animates it over `motion` (repeating a pulse).
    private func play(_ motion: ConnectButtonMotion) {
        base = clock
        let length = max(motion.duration, 0.001)
        let animation = Animation.linear(duration: length)
        withAnimation(motion.pulse != nil ? animation.repeatForever(autoreverses: false) : animation) {
            clock = base + length
        }
    }
}

/// One frame of a running motion: SwiftUI interpolates ``elapsed`` and the frame is drawn from it.
@available(iOS 14.0, macOS 12.0, tvOS 14.0, watchOS 7.0, *)
struct ConnectButtonMotionFrameView<Content: View>: View, @preconcurrency Animatable {
    /// Seconds since the change.
    var elapsed: Double
    let motion: ConnectButtonMotion
    let previous: ConnectButtonAppearance
    let current: ConnectButtonAppearance
    let content: (ConnectButtonAppearance) -> Content

    var animatableData: Double {
        get { elapsed }
        set { elapsed = newValue }
    }

    var body: some View {
        content(current.applying(motion.frame(at: elapsed), from: previous))
    }
}
#endif
