import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import TestSupport
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// The Connect Button's motion: timelines per transition, sampled frames, Reduce Motion, the SVG frames and the
/// animated SVGs in docs/button-motion.
@Suite("Connect Button motion")
struct ButtonMotionTests {
    typealias Transition = (from: ConnectButtonVisualState, to: ConnectButtonVisualState)

    static let transitions = ConnectButtonMotion.flowTransitions.map { "\($0.from.name)>\($0.to.name)" }

    static func transition(_ name: String) -> Transition {
        ConnectButtonMotion.flowTransitions.first { "\($0.from.name)>\($0.to.name)" == name }!
    }

    @Test func curvesAreMonotonicAndExactAtTheEnds() {
        for curve in ConnectButtonMotion.Curve.allCases {
            #expect(curve.value(at: 0) == 0)
            #expect(abs(curve.value(at: 1) - 1) < 1e-9)
            var last = -1.0
            for step in 0...100 {
                let value = curve.value(at: Double(step) / 100)
                #expect(value >= last, "\(curve) at \(step)%")
                last = value
            }
        }
        // Ease-in-out is slow at the ends and fast in the middle; ease-in lags linear, ease-out leads it.
        #expect(ConnectButtonMotion.Curve.easeInOut.value(at: 0.1) < 0.05)
        #expect(abs(ConnectButtonMotion.Curve.easeInOut.value(at: 0.5) - 0.5) < 1e-6)
        #expect(ConnectButtonMotion.Curve.easeIn.value(at: 0.5) < 0.5)
        #expect(ConnectButtonMotion.Curve.easeOut.value(at: 0.5) > 0.5)
    }

    /// Frames per transition at 30 fps: ceil(duration × 30) + 1, with 2.8's durations.
    @Test func framesPerTransitionFollowTheDurations() {
        let expected: [String: (duration: Double, frames: Int)] = [
            "loading>loading": (1.2, 37),  // one pulse period
            "loading>connect": (0.4, 13),
            "connect>slide-to-connect": (1.0, 31),  // 0.4 s slide under a 1 s hand-off fill
            "slide-to-connect>continue-to-service": (2.0, 61),
            "connect>enter-email": (0.75, 24),  // 0.5 s slide and grow, then a 0.25 s knob fade
            "enter-email>verifying": (0.75, 24),  // the lookup bar: half of 1.5 s
            "verifying>creating-account": (2.25, 69),
            "creating-account>continue-to-service": (2.0, 61),
            "continue-to-service>connecting": (2.0, 61),
            "connecting>checkmark": (1.05, 33),  // 0.75 s circle, then a 0.3 s tick
            "checkmark>connected": (0.4, 13),
            "connected>disconnecting": (1.125, 35),  // three quarters of 1.5 s
            "disconnecting>disconnected": (0.4, 13),
            "disconnected>connect": (0.4, 13),
        ]
        #expect(Set(expected.keys) == Set(Self.transitions))
        for name in Self.transitions {
            let t = Self.transition(name)
            let motion = ConnectButtonMotion(from: t.from, to: t.to)
            let frames = motion.frames(framesPerSecond: 30)
            #expect(abs(motion.duration - expected[name]!.duration) < 1e-9, "\(name): \(motion.duration)")
            #expect(frames.count == expected[name]!.frames, "\(name): \(frames.count)")
            #expect(frames.first?.time == 0 && frames.last?.time == motion.duration, "\(name)")
        }
    }

    @Test(arguments: transitions, [false, true])
    func progressNeverGoesBackAndEndsAtItsTarget(_ name: String, _ reduceMotion: Bool) {
        let t = Self.transition(name)
        let frames = ConnectButtonMotion(from: t.from, to: t.to, reduceMotion: reduceMotion).frames()
        let fills = frames.compactMap(\.progress)
        guard let target = ConnectButtonMotion.progressFill(t.to) else {
            #expect(fills.isEmpty, "\(name) has no progress bar")
            return
        }
        #expect(fills.count == frames.count)
        #expect(zip(fills, fills.dropFirst()).allSatisfy { $0 <= $1 }, "\(name): \(fills)")
        #expect(fills.first == target.from && abs(fills.last! - target.to) < 1e-9, "\(name)")
    }

