import ArgumentParser
@testable import ConnectCLI
import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing

/// `ifttt-connect button animate` and `ifttt-connect button accessibility`, run as the built executable.
@Suite("Button animate and accessibility CLI")
struct ButtonMotionAccessibilityCLITests {
    static var fixture: URL { SandboxTest.repository("Tests/Fixtures/ios_fetch_connection_response.json") }

    /// Runs the built `ifttt-connect` with `arguments`; returns its exit status and standard output.
    static func run(_ arguments: [String]) async throws -> (status: Int32, output: String) {
        let child = try ChildProcess(executable: try LocationTest.executable(), arguments: arguments)
        let finished = await child.finish()
        return (finished.status, child.lines.joined(separator: "\n"))
    }

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("animate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func animateWritesNumberedFramesOfTheTransition() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("frames")
        let animated = directory.appendingPathComponent("animated.svg")
        let (status, output) = try await Self.run([
            "button", "animate", "--file", Self.fixture.path, "--from", "connect", "--to", "slide-to-connect",
            "--out", out.path, "--animated", animated.path,
        ])
        #expect(status == 0)
        #expect(output == "wrote 31 frames (1.0 s at 30 fps) to \(out.path)")
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names == (0..<31).map { String(format: "frame-%03d.svg", $0) })
        let first = try String(contentsOf: out.appendingPathComponent("frame-000.svg"), encoding: .utf8)
        let last = try String(contentsOf: out.appendingPathComponent("frame-030.svg"), encoding: .utf8)
        #expect(first.contains(">Connect YouTube</text>"))
        #expect(last.contains(">Verifying…</text>") && !last.contains("Connect YouTube"))
        #expect(!first.contains("class=\"progress\"") && last.contains("class=\"progress\""))
        // The knob slides right between the first frame and the middle one.
        func knobX(_ svg: String) -> Double? {
            guard let range = svg.range(of: "class=\"knob\" cx=\"") else { return nil }
            return Double(svg[range.upperBound...].prefix { $0 != "\"" })
        }
        let middle = try String(contentsOf: out.appendingPathComponent("frame-006.svg"), encoding: .utf8)
        #expect((knobX(first) ?? 0) < (knobX(middle) ?? 0))
        let animation = try String(contentsOf: animated, encoding: .utf8)
        #expect(animation.components(separatedBy: "<animate attributeName=\"display\"").count - 1 == 31)
    }

    @Test func animateWithReduceMotionCrossFadesTheKnobInPlace() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try await Self.run([
            "button", "animate", "--file", Self.fixture.path, "--from", "connected", "--to", "disconnecting",
            "--out", directory.path, "--reduce-motion", "--fps", "8",
        ])
        #expect(status == 0)
        #expect(output == "wrote 10 frames (1.125 s at 8 fps, reduce motion) to \(directory.path)")
        var xs: Set<String> = []
        for index in 0..<10 {
            let svg = try String(
                contentsOf: directory.appendingPathComponent(String(format: "frame-%03d.svg", index)), encoding: .utf8)
            if let range = svg.range(of: "class=\"knob\" cx=\"") {
                xs.insert(String(svg[range.upperBound...].prefix { $0 != "\"" }))
            }
        }
        #expect(xs.count == 1, "the knob stays where it is: \(xs)")
    }

    /// From the API the knob shows the service icon the SDK loaded (the `button render` path), not the monogram.
    @Test func animateFetchesTheConnectionAndItsIconFromTheAPI() async throws {
        try await withSandbox { url, _ in
            let command = try IFTTTConnectCommand.parseAsRoot([
                "button", "animate", "--connection", "gx-weekly-deals", "--from", "connecting", "--to", "checkmark",
                "--out", "/unused", "--api", url.absoluteString,
            ])
            let animate = try #require(command as? ButtonCommand.Animate)
            let (connection, icon) = try await animate.options.loadConnectionAndIcon()
            #expect(icon != nil, "the sandbox serves the service's icon")
            let frames = try animate.frames(for: connection, icon: icon)
            #expect(frames.svgs.count == 39 && frames.seconds == 1.25)
            #expect(frames.svgs.last?.contains("class=\"checkmark\"") == true)
            let drag = try #require(
                try IFTTTConnectCommand.parseAsRoot([
                    "button", "animate", "--connection", "gx-weekly-deals", "--from", "connect", "--gesture",
                    "short-drag", "--out", "/unused", "--api", url.absoluteString,
                ]) as? ButtonCommand.Animate)
            let knob = try drag.frames(for: connection, icon: icon)
            #expect(knob.outcome == .snapBack)
            #expect(knob.svgs.last?.contains("<image class=\"icon\"") == true)
            #expect(knob.svgs.last?.contains("class=\"monogram\"") == false)
        }
    }

    /// `--layout-direction rtl` mirrors the frames (the knob of "connect" starts on the right) and `--text-size`
    /// reaches the label, as in `button render`.
    @Test func animateTakesTheLayoutDirectionAndTextSize() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let base = ["button", "animate", "--file", Self.fixture.path, "--from", "connect", "--to", "slide-to-connect"]
        let ltr = directory.appendingPathComponent("ltr")
        let rtl = directory.appendingPathComponent("rtl")
        #expect(try await Self.run(base + ["--out", ltr.path]).status == 0)
        #expect(
            try await Self.run(
                base + ["--out", rtl.path, "--layout-direction", "rtl", "--text-size", "accessibility-extra-large"]
            ).status == 0)
        let left = try String(contentsOf: ltr.appendingPathComponent("frame-000.svg"), encoding: .utf8)
        let right = try String(contentsOf: rtl.appendingPathComponent("frame-000.svg"), encoding: .utf8)
        #expect((Self.knobX(left) ?? 0) < 100 && (Self.knobX(right) ?? 0) > 250)
        #expect(Self.fontSizes(left) != Self.fontSizes(right))
    }

    /// A scripted drag through the touch model: a short one snaps back, a long one toggles (connects).
    @Test(arguments: [("short-drag", "snaps back"), ("long-drag", "toggles"), ("fling", "toggles")])
    func animateRendersAScriptedDrag(gesture: String, outcome: String) async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try await Self.run([
            "button", "animate", "--file", Self.fixture.path, "--from", "connect", "--gesture", gesture,
            "--out", directory.path,
        ])
        #expect(status == 0)
        #expect(output.hasSuffix("; \(gesture) \(outcome)) to \(directory.path)"), "\(output)")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let xs = try names.map { name in
            Self.knobX(try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)) ?? -1
        }
        let rest = try #require(xs.first)
        #expect(xs.max()! > rest + 20, "the knob follows the finger: \(xs)")
        if outcome == "toggles" {
            #expect(xs.last! > rest + 200, "the knob ends at the other end: \(xs)")
        } else {
            #expect(xs.last! == rest, "the knob is back where it started: \(xs)")
        }
    }

    /// An invalid email shakes the pill (the footer stays) and cross-fades the footer's message.
    @Test func animateShakesTheInvalidEmail() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try await Self.run([
            "button", "animate", "--file", Self.fixture.path, "--from", "enter-email", "--to", "enter-email-invalid",
            "--out", directory.path, "--fps", "20",
        ])
        #expect(status == 0)
        #expect(output == "wrote 23 frames (1.1 s at 20 fps) to \(directory.path)")
        let svgs = try (0..<23).map { index in
            try String(
                contentsOf: directory.appendingPathComponent(String(format: "frame-%03d.svg", index)), encoding: .utf8)
        }
        let offsets = svgs.map { svg -> Double in
            guard let range = svg.range(of: "class=\"shake\" transform=\"translate(") else { return 0 }
            return Double(svg[range.upperBound...].prefix { $0 != " " }) ?? .nan
        }
        #expect(offsets.first == 0 && offsets.last == 0)
        #expect(offsets.min()! == -10 && offsets.max()! > 3, "it swings back past rest: \(offsets)")
        #expect(Set(offsets).count > 8, "\(offsets)")
        #expect(svgs[6].components(separatedBy: "class=\"footer\"").count - 1 == 2, "both footers cross-fade")
    }

    static func knobX(_ svg: String) -> Double? {
        guard let range = svg.range(of: "class=\"knob\" cx=\"") else { return nil }
        return Double(svg[range.upperBound...].prefix { $0 != "\"" })
    }

    static func fontSizes(_ svg: String) -> [String] {
        svg.components(separatedBy: "font-size=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
    }

    @Test func accessibilityPrintsTheModelAsJSON() async throws {
        let (status, output) = try await Self.run([
            "button", "accessibility", "--file", Self.fixture.path, "--state", "connect", "--locale", "de",
        ])
        #expect(status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["elements", "announcement"])
        #expect(object["announcement"] is NSNull)
        let elements = try #require(object["elements"] as? [[String: Any]])
        #expect(elements.count == 2)
        #expect(elements[0]["label"] as? String == "YouTube verbinden")
        #expect(elements[0]["value"] as? String == "Nicht verbunden")
        #expect(elements[0]["hint"] as? String == "Verbindet YouTube über IFTTT.")
        #expect(elements[0]["traits"] as? [String] == ["button", "toggle"])
        #expect(elements[1]["label"] as? String == "FUNKTIONIERT MIT IFTTT")
        for element in elements { #expect(Set(element.keys) == ["label", "value", "hint", "traits"]) }
    }

    /// The unpublished seed Connection renders with its invite code; without it the API refuses (403).
    @Test func renderTakesAnInviteCode() async throws {
        try await withSandbox { url, _ in
            let base = ["button", "render", "--connection", "gx-early-access", "--state", "connect"]
            let refused = try IFTTTConnectCommand.parseAsRoot(base + ["--api", url.absoluteString])
            let render = try #require(refused as? ButtonCommand.Render)
            await #expect(throws: ExitCode.self) { _ = try await render.loadConnection() }
            let invited = try IFTTTConnectCommand.parseAsRoot(
                base + ["--invite-code", "gx-invite-2026", "--api", url.absoluteString])
            let connection = try await #require(invited as? ButtonCommand.Render).loadConnection()
            #expect(connection.id == "gx-early-access")
        }
        #expect(throws: (any Error).self) {
            try IFTTTConnectCommand.parseAsRoot([
                "button", "render", "--file", "f.json", "--invite-code", "x", "--state", "connect",
            ])
        }
    }

    @Test func accessibilityOfTheEmailStepAgainstTheAPI() async throws {
        try await withSandbox { url, _ in
            let command = try IFTTTConnectCommand.parseAsRoot([
                "button", "accessibility", "--connection", "gx-weekly-deals", "--state", "enter-email-invalid",
                "--locale", "es-419", "--api", url.absoluteString,
            ])
            let accessibility = try #require(command as? ButtonCommand.Accessibility)
            let model = try accessibility.model(for: try await accessibility.options.loadConnection())
            #expect(model.elements.map(\.kind) == [.emailField, .confirmButton, .footer])
            #expect(model.announcement == "Ingresa una dirección de correo electrónico válida.")
            #expect(model.json.contains("\"traits\": [\"textField\"]"))
        }
    }

    @Test(arguments: [
        ["button", "animate", "--file", "f.json", "--from", "connect", "--to", "exploded", "--out", "d"],
        ["button", "animate", "--file", "f.json", "--from", "connect", "--to", "connected"],
        ["button", "animate", "--from", "connect", "--to", "connected", "--out", "d"],
        [
            "button", "animate", "--file", "f.json", "--from", "connect", "--to", "connected", "--out", "d", "--fps",
            "0",
        ],
        [
            "button", "animate", "--file", "f.json", "--from", "connect", "--to", "connected", "--out", "d", "--fps",
            "nan",
        ],
        ["button", "animate", "--file", "f.json", "--from", "connect", "--out", "d"],
        [
            "button", "animate", "--file", "f.json", "--from", "connect", "--to", "connected", "--gesture", "fling",
            "--out", "d",
        ],
        ["button", "animate", "--file", "f.json", "--from", "checkmark", "--gesture", "long-drag", "--out", "d"],
        ["button", "animate", "--file", "f.json", "--from", "connect", "--gesture", "wiggle", "--out", "d"],
        [
            "button", "animate", "--file", "f.json", "--from", "connect", "--to", "connected", "--out", "d",
            "--text-size", "huge",
        ],
        [
            "button", "animate", "--file", "f.json", "--from", "connect", "--to", "connected", "--out", "d",
            "--layout-direction", "up",
        ],
        ["button", "accessibility", "--file", "f.json"],
        ["button", "accessibility", "--file", "f.json", "--state", "exploded"],
        ["button", "accessibility", "--file", "f.json", "--connection", "c", "--state", "connect"],
        ["button", "accessibility", "--file", "f.json", "--state", "connect", "--width", "0"],
    ])
    func badFlagsAreUsageErrors(arguments: [String]) {
        do {
            let command = try IFTTTConnectCommand.parseAsRoot(arguments)
            Issue.record("parsed \(arguments) as \(type(of: command))")
        } catch {
            #expect(IFTTTConnectCommand.exitCode(for: error).rawValue == 64, "\(arguments)")
        }
    }

    @Test func aMissingFileIsAClearError() async throws {
        let (status, _) = try await Self.run([
            "button", "accessibility", "--file", "/no/such/connection.json", "--state", "connect",
        ])
        #expect(status == 1)
    }
}
