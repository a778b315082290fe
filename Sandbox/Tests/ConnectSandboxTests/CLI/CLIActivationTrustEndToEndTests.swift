import ConnectSandbox
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 19's first attack through the built `ifttt-connect` binary, against the sandbox over loopback in both
/// `--redirect-state` modes: while carol's `ifttt-connect connect gx-weekly-deals --email carol@example.com` waits,
/// a request to the CLI's loopback redirect URL carries bob's real token (bob has the Connection on). The attacker
/// learns the redirect URL as any local user can: the receiver's port and its fixed path (the port shows in `ss`,
/// here it is read from the launch URL the CLI prints).
///
/// With the partner session of the Grocery Express account carol authorizes (dave's), the forgery is refused, the
/// token file is not written, and carol's genuine activation completes with her token. With `--unvouched` the same
/// forgery finishes the flow and bob's token lands in carol's token file, as it did with every `connect` before
/// (run against `connect` as it was, always `.unvouchedRedirectToken`, the first test fails: the forgery is
/// answered 200, the process exits "Connected" and the file holds bob's token).
@Suite("ifttt-connect connect against an attacker's real token, end to end", .timeLimit(.minutes(3)))
struct CLIActivationTrustEndToEndTests {
    static let bobsForgery = "next_step=complete&user_token=sandbox-user-token-bob"

    /// `ifttt-connect connect gx-weekly-deals` for carol, with `arguments` and `environment` added, against `url`.
    static func startCarolsConnect(
        _ url: URL, tokenFile: String, arguments: [String] = [], environment: [String: String] = [:]
    ) throws -> RunningCLI {
        try RunningCLI(
            [
                "connect", "gx-weekly-deals", "--email", "carol@example.com", "--skip-config", "--no-browser",
                "--token-file", tokenFile, "--api", url.absoluteString,
            ] + arguments, environment: environment)
    }

    @Test(arguments: RedirectStateMode.allCases)
    func bobsRealTokenCannotFinishCarolsConnectAndHerOwnActivationDoes(mode: RedirectStateMode) async throws {
        try await withSandbox(redirectState: mode) { url, network in
            _ = try await network.enableConnection(with: "gx-weekly-deals", credentialProvider: Demo.bob)
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let tokenFile = directory.appendingPathComponent("ifttt/user-token").path
            let cli = try Self.startCarolsConnect(
                url, tokenFile: tokenFile, environment: ["IFTTT_PARTNER_SESSION": "gx-access-token-dave"])
            defer { cli.stop() }
            let launch = try await cli.launchURL()
            let redirectURL = try Self.redirectURL(of: launch)

            // Before carol even opened the page.
            #expect(try await Self.get(Self.url(redirectURL, Self.bobsForgery)).status == 400)
            // Carol's browser opens the launch URL; the activation URL it leads to carries the flow's state. Even
            // with it (had it leaked), bob's token is refused.
            let opened = try await Self.get(launch)
            #expect(opened.status == 303)
            let activationURL = try #require(opened.location)
            let state = try #require(
                URLComponents(url: activationURL, resolvingAgainstBaseURL: false)?.queryItems?.first {
                    $0.name == "state"
                }?.value)
            #expect(try await Self.get(Self.url(redirectURL, Self.bobsForgery + "&state=\(state)")).status == 400)
            #expect(cli.isRunning)
            #expect(!FileManager.default.fileExists(atPath: tokenFile))

            // Carol signs in to IFTTT and authorizes Grocery Express as dave; her redirect completes the flow.
            let redirect = try await Harness.walkPages(
                from: activationURL, to: redirectURL, email: "carol@example.com", password: "carol-password",
                partner: ("dave", "gx-dave-password"))
            let redirectState = URLComponents(url: redirect, resolvingAgainstBaseURL: false)?.queryItems?.first {
                $0.name == "state"
            }
            #expect((redirectState != nil) == (mode == .echo))
            #expect(try await Self.get(redirect).status == 200)
            let run = try await cli.finish()
            #expect(run.status == 0, "\(run.errors)")
            #expect(
                run.output.contains("Voucher: the partner backend at http://127.0.0.1:")
                    && run.output.contains("/partner/grocery_express/api/user_token"), "\(run.output)")
            #expect(run.output.contains("Connected "), "\(run.output)")
            let token = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .newlines)
            #expect(
                try await network.fetchUser(credentialProvider: ConnectionCredentials(userToken: token)).login
                    == "carol")
            for secret in [token, "gx-access-token-dave"] {
                #expect(!run.output.contains(secret) && !run.errors.contains(secret))
            }
            #expect(!run.errors.contains("warning"), "\(run.errors)")
        }
    }

    /// The difference the voucher makes: with `--unvouched` the same forgery finishes carol's flow and bob's token
    /// is written to her token file, with a warning when the flow starts and when it ends.
    @Test(arguments: RedirectStateMode.allCases)
    func withUnvouchedBobsRealTokenFinishesCarolsConnect(mode: RedirectStateMode) async throws {
        try await withSandbox(redirectState: mode) { url, network in
            _ = try await network.enableConnection(with: "gx-weekly-deals", credentialProvider: Demo.bob)
            let directory = try SandboxTest.temporaryDirectory()
            defer { try? FileManager.default.removeItem(at: directory) }
            let tokenFile = directory.appendingPathComponent("user-token").path
            let cli = try Self.startCarolsConnect(url, tokenFile: tokenFile, arguments: ["--unvouched"])
            defer { cli.stop() }
            let redirectURL = try Self.redirectURL(of: try await cli.launchURL())

            #expect(try await Self.get(Self.url(redirectURL, Self.bobsForgery)).status == 200)
            let run = try await cli.finish()
            #expect(run.status == 0, "\(run.errors)")
            #expect(run.output.contains("Voucher: none (--unvouched)"))
            #expect(try String(contentsOfFile: tokenFile, encoding: .utf8) == "sandbox-user-token-bob\n")
            let warnings = run.errors.split(separator: "\n").filter { $0.hasPrefix("warning: --unvouched") }
            #expect(warnings.count == 2, "\(run.errors)")
        }
    }

    /// Without a voucher, and without `--unvouched`, `connect` does not start: a usage error names the options.
    @Test func withoutAVoucherConnectIsAUsageErrorThatNamesTheOptions() async throws {
        let run = try await CLISecretInputTests.run(["connect", "gx-weekly-deals", "--email", "carol@example.com"])
        #expect(run.status == 64)
        for option in [
            "IFTTT_PARTNER_SESSION", "--partner-session-file", "--partner-session", "--user-id", "IFTTT_SERVICE_KEY",
            "IFTTT_ACCESS_TOKEN", "--unvouched",
        ] {
            #expect(run.errors.contains(option), "\(option) is not named: \(run.errors)")
        }
        #expect(run.output.isEmpty && !run.errors.contains("Open this URL"))
    }

    /// `http://127.0.0.1:PORT/ifttt/callback`: the receiver's redirect URL, on the launch URL's port.
    static func redirectURL(of launch: URL) throws -> URL {
        let port = try #require(launch.port)
        return try #require(URL(string: "http://127.0.0.1:\(port)/ifttt/callback"))
    }

    static func url(_ base: URL, _ query: String) -> URL {
        URL(string: base.absoluteString + "?" + query)!
    }

    /// GETs `url` without following a redirect.
    static func get(_ url: URL) async throws -> (status: Int, location: URL?) {
        var request = URLRequest(url: url)
        request.timeoutInterval = 30
        let (_, response) = try await Harness.session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http.value(forHTTPHeaderField: "Location").flatMap(URL.init(string:)))
    }
}

