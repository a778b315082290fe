import ArgumentParser
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

extension ButtonCommand {
    /// `ifttt-connect button animate --connection ID|--file FILE --from STATE --to STATE --out DIR`.
    struct Animate: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Render the Connect Button's transition between two states as numbered SVG frames.",
            discussion: """
                Writes DIR/frame-000.svg, frame-001.svg, ... sampled from the transition's timeline (ConnectSDK-iOS \
                2.8's durations and curves) at --fps frames per second, the last frame exactly at its end. \
                --animated FILE also writes one SVG that plays the frames. --reduce-motion renders the Reduce Motion \
                variant (cross-fades instead of slides, no pulse). Equal --from and --to show the state's own \
                motion (its progress fill, or the loading pulse). States: \
                \(ButtonConnectionOptions.stateNames.joined(separator: ", ")).
                """
        )

        @OptionGroup var options: ButtonConnectionOptions

        @Option(help: ArgumentHelp("The state the transition leaves.", valueName: "state"))
        var from: String

        @Option(help: ArgumentHelp("The state the transition enters.", valueName: "state"))
        var to: String

        @Option(help: ArgumentHelp("The directory to write the frames to (created if missing).", valueName: "dir"))
        var out: String

        @Option(
            parsing: .unconditional, help: ArgumentHelp("Frames per second, 1 to 120 (default 30).", valueName: "fps"))
        var fps: Double = 30

        @Flag(help: "Render the Reduce Motion variant.")
        var reduceMotion = false

        @Option(help: ArgumentHelp("Also write an animated SVG of the frames to this file.", valueName: "file"))
        var animated: String?

        func validate() throws {
            _ = try ButtonConnectionOptions.state(named: from, option: "--from")
            _ = try ButtonConnectionOptions.state(named: to, option: "--to")
            guard fps.isFinite, (1...120).contains(fps) else {
                throw ValidationError("--fps must be between 1 and 120, got \(fps)")
            }
            guard !out.isEmpty else { throw ValidationError("--out must not be empty") }
        }

        /// The motion and the SVG of each of its frames for `connection`.
        func frames(for connection: Connection) throws -> (motion: ConnectButtonMotion, svgs: [String]) {
            let start = try ButtonConnectionOptions.state(named: from, option: "--from")
            let end = try ButtonConnectionOptions.state(named: to, option: "--to")
            let motion = ConnectButtonMotion(from: start, to: end, reduceMotion: reduceMotion)
            let svgs = ConnectButtonSVGRenderer.renderFrames(
                motion, from: options.appearance(start, connection: connection),
                to: options.appearance(end, connection: connection), framesPerSecond: fps)
            return (motion, svgs)
        }

        func run() async throws {
            let (motion, svgs) = try frames(for: try await options.loadConnection())
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
            let seconds = (motion.duration * 1000).rounded() / 1000
            let rate = fps == fps.rounded() ? String(Int(fps)) : String(fps)
            say(
                "wrote \(svgs.count) frames (\(seconds) s at \(rate) fps\(reduceMotion ? ", reduce motion" : "")) to \(out)"
            )
        }
    }
}