    @Test func theKnobSlidesWithEaseInOut() {
        let motion = ConnectButtonMotion(from: .connect, to: .slideToConnect)
        #expect(motion.frame(at: 0).knob?.position == 0)
        #expect(abs((motion.frame(at: 0.2).knob?.position ?? 0) - 0.5) < 1e-6)
        #expect(motion.frame(at: 0.04).knob!.position < 0.1 * 0.5)  // slow start
        #expect(motion.frame(at: 0.4).knob?.position == 1)
        #expect(motion.frame(at: 0.2).knob?.opacity == 1)
        #expect(motion.frame(at: 0.4).knob?.opacity == 0)  // the switch is gone at the end
        // Into the email step the knob grows into the confirm button and the field fades in from 70 %.
        let email = ConnectButtonMotion(from: .connect, to: .enterEmail(email: "", isInvalid: false))
        #expect(email.frame(at: 0.1).knob?.scale == 1)
        #expect(abs((email.frame(at: 0.5).knob?.scale ?? 0) - 1.125) < 1e-9)
        #expect(email.frame(at: 0.34).emailOpacity == 0)
        #expect(email.frame(at: 0.5).emailOpacity == 1)
    }

    @Test func labelsCrossFadeOldOutOverTheWholeChangeNewInFromHalfWay() {
        let motion = ConnectButtonMotion(from: .disconnecting, to: .disconnected)
        let quarter = motion.frame(at: 0.1)
        #expect(quarter.outgoingLabelOpacity > 0.5 && quarter.outgoingLabelOpacity < 1)
        #expect(quarter.incomingLabelOpacity == 0)
        let late = motion.frame(at: 0.3)
        #expect(late.outgoingLabelOpacity < 0.5 && late.incomingLabelOpacity > 0)
        let end = motion.frame(at: 0.4)
        #expect(end.outgoingLabelOpacity == 0 && end.incomingLabelOpacity == 1)
    }

    @Test func theCheckmarkGrowsThenStrokes() {
        let motion = ConnectButtonMotion(from: .connecting, to: .checkmark)
        #expect(motion.frame(at: 0).checkmark?.scale == 0)
        #expect(motion.frame(at: 0.75).checkmark?.scale == 1)
        #expect(motion.frame(at: 0.75).checkmark?.stroke == 0)
        let mid = motion.frame(at: 0.9).checkmark!.stroke
        #expect(mid > 0 && mid < 1)
        #expect(motion.frame(at: 1.05).checkmark?.stroke == 1)
    }

    @Test func theLoadingLabelPulsesBetweenOneAndFourTenths() {
        let motion = ConnectButtonMotion(from: .loading, to: .loading)
        #expect(motion.frame(at: 0).incomingLabelOpacity == 1)
        #expect(abs(motion.frame(at: 0.6).incomingLabelOpacity - 0.4) < 1e-9)
        #expect(abs(motion.frame(at: 0.3).incomingLabelOpacity - 0.7) < 1e-9)
        #expect(motion.frame(at: 1.2).incomingLabelOpacity == 1)
    }

    /// Reduce Motion: nothing slides, grows or pulses; the knob and the checkmark cross-fade in place.
    @Test(arguments: transitions)
    func reduceMotionCrossFadesInsteadOfSliding(_ name: String) {
        let t = Self.transition(name)
        let frames = ConnectButtonMotion(from: t.from, to: t.to, reduceMotion: true).frames()
        let positions = Set(frames.compactMap(\.knob?.position))
        #expect(positions.count <= 1, "\(name): the knob moves \(positions)")
        #expect(frames.allSatisfy { ($0.knob?.scale ?? 1) == 1 }, "\(name): the knob grows")
        #expect(frames.allSatisfy { ($0.checkmark?.scale ?? 1) == 1 }, "\(name): the checkmark grows")
        #expect(frames.allSatisfy { $0.pulseOpacity == 1 }, "\(name) pulses")
        let full = ConnectButtonMotion(from: t.from, to: t.to).frames()
        if name == "connect>slide-to-connect" || name == "connected>disconnecting" {
            #expect(Set(full.compactMap(\.knob?.position)).count > 2, "\(name) slides without Reduce Motion")
            let opacities = frames.compactMap(\.knob?.opacity)
            #expect(opacities.first == 1 && opacities.last == 0, "\(name) fades the knob instead")
        }
    }

