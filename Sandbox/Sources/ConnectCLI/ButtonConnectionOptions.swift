import ArgumentParser
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK

/// The Connection a `button` subcommand draws: `--connection ID` from the API (see `--api`; `--invite-code` for an
/// unpublished one) or `--file FILE` with the JSON of `GET /v2/connections/{id}`; plus the look shared by the subcommands (`--locale`, `--style`, `--width`).
struct ButtonConnectionOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The id of a Connection to fetch from the API.", valueName: "id"))
    var connection: String?

    @Option(help: ArgumentHelp("A file with a Connection's JSON.", valueName: "file"))
    var file: String?

    @Option(
        name: .customLong("invite-code"),
        help: ArgumentHelp("The invite code of an unpublished service (with --connection).", valueName: "code"))
    var inviteCode: String?

    @Option(help: ArgumentHelp("light or dark (default light).", valueName: "style"))
    var style: String = "light"

    @Option(help: ArgumentHelp("The language of the texts, e.g. de or pt-BR (default en).", valueName: "locale"))
    var locale: String = ConnectLocalization.baseLocalization

    @Option(
        parsing: .unconditional, help: ArgumentHelp("The width available in points (default 360).", valueName: "width"))
    var width: Double = ConnectButtonGeometry.maximumWidth

    @OptionGroup var api: APIOptions

    /// The state names `--state`, `--from` and `--to` accept, in flow order.
    static var stateNames: [String] { ConnectButtonVisualState.allExamples.map(\.name) }

    func validate() throws {
        guard (connection == nil) != (file == nil) else {
            throw ValidationError("give exactly one of --connection ID and --file FILE")
        }
        guard ["light", "dark"].contains(style) else {
            throw ValidationError("--style must be light or dark, got '\(style)'")
        }
        guard width.isFinite, width > 0 else {
            throw ValidationError("--width must be a positive number, got \(width)")
        }
        guard !locale.isEmpty else { throw ValidationError("--locale must not be empty") }
        if inviteCode != nil, file != nil {
            throw ValidationError("--invite-code goes with --connection ID, not --file FILE")
        }
        let chain = ConnectLocalization.fallbackChain(for: locale)
        if chain == [ConnectLocalization.baseLocalization], !locale.lowercased().hasPrefix("en") {
            throw ValidationError(
                "--locale '\(locale)' is none of the shipped localizations: en, "
                    + ConnectLocalization.supportedLocalizations.joined(separator: ", "))
        }
    }

    /// The state called `name`, or a usage error naming `option`.
    static func state(named name: String, option: String) throws -> ConnectButtonVisualState {
        guard let state = ConnectButtonVisualState.allExamples.first(where: { $0.name == name }) else {
            throw ValidationError("\(option) must be one of \(stateNames.joined(separator: ", ")), got '\(name)'")
        }
        return state
    }

    /// The localization `--locale` asks for.
    var localization: ConnectLocalization { ConnectLocalization(identifier: locale) }

    /// The appearance of `state` for `connection` as the options ask, at `textSize` in `layoutDirection`, with the
    /// service icon when one was loaded.
    func appearance(
        _ state: ConnectButtonVisualState, connection: Connection, textSize: ConnectTextSize = .large,
        layoutDirection: ConnectLayoutDirection = .leftToRight, icon: ConnectButtonIconImage? = nil
    ) -> ConnectButtonAppearance {
        ConnectButtonAppearance(
            state: state, connection: connection, localization: localization,
            style: ConnectButtonStyle(rawValue: style) ?? .light, width: width, textSize: textSize,
            layoutDirection: layoutDirection, icon: icon)
    }

    /// Loads the Connection from `--file` or the API; a clear message and exit status 1 when that fails.
    func loadConnection() async throws -> Connection {
        try await load(icon: false).0
    }

    /// Loads the Connection from `--file` or the API; from the API also the connecting service's icon, through the
    /// SDK's icon loader (no disk cache) and the same transport, while the sandbox runs. A file has no icon; an icon
    /// that does not load leaves the monogram, with a note.
    func loadConnectionAndIcon() async throws -> (Connection, ConnectButtonIconImage?) {
        try await load(icon: true)
    }

    private func load(icon wantsIcon: Bool) async throws -> (Connection, ConnectButtonIconImage?) {
        if let file {
            let data: Data
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: file))
            } catch {
                warn("error: cannot read \(file): \(FileProblem.reading(file))")
                throw ExitCode(1)
            }
            do throws(ConnectDecodingError) {
                return (try Connection.decode(from: data), nil)
            } catch {
                warn("error: \(file) is not a Connection: \(error)")
                throw ExitCode(1)
            }
        }
        let id = connection ?? ""
        let result: Result<(Connection, ConnectButtonIconImage?), ConnectAPIError> = try await api.withAPI { url in
            do throws(ConnectAPIError) {
                let transport = URLSessionTransport()
                let connection = try await ConnectionNetworkController(
                    configuration: .sandbox(url, transport: transport)
                ).fetchConnection(for: id, credentialProvider: ConnectionCredentials(inviteCode: inviteCode))
                var icon: ConnectButtonIconImage?
                if wantsIcon, let iconURL = connection.connectingService.monochromeIconURL {
                    switch await ServiceIconLoader(transport: transport, cacheDirectory: nil).icon(for: iconURL) {
                    case .success(let loaded): icon = loaded
                    case .failure(let error): warn("note: the service icon did not load (\(error)); monogram")
                    }
                }
                return .success((connection, icon))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let loaded): return loaded
        case .failure(let error):
            warn("error: \(error)")
            throw ExitCode(1)
        }
    }
}

/// The text size and layout direction the `button` and `button animate` subcommands draw at.
struct ButtonLayoutOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The text size (Dynamic Type), as UIKit's content size category names (default large).",
            valueName: "category"))
    var textSize: String = ConnectTextSize.large.rawValue

    @Option(help: ArgumentHelp("ltr or rtl (default ltr).", valueName: "direction"))
    var layoutDirection: String = ConnectLayoutDirection.leftToRight.rawValue

    /// The text size `--text-size` names (validated).
    var size: ConnectTextSize { ConnectTextSize(rawValue: textSize) ?? .large }
    /// The direction `--layout-direction` names (validated).
    var direction: ConnectLayoutDirection { ConnectLayoutDirection(rawValue: layoutDirection) ?? .leftToRight }

    func validate() throws {
        guard ConnectTextSize(rawValue: textSize) != nil else {
            throw ValidationError(
                "--text-size must be one of \(ConnectTextSize.allCases.map(\.rawValue).joined(separator: ", ")), "
                    + "got '\(textSize)'")
        }
        guard ConnectLayoutDirection(rawValue: layoutDirection) != nil else {
            throw ValidationError("--layout-direction must be ltr or rtl, got '\(layoutDirection)'")
        }
    }
}
