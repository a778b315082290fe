import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `ifttt-connect reset --api URL`: puts a running sandbox back to its seed (`POST /sandbox/reset`).
struct ResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Put a running sandbox's state back to its seed (POST /sandbox/reset), e.g. between test suites.",
        discussion: """
            Empties every table (users, tokens, Connections, events, dispatches, codes) and loads the seed the \
            sandbox started with, in one transaction, in milliseconds. Needs a service key of the sandbox \
            (IFTTT_SERVICE_KEY or --service-key-file; the demo's is sandbox-service-key-grocery-express).
            """
    )

    @Option(
        help: ArgumentHelp("The running sandbox's root URL, e.g. http://127.0.0.1:8080.", valueName: "url"))
    var api: String

    @Option(name: .customLong("service-key"), help: SecretInput.removedFlagHelp)
    var serviceKey: String?

    @Option(name: .customLong("service-key-file"), help: SecretInput.serviceKey.fileHelp)
    var serviceKeyFile: String?

    func validate() throws {
        try SecretInput.serviceKey.refuse(serviceKey)
        guard let url = URL(string: api), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil
        else {
            throw ValidationError("--api must be an http or https URL, got '\(api)'")
        }
        guard SecretInput.serviceKey.isGiven(file: serviceKeyFile, environment: ProcessInfo.processInfo.environment)
        else {
            throw ValidationError("a service key is required: \(SecretInput.serviceKey.ways)")
        }
    }

    func run() async throws {
        let key = try SecretInput.serviceKey.resolve(file: serviceKeyFile) ?? ""
        guard let root = URL(string: api) else { throw ExitCode.validationFailure }
        var request = URLRequest(url: root.appendingPathComponent("sandbox/reset"))
        request.httpMethod = "POST"
        request.timeoutInterval = 30
        request.setValue(key, forHTTPHeaderField: "IFTTT-Service-Key")
        let session = URLSession(configuration: .ephemeral)
        defer { session.finishTasksAndInvalidate() }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            warn("error: the sandbox at \(api) did not answer: \(error.localizedDescription)")
            throw ExitCode(1)
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let body = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        guard status == 200 else {
            let message = body?["message"] as? String ?? "no message"
            warn("error: \(api) refused the reset (\(status)): \(message)")
            throw ExitCode(1)
        }
        let elapsed = (body?["elapsed_ms"] as? Double).map { " in \($0) ms" } ?? ""
        say("sandbox at \(api) reset to its seed\(elapsed)")
    }
}
