import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// A finger on the Connect Button: press, drag, release and cancel through the portable touch model, and the frames
/// of scripted drags as the SVG renderer draws them.
@Suite("Connect Button touch")
struct ButtonTouchTests {
    static let connect = ConnectButtonAppearance(state: .connect, connection: ButtonFixtures.standard)
    static let connected = ConnectButtonAppearance(state: .connected, connection: ButtonFixtures.standard)

    static func knobCentre(_ appearance: ConnectButtonAppearance) -> (x: Double, y: Double) {
        let frame = appearance.knob?.frame ?? ConnectButtonRect(x: 0, y: 0, width: 0, height: 0)
        return (frame.midX, frame.midY)
    }

    @Test func aPressHighlightsAndAReleaseOnThePillToggles() {
        var touch = ConnectButtonTouch(appearance: Self.connect)
        touch.handle(.press(x: 100, y: 20, time: 0))
        #expect(touch.isPressed && !touch.isDragging)
        let pressed = Self.connect.applying(touch)
        #expect(pressed.backgroundColor != Self.connect.backgroundColor, "the pill highlights while pressed")
        touch.handle(.move(x: 104, y: 22, time: 0.05))
        #expect(!touch.isDragging, "a few points of jitter are not a drag")
        touch.handle(.release(x: 104, y: 22, time: 0.1))
        #expect(touch.outcome == .toggle && !touch.isPressed)
    }

    @Test func aTapThatEndsOffThePillOrIsCancelledDoesNothing() {
        var touch = ConnectButtonTouch(appearance: Self.connect)
        touch.handle(.press(x: 100, y: 20, time: 0))
        touch.handle(.release(x: 100, y: 200, time: 0.1))
        #expect(touch.outcome == .none)
        touch.handle(.press(x: 100, y: 20, time: 1))
        touch.handle(.cancel)
        #expect(touch.outcome == .none && !touch.isPressed)
        touch.handle(.press(x: 100, y: 300, time: 2))
        #expect(!touch.isPressed, "a press below the pill is not the pill's")
    }

    @Test func theKnobFollowsTheFingerWithinItsTrack() {
        var touch = ConnectButtonTouch(appearance: Self.connect)
        let (x, y) = Self.knobCentre(Self.connect)
        touch.handle(.press(x: x, y: y, time: 0))
        touch.handle(.move(x: x + touch.trackLength / 2, y: y, time: 0.2))
        #expect(abs(touch.knobPosition - 0.5) < 0.01)
        #expect(Self.connect.applying(touch).knob?.position == touch.knobPosition)
        #expect((Self.connect.applying(touch).label?.opacity ?? 1) < 0.05, "the label fades as the knob covers it")
        touch.handle(.move(x: x + 1000, y: y, time: 0.3))
        #expect(touch.knobPosition <= 0.999, "the knob stays on its track")
        touch.handle(.move(x: x - 1000, y: y, time: 0.4))
        #expect(touch.knobPosition >= 0.001)
    }

    @Test func aShortDragSnapsBackALongOneToggles() {
        let short = ConnectButtonTouch.scriptedDrag(on: Self.connect, distance: 0.25)
        #expect(short.outcome == .snapBack)
        #expect(short.frames.last?.knob?.position == 0, "the knob goes home")
        #expect(short.frames.map { $0.knob?.position ?? 0 }.max() ?? 0 > 0.2, "it moved before snapping back")
        let long = ConnectButtonTouch.scriptedDrag(on: Self.connect, distance: 0.7)
        #expect(long.outcome == .toggle)
        #expect(long.frames.last?.knob?.position == 1)
    }

    @Test func aFlingTogglesAFlingBackSnapsBack() {
        let fling = ConnectButtonTouch.scriptedDrag(on: Self.connect, distance: 0.25, duration: 0.1, fling: true)
        #expect(fling.outcome == .toggle, "a quick flick past the slop connects")
        var back = ConnectButtonTouch(appearance: Self.connect)
        let (x, y) = Self.knobCentre(Self.connect)
        back.handle(.press(x: x, y: y, time: 0))
        back.handle(.move(x: x + back.trackLength * 0.6, y: y, time: 0.3))
        back.handle(.move(x: x + back.trackLength * 0.45, y: y, time: 0.35))
        back.handle(.release(x: x + back.trackLength * 0.45, y: y, time: 0.36))
        #expect(back.outcome == .snapBack, "moving back when lifted cancels, even past the threshold")
    }

    @Test func disconnectingHasHeavyResistance() {
        let fling = ConnectButtonTouch.scriptedDrag(on: Self.connected, distance: 0.3, duration: 0.1, fling: true)
        #expect(fling.outcome == .snapBack, "a flick does not turn a Connection off")
        let long = ConnectButtonTouch.scriptedDrag(on: Self.connected, distance: 0.6)
        #expect(long.outcome == .toggle && long.frames.last?.knob?.position == 0)
    }