    @Test(arguments: transitions)
    func everySVGFrameIsWellFormedAndTheLastDrawsTheDestination(_ name: String) throws {
        let t = Self.transition(name)
        let connection = ButtonFixtures.withIcon
        let from = ConnectButtonAppearance(state: t.from, connection: connection)
        let to = ConnectButtonAppearance(state: t.to, connection: connection)
        let motion = ConnectButtonMotion(from: t.from, to: t.to)
        let svgs = ConnectButtonSVGRenderer.renderFrames(motion, from: from, to: to, framesPerSecond: 10)
        #expect(svgs.count == motion.frames(framesPerSecond: 10).count)
        for svg in svgs { #expect(Self.isWellFormed(svg), "\(name)") }
        let last = svgs.last!
        if let label = to.label { #expect(last.contains(">\(label.text)</text>"), "\(name)") }
        if let outgoing = from.label, outgoing.text != to.label?.text {
            #expect(!last.contains(">\(outgoing.text)</text>"), "\(name): the old label is gone at the end")
            #expect(svgs[0].contains(">\(outgoing.text)</text>"), "\(name): the old label shows first")
        }
        #expect(Set(svgs).count > 1, "\(name): the frames differ")
        #expect(Self.isWellFormed(ConnectButtonSVGRenderer.animation(frames: svgs, framesPerSecond: 10)))
    }

    @Test func applyingAFrameMovesTheKnobFillsTheBarAndFadesIntoThePill() {
        let connection = ButtonFixtures.standard
        let connect = ConnectButtonAppearance(state: .connect, connection: connection)
        let slide = ConnectButtonAppearance(state: .slideToConnect, connection: connection)
        let motion = ConnectButtonMotion(from: .connect, to: .slideToConnect)
        let start = slide.applying(motion.frame(at: 0), from: connect)
        #expect(start.knob?.position == 0 && start.backgroundColor == connect.backgroundColor)
        #expect(start.label?.text == connect.label?.text)
        let middle = slide.applying(motion.frame(at: 0.3), from: connect)
        #expect(middle.knob!.position > 0.5 && middle.knob!.position < 1)
        #expect(middle.label?.text == slide.label?.text)
        let end = slide.applying(motion.frame(at: motion.duration), from: connect)
        #expect(end.knob == nil && end.backgroundColor == slide.backgroundColor)
        #expect(end.progress?.fraction == 1 && end.label == slide.label)
    }

    // MARK: - docs/button-motion

    /// The Connection the documentation's animations show (the same file `scripts/button-motion.sh` passes to
    /// `ifttt-connect button animate --file`).
    static func documentationConnection() throws -> Connection {
        try Connection.decode(from: Fixtures.data("ios_fetch_connection_response.json"))
    }

    /// The animated SVG of one flow transition, exactly as `ifttt-connect button animate --file … --fps 12
    /// --animated FILE` writes it (light style, English, 360 pt).
    static func documentationAnimation(_ t: Transition, connection: Connection) -> String {
        // The CLI takes states by name: the example of each name (the email step with jane@example.com).
        func named(_ state: ConnectButtonVisualState) -> ConnectButtonVisualState {
            ConnectButtonVisualState.allExamples.first { $0.name == state.name } ?? state
        }
        let (from, to) = (named(t.from), named(t.to))
        let motion = ConnectButtonMotion(from: from, to: to)
        let frames = ConnectButtonSVGRenderer.renderFrames(
            motion, from: ConnectButtonAppearance(state: from, connection: connection),
            to: ConnectButtonAppearance(state: to, connection: connection), framesPerSecond: 12)
        return ConnectButtonSVGRenderer.animation(frames: frames, framesPerSecond: 12)
    }

    /// docs/button-motion/*.svg are what the script makes today: regenerate them with `scripts/button-motion.sh`.
    @Test(arguments: transitions)
    func documentedAnimationsHaveNotDrifted(_ name: String) throws {
        let t = Self.transition(name)
        let file = Repository.url("docs/button-motion/\(t.from.name)-to-\(t.to.name).svg")
        let committed = try String(contentsOf: file, encoding: .utf8)
        #expect(
            committed == Self.documentationAnimation(t, connection: try Self.documentationConnection()),
            "\(file.lastPathComponent) is stale: run scripts/button-motion.sh")
    }

    static func isWellFormed(_ svg: String) -> Bool {
        XMLParser(data: Data(svg.utf8)).parse()
    }
}
