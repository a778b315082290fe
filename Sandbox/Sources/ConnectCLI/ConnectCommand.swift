import ArgumentParser
import Foundation
@_spi(Sandbox) import IFTTTConnectDesktop
@_spi(Sandbox) import IFTTTConnectSDK

/// `ifttt-connect connect CONNECTION_ID`: the real activation flow for a person, finished through the loopback
/// redirect receiver. The token it keeps is the one a voucher names (``Voucher``): a redirect to the loopback
/// receiver can come from any program or web page and carry any IFTTT account's real token.
struct ConnectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "connect",
        abstract: "Activate a Connection in the browser, as the Connect Button does, and save the user token.",
        discussion: """
            Prints a one-time launch URL of the loopback receiver, which leads to the activation URL, and opens it \
            where a desktop browser exists (the activation URL itself, with its state and code, never goes on a \
            command line); waits for IFTTT's redirect on the loopback port and prints the outcome. The user token is \
            written to --token-file with mode 0600 and printed only with --show-token.

            The token kept is the one something vouches for, never a redirect's word alone (any program or web page \
            can send this program's loopback URL another IFTTT account's real token): the partner backend, asked \
            with the partner session of the user you act for (IFTTT_PARTNER_SESSION or --partner-session-file; at \
            --partner-backend, by default the sandbox's Grocery Express backend under --api), \
            or IFTTT's token exchange, with your service key, --user-id and the user's access token. --unvouched \
            keeps the redirect's token once IFTTT confirms it: unsafe, for a sandbox only, and it warns. Secrets \
            come from environment variables or files only (a command line is readable by every local user): \
            --code, --partner-session, --service-key and --access-token are refused with a usage error.

            Against the sandbox, sign in with a demo user (alice@example.com / alice-password, partner session \
            gx-access-token-alice) and give a partner OAuth code in IFTTT_OAUTH_CODE or --code-file: the sandbox's \
            Grocery Express sign-in (POST /partner/grocery_express/api/session) issues a fresh single-use one; \
            without a valid code the pages send you through Grocery Express's own sign-in (dave / \
            gx-dave-password, partner session gx-access-token-dave, for an unlinked account). An address at \
            fail.example makes account creation fail.
            """
    )

    @Argument(help: ArgumentHelp("The Connection's id, e.g. gx-store-visits.", valueName: "connection-id"))
    var connectionId: String

    @Option(help: ArgumentHelp("The user's email address.", valueName: "email"))
    var email: String?

    @Option(help: SecretInput.removedFlagHelp)
    var code: String?

    @Option(name: .customLong("code-file"), help: SecretInput.oauthCode.fileHelp)
    var codeFile: String?

    @Option(
        name: .customLong("partner-session"),
        help: SecretInput.removedFlagHelp)
    var partnerSession: String?

    @Option(name: .customLong("partner-session-file"), help: SecretInput.partnerSession.fileHelp)
    var partnerSessionFile: String?

    @Option(
        name: .customLong("partner-backend"),
        help: ArgumentHelp(
            "The partner backend's user token endpoint: POST with the session as a bearer token, answers "
                + "{\"user_token\": ...}; HTTPS, or HTTP on loopback (default: the sandbox's, "
                + "<api>/partner/grocery_express/api/user_token).",
            valueName: "url"))
    var partnerBackend: String?

    @Option(
        name: .customLong("user-id"),
        help: ArgumentHelp(
            "With your service key and the user's access token: the user's id on your service; IFTTT's token "
                + "exchange (POST /v2/user_token) vouches for their token.",
            valueName: "id"))
    var userId: String?

    @Option(
        name: .customLong("service-key"),
        help: SecretInput.removedFlagHelp)
    var serviceKey: String?

    @Option(name: .customLong("service-key-file"), help: SecretInput.serviceKey.fileHelp)
    var serviceKeyFile: String?

    @Option(
        name: .customLong("access-token"),
        help: SecretInput.removedFlagHelp)
    var accessToken: String?

    @Option(name: .customLong("access-token-file"), help: SecretInput.accessToken.fileHelp)
    var accessTokenFile: String?

    @Flag(
        name: .customLong("unvouched"),
        help: ArgumentHelp(
            "UNSAFE: without a voucher, keep the token a redirect carries once IFTTT confirms it; another IFTTT "
                + "account's real token passes too. Warns when the flow starts and ends."))
    var unvouched = false

    @Flag(name: .customLong("skip-config"), help: "Skip IFTTT's configuration page (skip_config=true).")
    var skipConfig = false

    @Flag(name: .customLong("no-browser"), help: "Only print the URL; do not open a browser.")
    var noBrowser = false

    @Option(
        name: .customLong("token-file"),
        help: ArgumentHelp(
            "Where to write the user token (mode 0600; default: $HOME/.ifttt-connect/user-token).", valueName: "file"))
    var tokenFile: String?

    @Flag(name: .customLong("show-token"), help: "Print the user token.")
    var showToken = false

    @Flag(help: "Replace the --token-file when it exists (it keeps its mode).")
    var force = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Give up after this many seconds (default 900). Whatever this says, the command ends with an error when "
                + "its launch URL expires unopened (after 120 s).",
            valueName: "seconds"))
    var timeout = 900

    @OptionGroup var api: APIOptions

    static var defaultTokenFile: String { defaultTokenFile() }

    /// `$HOME/.ifttt-connect/user-token`; the account's home directory only when `HOME` is unset or empty.
    static func defaultTokenFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(".ifttt-connect/user-token").path
    }

    /// The usage error of a command that names no voucher.
    static let noVoucher = """
        connect keeps only a user token something vouches for (a redirect to this program can carry any IFTTT \
        account's real token): give the partner session of the user you act for (\(SecretInput.partnerSession.ways); \
        the sandbox's are gx-access-token-alice, -bob and -dave), or --user-id with your service key \
        (\(SecretInput.serviceKey.ways)) and the user's access token (\(SecretInput.accessToken.ways)), or, \
        unsafe, --unvouched
        """

    func validate() throws {
        try validate(environment: ProcessInfo.processInfo.environment)
    }

    /// Checks that exactly one voucher is chosen, each secret in one form, and that no secret would travel in the
    /// clear (the files are read by ``run()``).
    func validate(environment: [String: String]) throws {
        guard (1...86_400).contains(timeout) else {
            throw ValidationError("--timeout must be between 1 and 86400 seconds, got \(timeout)")
        }
        try SecretInput.oauthCode.refuse(code)
        try SecretInput.partnerSession.refuse(partnerSession)
        try SecretInput.serviceKey.refuse(serviceKey)
        try SecretInput.accessToken.refuse(accessToken)
        let session = SecretInput.partnerSession.isGiven(file: partnerSessionFile, environment: environment)
        let exchange = userId != nil
        if !exchange && [serviceKeyFile, accessTokenFile].contains(where: { $0 != nil }) {
            throw ValidationError(
                "--service-key-file and --access-token-file vouch for the token only with --user-id (IFTTT's token exchange)"
            )
        }
        if exchange {
            guard SecretInput.serviceKey.isGiven(file: serviceKeyFile, environment: environment)
            else {
                throw ValidationError("--user-id needs your service key: \(SecretInput.serviceKey.ways)")
            }
            guard SecretInput.accessToken.isGiven(file: accessTokenFile, environment: environment)
            else {
                throw ValidationError("--user-id needs the user's access token: \(SecretInput.accessToken.ways)")
            }
        }
        if session && exchange {
            throw ValidationError(
                "give one voucher: the partner session (\(SecretInput.partnerSession.ways)) or --user-id with the "
                    + "service key, not both")
        }
        if unvouched && (session || exchange) {
            throw ValidationError("--unvouched gives up the voucher you gave; drop one of them")
        }
        if partnerBackend != nil && !session {
            throw ValidationError(
                "--partner-backend is asked with the user's partner session: \(SecretInput.partnerSession.ways)")
        }
        guard session || exchange || unvouched else { throw ValidationError(Self.noVoucher) }
        if let partnerBackend {
            guard let url = URL(string: partnerBackend), url.host != nil, Voucher.isSafe(url) else {
                throw ValidationError(
                    "--partner-backend must be an HTTPS URL, or HTTP to a loopback address (the session must not "
                        + "travel in the clear), got '\(partnerBackend)'")
            }
        } else if session, let root = api.api.flatMap(URL.init(string:)),
            !Voucher.isSafe(Voucher.sandboxPartnerBackend(root))
        {
            throw ValidationError(
                "the partner session would travel in the clear to the partner backend under --api: give "
                    + "--partner-backend with an HTTPS URL")
        }
        if exchange, let root = api.api.flatMap(URL.init(string:)), !Voucher.isSafe(root) {
            throw ValidationError("the service key would travel in the clear: --api must be HTTPS or loopback HTTP")
        }
    }

    /// What the options ask to activate, with every secret read from its file or environment variable.
    ///
    /// - Throws: `ValidationError` for an unreadable or empty secret.
    func resolvedRequest(
        environment: [String: String] = ProcessInfo.processInfo.environment, warning: (String) -> Void = warn
    ) throws -> Request {
        func read(_ input: SecretInput, _ file: String?) throws -> String? {
            try input.resolve(file: file, environment: environment, warning: warning)
        }
        let voucher: Voucher
        if let userId {
            voucher = .serviceKey(
                try read(.serviceKey, serviceKeyFile) ?? "", userId: userId,
                accessToken: try read(.accessToken, accessTokenFile) ?? "")
        } else if let session = try read(.partnerSession, partnerSessionFile) {
            voucher = .partnerSession(session, endpoint: partnerBackend.flatMap(URL.init(string:)))
        } else {
            voucher = .unvouched
        }
        return Request(
            connectionId: connectionId, email: email ?? "",
            oauthCode: try read(.oauthCode, codeFile) ?? "", voucher: voucher,
            skipConfiguration: skipConfig, opensBrowser: !noBrowser, timeout: .seconds(timeout))
    }

    func run() async throws {
        let request = try resolvedRequest()
        // Before any network work: a token obtained and then not written would be lost.
        let output = OutputFile(path: tokenFile ?? Self.defaultTokenFile, option: "--token-file")
        try output.check(force: force)
        if case .unvouched = request.voucher {
            warn(
                "warning: --unvouched: nothing vouches for the user token; while this flow waits, any program or web "
                    + "page that reaches its loopback URL can hand it another IFTTT account's real token, which would "
                    + "be saved as yours (give the partner session instead)")
        }
        let (outcome, voucher) = try await api.withAPI { url in
            let voucher = request.voucher.summary(root: url)
            say("Voucher: \(voucher)")
            return (await Self.activate(request, root: url), voucher)
        }
        if case .unvouched = request.voucher {
            warn("warning: --unvouched: the activation ended without a voucher; nothing says whose token it got")
        }
        switch outcome {
        case .success(let activation):
            say(
                "Connected \(activation.connection.name) (\(activation.connection.id)), status \(activation.connection.status)"
            )
            if let token = activation.userToken {
                try output.write(token)
                say("user token written to \(output.path) (mode 0600), voucher: \(voucher)")
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
        var voucher: Voucher
        var skipConfiguration: Bool
        var opensBrowser: Bool
        /// How long the whole activation may take; it ends sooner when its launch URL expires unopened.
        var timeout: Duration = .seconds(900)
    }

    /// Why ``activate(_:root:opener:)`` did not activate.
    enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The loopback receiver could not start.
        case receiver(String)
        /// The voucher cannot be used: its URL, or its first answer (a refused session or key).
        case voucher(String)
        /// The activation failed.
        case activation(ConnectButtonControllerError)
        /// The Connection does not exist (404, not retried).
        case notFound(String)
        /// Nobody finished the flow in time: the launch URL expired unopened, or `--timeout` passed.
        case timedOut(String)

        var description: String {
            switch self {
            case .receiver(let reason): return "the loopback receiver did not start: \(reason)"
            case .voucher(let reason): return reason
            case .activation(let error): return "\(error)"
            case .timedOut(let reason): return reason
            case .notFound(let reason): return reason
            }
        }
    }

    /// Runs one activation against the API at `root` with a loopback receiver, which is also the browser's launch pad:
    /// `opener` gets its secret-free launch URL, never the activation URL. The voucher is asked once first, so a
    /// refused session or key fails before anything opens.
    @MainActor
    static func activate(_ request: Request, root: URL, opener: (any URLOpener)? = nil)
        async -> Result<ConnectionActivation, Failure>
    {
        let backend: PartnerBackend?
        do {
            backend = try request.voucher.partnerBackend(root: root)
            _ = try await backend?.userToken()
        } catch {
            return .failure(.voucher("\(request.voucher.summary(root: root)) cannot vouch: \(error)"))
        }
        // An unknown Connection is known at once: the button's loading retries are for a network that fails.
        do throws(ConnectAPIError) {
            _ = try await ConnectionNetworkController(configuration: .sandbox(root))
                .fetchConnection(for: request.connectionId, credentialProvider: ConnectionCredentials())
        } catch {
            if case .apiError(let status, _) = error, status == 404 {
                return .failure(
                    .notFound("there is no Connection '\(request.connectionId)' at \(root.absoluteString) (404)"))
            }
        }
        let receiver: LoopbackRedirectReceiver
        do {
            receiver = try LoopbackRedirectReceiver(path: "/ifttt/callback")
        } catch {
            return .failure(.receiver("\(error)"))
        }
        defer { receiver.stop() }
        let browser = opener ?? PrintingOpener(opensBrowser: request.opensBrowser)
        var configuration = ConnectButtonController.Configuration.sandbox(root)
        configuration.urlOpener = browser
        configuration.webAuthenticationSession = BrowserWebAuthenticationSession(opener: browser, launchPad: receiver)
        var connection = ConnectionConfiguration(
            connectionId: request.connectionId, suggestedUserEmail: request.email,
            credentialProvider: ConnectionCredentials(oauthCode: request.oauthCode, partnerBackend: backend),
            redirectURL: receiver.redirectURL,
            skipConnectionConfiguration: request.skipConfiguration)
        if backend == nil {
            // The explicit, documented choice of --unvouched; the SDK warns too (see the Activation article).
            connection.userTokenTrust = .unvouchedRedirectToken
        }
        let controller = ConnectButtonController(
            connectButton: HeadlessConnectButton(), connectionConfiguration: connection, delegate: nil,
            configuration: configuration)
        let verdict = Deadline()
        let watchdog = Task { @MainActor in
            let launchWindow = Duration.seconds(LoopbackRedirectReceiver.launchLifetimeSeconds + 1)
            try await Task.sleep(for: min(launchWindow, request.timeout))
            if receiver.launchesOpened == 0 {
                verdict.reason =
                    "nobody opened the launch URL in time (it is valid for "
                    + "\(min(LoopbackRedirectReceiver.launchLifetimeSeconds, Int(request.timeout.components.seconds))) s); "
                    + "run connect again and open the URL it prints"
            } else {
                try await Task.sleep(for: max(.zero, request.timeout - launchWindow))
                verdict.reason =
                    "the activation did not finish within \(request.timeout.components.seconds) s (--timeout)"
            }
            controller.cancelActivation()
        }
        defer { watchdog.cancel() }
        do {
            return .success(try await controller.connect(email: request.email))
        } catch {
            if let reason = verdict.reason { return .failure(.timedOut(reason)) }
            return .failure(.activation(error))
        }
    }

    /// Why the watchdog of ``activate(_:root:opener:)`` ended the flow, once it did.
    @MainActor
    final class Deadline {
        var reason: String?
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