    @Test func rightToLeftDragsTheOtherWay() {
        let rtl = ConnectButtonAppearance(
            state: .connect, connection: ButtonFixtures.standard, layoutDirection: .rightToLeft)
        var touch = ConnectButtonTouch(appearance: rtl)
        let (x, y) = Self.knobCentre(rtl)
        touch.handle(.press(x: x, y: y, time: 0))
        touch.handle(.move(x: x + 40, y: y, time: 0.1))
        #expect(touch.knobPosition == 0.001, "towards the start does not move the knob")
        let long = ConnectButtonTouch.scriptedDrag(on: rtl, distance: 0.7)
        #expect(long.outcome == .toggle)
        let knob = long.frames.last?.knob?.frame
        #expect((knob?.x ?? 1000) < 20, "on is to the left")
    }

    @Test func statesWithoutAKnobTakeNoDrag() {
        for state in [ConnectButtonVisualState.loading, .verifying, .checkmark] {
            let appearance = ConnectButtonAppearance(state: state, connection: ButtonFixtures.standard)
            var touch = ConnectButtonTouch(appearance: appearance)
            touch.handle(.press(x: 100, y: 20, time: 0))
            #expect(!touch.isPressed, "\(state.name)")
        }
    }

    /// `CONNECT_TOUCH_FRAMES=DIR` writes the scripted drags' frames as SVG files there.
    /// With Reduce Motion the knob still follows the finger (the person moves it), but it settles in one step.
    @Test func reduceMotionSettlesTheKnobInOneStep() {
        let full = ConnectButtonTouch.scriptedDrag(on: Self.connect, distance: 0.25)
        let reduced = ConnectButtonTouch.scriptedDrag(on: Self.connect, distance: 0.25, reduceMotion: true)
        #expect(full.outcome == .snapBack && reduced.outcome == .snapBack)
        #expect(reduced.frames.count < full.frames.count - 5, "0.25 s of settling at 30 fps became one frame")
        #expect(reduced.frames.last?.knob?.position == 0 && reduced.frames.dropLast().last!.knob!.position > 0.2)
    }

    @Test func scriptedDragFramesRender() throws {
        let scripts: [(String, ConnectButtonAppearance, Double, Bool)] = [
            ("short-drag", Self.connect, 0.25, false), ("long-drag", Self.connect, 0.7, false),
            ("fling", Self.connect, 0.25, true), ("disconnect-drag", Self.connected, 0.6, false),
        ]
        let directory = ProcessInfo.processInfo.environment["CONNECT_TOUCH_FRAMES"]
        for (name, appearance, distance, fling) in scripts {
            let result = ConnectButtonTouch.scriptedDrag(
                on: appearance, distance: distance, duration: fling ? 0.1 : 0.4, fling: fling)
            let svgs = result.frames.map { ConnectButtonSVGRenderer.render($0) }
            #expect(Set(svgs).count > 5, "\(name): the frames differ")
            if let directory {
                let folder = URL(fileURLWithPath: directory).appendingPathComponent(name)
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                for (index, svg) in svgs.enumerated() {
                    try svg.write(
                        to: folder.appendingPathComponent(String(format: "%03d.svg", index)), atomically: true,
                        encoding: .utf8)
                }
            }
        }
    }
}

/// The email step's keyboard and VoiceOver focus, as the portable model decides them.
@Suite("Connect Button focus and keyboard")
struct ButtonFocusTests {
    @Test func enteringTheEmailStepWithoutASuggestionRaisesTheKeyboard() {
        let empty = ConnectButtonFocus(from: .connect, to: .enterEmail(email: "", isInvalid: false))
        #expect(empty.keyboard == .raise && empty.focus == .emailField)
        let suggested = ConnectButtonFocus(from: .connect, to: .enterEmail(email: "jane@example.com", isInvalid: false))
        #expect(suggested.keyboard == .unchanged, "a suggested email can be confirmed without typing")
        #expect(suggested.focus == .emailField, "the pill went away: focus moves to the field")
    }

    @Test func confirmingDismissesTheKeyboardAndFocusReturnsToThePill() {
        let confirmed = ConnectButtonFocus(
            from: .enterEmail(email: "jane@example.com", isInvalid: false), to: .verifying)
        #expect(confirmed.keyboard == .dismiss && confirmed.focus == .button)
        let invalid = ConnectButtonFocus(
            from: .enterEmail(email: "jane@", isInvalid: false), to: .enterEmail(email: "jane@", isInvalid: true))
        #expect(invalid.keyboard == .unchanged && invalid.focus == nil, "an invalid email keeps the user typing")
        let elsewhere = ConnectButtonFocus(from: .verifying, to: .connecting)
        #expect(elsewhere.keyboard == .unchanged && elsewhere.focus == nil)
    }
}
