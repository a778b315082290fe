import ArgumentParser
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

extension ButtonCommand {
    /// `ifttt-connect button animate --connection ID|--file FILE --from STATE (--to STATE|--gesture GESTURE) --out DIR
    /// [--fps] [--reduce-motion] [--animated FILE] [--text-size] [--layout-direction]`.
    struct Animate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render the Connect Button's transition between two states as numbered SVG frames.",
            discussion: """
                Writes DIR/frame-000.svg, frame-001.svg, ... sampled from the transition's timeline (ConnectSDK-iOS \
                2.8's durations and curves) at --fps frames per second, the last frame exactly at its end. \
                --animated FILE also writes one SVG that plays the frames. --reduce-motion renders the Reduce Motion \
                variant (cross-fades instead of slides, no pulse, no shake). Equal --from and --to show the state's \
                own motion (its progress fill, or the loading pulse). States: \
                \(ButtonConnectionOptions.stateNames.joined(separator: ", ")).
                --gesture GESTURE instead of --to renders a finger on the knob of --from (connect or connected), \
                through the button's touch model: \(Gesture.allCases.map(\.summary).joined(separator: "; ")); \
                the knob then settles where the release sent it, and the outcome is printed.
                With --connection the connecting service's icon is loaded through the SDK and drawn on the knob; \
                with --file, or when it does not load, the knob shows the service's monogram. Text sizes: \
                \(ConnectTextSize.allCases.map(\.rawValue).joined(separator: ", ")).
                """
        )

        /// A scripted finger on the knob.
        enum Gesture: String, CaseIterable, ExpressibleByArgument {
            case shortDrag = "short-drag"
            case longDrag = "long-drag"
            case fling

            /// How far (track lengths), how long (seconds) and whether the finger lifts while moving.
            var script: (distance: Double, duration: Double, fling: Bool) {
                switch self {
                case .shortDrag: return (0.25, 0.4, false)
                case .longDrag: return (0.7, 0.4, false)
                case .fling: return (0.25, 0.1, true)
                }
            }

            var summary: String {
                switch self {
                case .shortDrag: return "short-drag (a quarter of the track, released slowly: snaps back)"
                case .longDrag: return "long-drag (70 % of the track: toggles)"
                case .fling:
                    return "fling (a quarter of the track in 0.1 s, lifted while moving: toggles when turning on)"
                }
            }
        }

        @OptionGroup var options: ButtonConnectionOptions

        @Option(help: ArgumentHelp("The state the transition leaves, or the one dragged.", valueName: "state"))
        var from: String

        @Option(help: ArgumentHelp("The state the transition enters.", valueName: "state"))
        var to: String?

        @Option(help: ArgumentHelp("A finger on the knob instead of a transition.", valueName: "gesture"))
        var gesture: Gesture?

        @Option(help: ArgumentHelp("The directory to write the frames to (created if missing).", valueName: "dir"))
        var out: String

        @Option(
            parsing: .unconditional, help: ArgumentHelp("Frames per second, 1 to 120 (default 30).", valueName: "fps"))
        var fps: Double = 30

        @Flag(help: "Render the Reduce Motion variant.")
        var reduceMotion = false

        @Option(help: ArgumentHelp("Also write an animated SVG of the frames to this file.", valueName: "file"))
        var animated: String?

        @OptionGroup var layout: ButtonLayoutOptions

        /// The states a gesture can drag: those with a knob.
        static let draggable = [ConnectButtonVisualState.connect.name, ConnectButtonVisualState.connected.name]

        func validate() throws {
            _ = try ButtonConnectionOptions.state(named: from, option: "--from")
            switch (to, gesture) {
            case (let to?, nil): _ = try ButtonConnectionOptions.state(named: to, option: "--to")
            case (nil, .some):
                guard Self.draggable.contains(from) else {
                    throw ValidationError(
                        "--gesture drags the knob of \(Self.draggable.joined(separator: " or ")), got --from '\(from)'")
                }
            default: throw ValidationError("give exactly one of --to STATE and --gesture GESTURE")
            }
            guard fps.isFinite, (1...120).contains(fps) else {
                throw ValidationError("--fps must be between 1 and 120, got \(fps)")
            }
            guard !out.isEmpty else { throw ValidationError("--out must not be empty") }
        }

        /// What the command renders: the SVG of each frame, how long they last, and a gesture's outcome.
        struct Frames {
            var svgs: [String]
            var seconds: Double
            var outcome: ConnectButtonTouch.Outcome?
        }

        /// The appearance of `state` for `connection` at the options' text size and direction.
        func appearance(
            _ state: ConnectButtonVisualState, connection: Connection, icon: ConnectButtonIconImage?
        ) -> ConnectButtonAppearance {
            options.appearance(
                state, connection: connection, textSize: layout.size, layoutDirection: layout.direction, icon: icon)
        }

        /// The frames for `connection`, with the service icon when one was loaded.
        func frames(for connection: Connection, icon: ConnectButtonIconImage? = nil) throws -> Frames {
            let start = try ButtonConnectionOptions.state(named: from, option: "--from")
            if let gesture {
                let script = gesture.script
                let drag = ConnectButtonTouch.scriptedDrag(
                    on: appearance(start, connection: connection, icon: icon), distance: script.distance,
                    duration: script.duration, fling: script.fling, fps: fps, reduceMotion: reduceMotion)
                let svgs = drag.frames.enumerated().map { index, frame in
                    ConnectButtonSVGRenderer.render(frame, options: .init(idPrefix: "cbf\(index)"))
                }
                return Frames(svgs: svgs, seconds: Double(svgs.count - 1) / fps, outcome: drag.outcome)
            }
            let end = try ButtonConnectionOptions.state(named: to ?? from, option: "--to")
            let motion = ConnectButtonMotion(from: start, to: end, reduceMotion: reduceMotion)
            let svgs = ConnectButtonSVGRenderer.renderFrames(
                motion, from: appearance(start, connection: connection, icon: icon),
                to: appearance(end, connection: connection, icon: icon), framesPerSecond: fps)
            return Frames(svgs: svgs, seconds: motion.duration, outcome: nil)
        }

        func run() async throws {
            let (connection, icon) = try await options.loadConnectionAndIcon()
            let frames = try frames(for: connection, icon: icon)
            let svgs = frames.svgs
            let directory = URL(fileURLWithPath: out, isDirectory: true)
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                let digits = max(3, String(svgs.count - 1).count)
                for (index, svg) in svgs.enumerated() {
                    let number = String(repeating: "0", count: digits - String(index).count) + String(index)
                    try Data(svg.utf8).write(to: directory.appendingPathComponent("frame-\(number).svg"))
                }
                if let animated {
                    let animation = ConnectButtonSVGRenderer.animation(frames: svgs, framesPerSecond: fps)
                    try Data(animation.utf8).write(to: URL(fileURLWithPath: animated))
                }
            } catch {
                warn("error: cannot write the frames to \(out): \(FileProblem.writing(out))")
                throw ExitCode(1)
            }
            let seconds = (frames.seconds * 1000).rounded() / 1000
            let rate = fps == fps.rounded() ? String(Int(fps)) : String(fps)
            var summary = "\(seconds) s at \(rate) fps\(reduceMotion ? ", reduce motion" : "")"
            if let gesture, let outcome = frames.outcome {
                let result: String
                switch outcome {
                case .toggle: result = "toggles"
                case .snapBack: result = "snaps back"
                case .none: result = "does nothing"
                }
                summary += "; \(gesture.rawValue) \(result)"
            }
            say("wrote \(svgs.count) frames (\(summary)) to \(out)")
        }
    }
}
