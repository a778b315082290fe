import ArgumentParser
import ConnectSandbox
import Foundation

/// `--api URL`: the Connect API root to talk to, or an embedded sandbox when absent.
struct APIOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The API root URL, e.g. http://127.0.0.1:8080 (default: an embedded sandbox).",
            valueName: "url"))
    var api: String?

    func validate() throws {
        guard let api else { return }
        guard let url = URL(string: api), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw ValidationError("--api must be an http or https URL, got '\(api)'")
        }
    }

    /// Runs `body` with the API root: `--api` when given, otherwise a sandbox started in this process for the call.
    func withAPI<T: Sendable>(_ body: @Sendable (URL) async throws -> T) async throws -> T {
        if let api, let url = URL(string: api) {
            return try await body(url)
        }
        var configuration = SandboxConfiguration(port: 0)
        configuration.ephemeral = true
        configuration.logger = SandboxLog.logger(format: .text)
        warn(
            "note: no --api given; using an embedded sandbox with a fresh demo database, removed when this command ends"
        )
        return try await SandboxServer.withRunning(configuration) { url in try await body(url) }
    }
}
