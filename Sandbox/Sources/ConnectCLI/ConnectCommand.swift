import ArgumentParser
import Foundation
import IFTTTConnectDesktop
import IFTTTConnectSDK

/// `ifttt-connect connect CONNECTION_ID`: the real activation flow for a person, finished through the loopback
/// redirect receiver.
struct ConnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Activate a Connection in the browser, as the Connect Button does, and save the user token.",
        discussion: """
            Prints a one-time launch URL of the loopback receiver, which leads to the activation URL, and opens it \
            where a desktop browser exists (the activation URL itself, with its state and code, never goes on a \
            command line); waits for IFTTT's redirect on the loopback port and prints the outcome. The user token is \
            written to --token-file with mode 0600 and printed only with --show-token. Against the sandbox, sign in \
            with a demo user (alice@example.com / alice-password) and give the code gx-oauth-code-alice in \
            IFTTT_OAUTH_CODE or --code-file (codes are single-use); without a valid code the pages send you through \
            Grocery Express's own sign-in (dave / gx-dave-password for an unlinked account). An address at \
            fail.example makes account creation fail.
            """
    )

    @Argument(help: ArgumentHelp("The Connection's id, e.g. gx-store-visits.", valueName: "connection-id"))
    var connectionId: String

    @Option(help: ArgumentHelp("The user's email address.", valueName: "email"))
    var email: String?

    @Option(help: SecretInput.oauthCode.flagHelp("The partner OAuth code to send (code=).", valueName: "code"))
    var code: String?

    @Option(name: .customLong("code-file"), help: SecretInput.oauthCode.fileHelp)
    var codeFile: String?

    @Flag(name: .customLong("skip-config"), help: "Skip IFTTT's configuration page (skip_config=true).")
    var skipConfig = false

    @Flag(name: .customLong("no-browser"), help: "Only print the URL; do not open a browser.")
    var noBrowser = false

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp("Where to write the user token (mode 0600).", valueName: "file"))
    var tokenFile: String = ConnectCommand.defaultTokenFile

    @Flag(name: .customLong("show-token"), help: "Print the user token.")
    var showToken = false

    @OptionGroup var api: APIOptions

    static var defaultTokenFile: String { defaultTokenFile() }

    /// `$HOME/.ifttt-connect/user-token`; the account's home directory only when `HOME` is unset or empty.
    static func defaultTokenFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".ifttt-connect/user-token").path
    }

    /// What the options ask to activate, with the OAuth code of `--code` (``run()`` also reads `--code-file` and
    /// `IFTTT_OAUTH_CODE`).
    var request: Request {
        Request(
            connectionId: connectionId, email: email ?? "", oauthCode: code ?? "", skipConfiguration: skipConfig,
            opensBrowser: !noBrowser)
    }

    func validate() throws {
        try SecretInput.oauthCode.checkExclusive(value: code, file: codeFile)
    }

    func run() async throws {
        var options = self.request
        options.oauthCode = try SecretInput.oauthCode.resolve(value: code, file: codeFile) ?? ""
        let request = options
        let outcome = try await api.withAPI { url in await Self.activate(request, root: url) }
        switch outcome {
        case .success(let activation):
            say(
                "Connected \(activation.connection.name) (\(activation.connection.id)), status \(activation.connection.status)"
            )
            if let token = activation.userToken {
                let directory = URL(fileURLWithPath: tokenFile).deletingLastPathComponent()
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
                try TokenFile.write(token, to: tokenFile)
                say("user token written to \(tokenFile) (mode 0600)")
                if showToken { say(token) }
            } else {
                say("IFTTT sent no user token")
            }
        case .failure(let error):
            warn("activation failed: \(error)")
            throw ExitCode(1)
        }
    }

    /// What to activate.
    struct Request: Sendable {
        var connectionId: String
        var email: String
        var oauthCode: String
        var skipConfiguration: Bool
        var opensBrowser: Bool
    }

    /// Runs one activation against the API at `root` with a loopback receiver, which is also the browser's launch pad:
    /// `opener` gets its secret-free launch URL, never the activation URL.
    @MainActor
    static func activate(_ request: Request, root: URL, opener: (any URLOpener)? = nil)
        async -> Result<ConnectionActivation, ConnectButtonControllerError>
    {
        let receiver: LoopbackRedirectReceiver
        do {
            receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback")
        } catch {
            warn("error: \(error)")
            return .failure(.unknownResponse)
        }
        defer { receiver.stop() }
        let browser = opener ?? PrintingOpener(opensBrowser: request.opensBrowser)
        var configuration = ConnectButtonController.Configuration.sandbox(root)
        configuration.urlOpener = browser
        configuration.webAuthenticationSession = BrowserWebAuthenticationSession(opener: browser, launchPad: receiver)
        var connection = ConnectionConfiguration(
            connectionId: request.connectionId, suggestedUserEmail: request.email,
            credentialProvider: ConnectionCredentials(oauthCode: request.oauthCode),
            redirectURL: receiver.redirectURL,
            skipConnectionConfiguration: request.skipConfiguration)
        // No partner session to vouch for the token yet: the explicit, logged choice (see the Activation article).
        connection.userTokenTrust = .unvouchedRedirectToken
        let controller = ConnectButtonController(
            connectButton: HeadlessConnectButton(), connectionConfiguration: connection, delegate: nil,
            configuration: configuration)
        do {
            return .success(try await controller.connect(email: request.email))
        } catch {
            return .failure(error)
        }
    }
}

/// Prints the launch URL and opens it in the desktop browser when there is one.
@MainActor
final class PrintingOpener: URLOpener {
    let opensBrowser: Bool

    init(opensBrowser: Bool) {
        self.opensBrowser = opensBrowser
    }

    /// Whether a desktop browser can be expected: macOS, or a Linux session with a display.
    static var hasDesktopBrowser: Bool {
        #if os(macOS)
        return true
        #else
        let environment = ProcessInfo.processInfo.environment
        return environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil
        #endif
    }

    func canOpen(_ url: URL) -> Bool { false }

    func open(_ url: URL) async -> Bool {
        say(
            "Open this URL to activate the Connection (it works once, for you, within 2 minutes):\n  \(url.absoluteString)"
        )
        if opensBrowser && Self.hasDesktopBrowser {
            _ = await SystemBrowserURLOpener().open(url)
        }
        say("Waiting for the redirect...")
        return true
    }
}