/// The built `ifttt-connect`, running in the background (a ``ChildProcess``): its standard output is read as it comes
/// (the launch URL it prints), its standard error goes to a file; ``finish()`` waits for it to exit.
final class RunningCLI {
    struct LaunchURLMissing: Error, CustomStringConvertible {
        let description: String
    }

    private let child: ChildProcess
    private let errors: URL

    /// Starts `ifttt-connect arguments` with `environment` added to a copy of ours without any `IFTTT_` variable.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        var base = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("IFTTT_") }
        base.merge(environment) { $1 }
        errors = FileManager.default.temporaryDirectory.appendingPathComponent("cli-errors-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        child = try ChildProcess(
            executable: try LocationTest.executable(), arguments: arguments, environment: base, errors: errors)
    }

    var isRunning: Bool { child.isRunning }

    /// The launch URL the CLI printed (`http://127.0.0.1:PORT/ifttt-launch/ID`), once it waits for the redirect.
    func launchURL() async throws -> URL {
        guard await child.waitFor(1, where: { $0.contains("Waiting for the redirect") }) else {
            let errors = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw LaunchURLMissing(description: "ifttt-connect ended before it waited: \(child.lines) \(errors)")
        }
        guard
            let line = child.lines.first(where: { $0.contains("/ifttt-launch/") }),
            let url = URL(string: line.trimmingCharacters(in: .whitespaces))
        else { throw LaunchURLMissing(description: "no launch URL in: \(child.lines)") }
        return url
    }

    /// Waits for the process to exit; returns its status and everything it printed.
    func finish() async throws -> CLISecretInputTests.Run {
        let (status, _) = await child.finish()
        return CLISecretInputTests.Run(
            status: status, output: child.lines.joined(separator: "\n"),
            errors: try String(contentsOf: errors, encoding: .utf8))
    }

    /// Ends the process if it still runs (a failed test), and removes the error file.
    func stop() {
        child.terminate()
        try? FileManager.default.removeItem(at: errors)
    }
}
