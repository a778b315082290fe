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
        for curve in ConnectButtonMotion.Curve.allCases where curve != .spring {
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

    /// 2.8's shake spring (mass 1, stiffness 1000, damping 7): released at rest, it overshoots, swings back and is
    /// within a thirtieth of its distance of rest after its settling second.
    @Test func theSpringOvershootsAndSettles() {
        let spring = ConnectButtonMotion.Curve.spring
        #expect(spring.value(at: 0) == 0 && spring.value(at: 1) == 1)
        let samples = (0...200).map { spring.value(at: Double($0) / 200) }
        #expect(samples.max()! > 1.6, "the first swing overshoots by most of the distance")
        #expect(samples.dropFirst(40).min()! < 1, "and swings back")
        #expect(abs(ConnectButtonMotion.Curve.spring(seconds: 1) - 1) < 1.0 / 30, "a third of a point of 10")
        // Starting at rest: slow for the first instant, then fast.
        #expect(samples[1] < 0.05)
    }

    /// Frames per transition at 30 fps: ceil(duration × 30) + 1, with 2.8's durations.
    @Test func framesPerTransitionFollowTheDurations() {
        let expected: [String: (duration: Double, frames: Int)] = [
            "loading>loading": (1.2, 37),  // one pulse period
            "loading>connect": (0.4, 13),
            "connect>slide-to-connect": (1.0, 31),  // 0.4 s slide under a 1 s hand-off fill
            "slide-to-connect>continue-to-service": (2.0, 61),
            "connect>enter-email": (0.75, 24),  // 0.5 s slide and grow, then a 0.25 s knob fade
            "enter-email>enter-email-invalid": (1.1, 34),  // 0.1 s out, then the spring's settling second
            "enter-email>verifying": (0.75, 24),  // the lookup bar: half of 1.5 s
            "verifying>creating-account": (2.25, 69),
            "creating-account>continue-to-service": (2.0, 61),
            "continue-to-service>connecting": (2.0, 61),
            "connecting>checkmark": (1.25, 39),  // 0.2 s word fade, 0.75 s dot (circle 0.4 s), 0.3 s tick
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

    /// 2.8's checkmark: the circle grows (0.4 s ease-in-out) while a dot travels round it (0.75 s ease-in), then
    /// the tick strokes (0.3 s ease-out); all of it only once the word has faded (0.2 s).
    @Test func theCheckmarkDrawsItsCircleDotAndTickAfterTheWordHasGone() {
        let motion = ConnectButtonMotion(from: .connecting, to: .checkmark)
        for time in stride(from: 0.0, to: 0.2, by: 0.01) {
            let frame = motion.frame(at: time)
            #expect(frame.checkmark?.opacity == 0 && frame.checkmark?.dot == nil, "\(time)")
            #expect(frame.outgoingLabelOpacity > 0, "\(time)")
        }
        let begin = motion.frame(at: 0.2)
        #expect(begin.outgoingLabelOpacity == 0)
        #expect(begin.checkmark == .init(opacity: 1, scale: 0, stroke: 0, dot: 0))
        #expect(abs(motion.frame(at: 0.4).checkmark!.scale - 0.5) < 1e-6)
        #expect(motion.frame(at: 0.6).checkmark?.scale == 1)
        // The dot travels with ease-in: a quarter of the time covers well under a quarter of the way.
        let dots = stride(from: 0.2, to: 0.95, by: 0.05).map { motion.frame(at: $0).checkmark!.dot! }
        #expect(zip(dots, dots.dropFirst()).allSatisfy { $0 < $1 }, "\(dots)")
        #expect(motion.frame(at: 0.2 + 0.75 / 4).checkmark!.dot! < 0.15)
        #expect(motion.frame(at: 0.94).checkmark?.stroke == 0)
        // Once the dot has arrived it is gone and the tick strokes from where it stopped.
        #expect(motion.frame(at: 0.95).checkmark?.dot == nil)
        let mid = motion.frame(at: 1.1).checkmark!.stroke
        #expect(mid > 0.5 && mid < 1)
        #expect(motion.frame(at: 1.25).checkmark == .init(opacity: 1, scale: 1, stroke: 1, dot: nil))
    }

    /// The shape: a 42-pt circle stroked 3 pt, a tick with arms of 7 and 14 pt, a dot from above the tick's
    /// corner out to the edge of the 72-pt square and back to where the tick starts.
    @Test func theCheckmarkShapeIs28s() {
        let shape = ConnectButtonCheckmarkShape(frame: ConnectButtonRect(x: 100, y: 15, width: 42, height: 42))
        #expect(shape.center == .init(x: 121, y: 36) && shape.radius == 19.5)
        let t = shape.tick
        #expect(abs(hypot(t[1].x - t[0].x, t[1].y - t[0].y) - 7) < 1e-9)
        #expect(abs(hypot(t[2].x - t[1].x, t[2].y - t[1].y) - 14) < 1e-9)
        #expect(shape.tick(stroke: 0).isEmpty && shape.tick(stroke: 1) == t)
        let part = shape.tick(stroke: 0.3)
        #expect(part.count == 2 && abs(hypot(part[1].x - t[0].x, part[1].y - t[0].y) - 6.3) < 1e-9, "0.3 × 21 pt")
        #expect(shape.dot(at: 0) == .init(x: 118, y: 36))
        #expect(shape.dot(at: 0.5) == .init(x: 85, y: 36))
        #expect(shape.dot(at: 1) == t[0])
        for step in 0...20 {
            let dot = shape.dot(at: Double(step) / 20)
            #expect(dot.x >= 85 && dot.x <= 121 && dot.y >= 0 && dot.y <= 72, "\(dot)")
        }
    }

    /// No glyph inside the fading word: while any of "Connecting…" shows, nothing of the checkmark is drawn.
    @Test(arguments: [false, true])
    func nothingIsDrawnInsideTheFadingWord(reduceMotion: Bool) {
        let connection = ButtonFixtures.withIcon
        let from = ConnectButtonAppearance(state: .connecting, connection: connection)
        let to = ConnectButtonAppearance(state: .checkmark, connection: connection)
        let word = ">\(from.label!.text)</text>"
        let motion = ConnectButtonMotion(from: .connecting, to: .checkmark, reduceMotion: reduceMotion)
        let svgs = ConnectButtonSVGRenderer.renderFrames(motion, from: from, to: to, framesPerSecond: 60)
        let withWord = svgs.filter { $0.contains(word) }
        #expect(withWord.count >= 10)
        for svg in withWord { #expect(!svg.contains("class=\"checkmark"), "\(svg)") }
        #expect(svgs.last!.contains("class=\"checkmark\"") && !svgs.last!.contains("checkmark-dot"))
        let dots = svgs.filter { $0.contains("class=\"checkmark-dot\"") }.count
        #expect(reduceMotion ? dots == 0 : dots >= 40, "the dot travels for 0.75 s at 60 fps: \(dots)")
        // The platforms draw the same values: the appearance of a frame carries them.
        let frame = motion.frame(at: 0.5)
        let applied = to.applying(frame, from: from)
        #expect(applied.label == nil)
        #expect(applied.checkmark?.circleScale == frame.checkmark?.scale)
        #expect(applied.checkmark?.dot == frame.checkmark?.dot && applied.checkmark?.stroke == frame.checkmark?.stroke)
    }

    /// The footer changes on the pill's timeline: the old one fades out over the change while the new one fades in
    /// from half way, instead of swapping at the start.
    @Test func theFooterCrossFadesWithThePill() throws {
        let connection = ButtonFixtures.withIcon
        let from = ConnectButtonAppearance(state: .connect, connection: connection)
        let to = ConnectButtonAppearance(state: .enterEmail(email: "", isInvalid: false), connection: connection)
        let (old, new) = (try #require(from.footer), try #require(to.footer))
        #expect(old.text != new.text)
        let motion = ConnectButtonMotion(from: .connect, to: .enterEmail(email: "", isInvalid: false))
        let start = motion.frame(at: 0)
        #expect(start.outgoingFooterOpacity == 1 && start.incomingFooterOpacity == 0)
        let quarter = motion.frame(at: 0.125)
        #expect(quarter.outgoingFooterOpacity > 0.5 && quarter.incomingFooterOpacity == 0)
        let late = motion.frame(at: 0.4)
        #expect(late.outgoingFooterOpacity < 0.1 && late.incomingFooterOpacity > 0.5)
        #expect(motion.frame(at: 0.5).incomingFooterOpacity == 1 && motion.frame(at: 0.5).outgoingFooterOpacity == 0)
        // Applied (UIKit, SwiftUI): the old footer first, fading; the new one from half way, fading in.
        #expect(to.applying(start, from: from).footer == old)
        let fading = try #require(to.applying(quarter, from: from).footer)
        #expect(fading.text == old.text && fading.opacity == quarter.outgoingFooterOpacity)
        let arriving = try #require(to.applying(late, from: from).footer)
        #expect(arriving.text == new.text && arriving.opacity == late.incomingFooterOpacity)
        // SVG: the old footer alone at first, both while they cross, the new one alone at the end.
        func footers(_ time: Double) -> Int {
            ConnectButtonSVGRenderer.render(frame: motion.frame(at: time), from: from, to: to)
                .components(separatedBy: "class=\"footer\"").count - 1
        }
        let oldLines = ConnectButtonSVGRenderer.footerLayout(old).lines.count
        let newLines = ConnectButtonSVGRenderer.footerLayout(new).lines.count
        #expect(footers(0) == oldLines && footers(0.4) == oldLines + newLines && footers(0.75) == newLines)
        // A footer that says the same in both states does not blink.
        let same = ConnectButtonMotion(from: .checkmark, to: .connected)
        let a = ConnectButtonAppearance(state: .checkmark, connection: connection)
        let b = ConnectButtonAppearance(state: .connected, connection: connection)
        #expect(a.footer?.text == b.footer?.text)
        #expect(b.applying(same.frame(at: 0.1), from: a).footer == b.footer)
        let steady = ConnectButtonSVGRenderer.render(frame: same.frame(at: 0.1), from: a, to: b)
        let lines = ConnectButtonSVGRenderer.footerLayout(try #require(b.footer)).lines.count
        #expect(steady.components(separatedBy: "class=\"footer\"").count - 1 == lines)
    }

    /// An invalid email shakes the pill: 10 pt towards the leading edge in 0.1 s, then a spring brings it back
    /// through a few swings; the footer stays put. Reduce Motion keeps the pill still.
    @Test func anInvalidEmailShakesThePill() throws {
        let valid = ConnectButtonVisualState.enterEmail(email: "jane@", isInvalid: false)
        let invalid = ConnectButtonVisualState.enterEmail(email: "jane@", isInvalid: true)
        let motion = ConnectButtonMotion(from: valid, to: invalid)
        let offsets = motion.frames(framesPerSecond: 60).map(\.pillOffset)
        #expect(offsets.first == 0 && offsets.last == 0)
        #expect(offsets.min() == -10 && motion.frame(at: 0.1).pillOffset == -10)
        #expect(offsets.max()! > 5, "the spring overshoots to the other side")
        let crossings = zip(offsets, offsets.dropFirst()).filter { ($0 < 0) != ($1 < 0) }.count
        #expect(crossings >= 4, "it swings: \(offsets)")
        #expect(Set(offsets).count > 30, "not identical frames")
        #expect(
            ConnectButtonMotion(from: valid, to: invalid, reduceMotion: true).frames().allSatisfy {
                $0.pillOffset == 0
            })
        #expect(ConnectButtonMotion(from: invalid, to: invalid).frames().allSatisfy { $0.pillOffset == 0 })
        #expect(ConnectButtonMotion(from: .connect, to: invalid).frames().allSatisfy { $0.pillOffset == 0 })

        let connection = ButtonFixtures.withIcon
        let from = ConnectButtonAppearance(state: valid, connection: connection)
        let to = ConnectButtonAppearance(state: invalid, connection: connection)
        let applied = to.applying(motion.frame(at: 0.1), from: from)
        #expect(applied.pillOffset == -10 && applied.footer?.frame == to.footer?.frame)
        var rtl = to
        rtl.layoutDirection = .rightToLeft
        #expect(rtl.applying(motion.frame(at: 0.1), from: from).pillOffset == 10, "towards the leading edge")
        let svg = ConnectButtonSVGRenderer.render(frame: motion.frame(at: 0.1), from: from, to: to)
        let shaken = try #require(svg.range(of: "<g class=\"shake\" transform=\"translate(-10 0)\">"))
        let footer = try #require(svg.range(of: "class=\"footer\""))
        let pill = svg[shaken.upperBound..<footer.lowerBound]
        #expect(pill.contains("class=\"email\"") && pill.contains("class=\"confirm\""), "the field moves")
        #expect(pill.contains("\n  </g>\n"), "the footer is outside the shake")
        #expect(Self.isWellFormed(svg))
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
        #expect(frames.allSatisfy { $0.pillOffset == 0 }, "\(name) shakes")
        #expect(frames.allSatisfy { $0.checkmark?.dot == nil }, "\(name): the checkmark's dot travels")
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

    /// Right to left, frames in motion are mirrored as the states at rest are: the knob starts on the right and
    /// the bar fills from the right.
    @Test func rightToLeftFramesAreMirrored() {
        func look(_ state: ConnectButtonVisualState) -> ConnectButtonAppearance {
            ConnectButtonAppearance(state: state, connection: ButtonFixtures.withIcon, layoutDirection: .rightToLeft)
        }
        let (connect, slide) = (look(.connect), look(.slideToConnect))
        let motion = ConnectButtonMotion(from: .connect, to: .slideToConnect)
        #expect(slide.applying(motion.frame(at: 0), from: connect).knob?.frame == connect.knob?.frame)
        let middle = slide.applying(motion.frame(at: 0.2), from: connect).knob!.frame.midX
        #expect(middle < connect.knob!.frame.midX && middle > connect.geometry.width / 2 - 1)
        let first = ConnectButtonSVGRenderer.render(frame: motion.frame(at: 0), from: connect, to: slide)
        #expect(first.contains("class=\"knob\" cx=\"\(ConnectButtonSVGRenderer.n(connect.knob!.frame.midX))\""))
        let half = ConnectButtonSVGRenderer.render(frame: motion.frame(at: 0.5), from: connect, to: slide)
        #expect(half.contains("class=\"progress\" x=\"\(ConnectButtonSVGRenderer.n(slide.geometry.width / 2))\""))
        let email = ConnectButtonMotion(from: .connect, to: .enterEmail(email: "", isInvalid: false))
        let field = ConnectButtonSVGRenderer.render(
            frame: email.frame(at: 0.75), from: connect, to: look(.enterEmail(email: "", isInvalid: false)))
        let atRest = ConnectButtonSVGRenderer.render(look(.enterEmail(email: "", isInvalid: false)))
        func confirm(_ svg: String) -> String? {
            svg.range(of: "class=\"confirm\" d=\"").map { String(svg[$0.upperBound...].prefix { $0 != "\"" }) }
        }
        #expect(confirm(field) != nil && confirm(field) == confirm(atRest))
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
