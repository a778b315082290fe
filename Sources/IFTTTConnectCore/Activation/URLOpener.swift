import Foundation

/// Opens URLs outside the app: the IFTTT app's hand-off URL, and the browser on desktop platforms.
///
/// On iOS the default is `UIApplication`; elsewhere it is ``SystemBrowserURLOpener``.
@MainActor
@_spi(Sandbox) public protocol URLOpener: AnyObject, Sendable {
    /// Whether an app can open `url` (on iOS, the scheme must be listed in `LSApplicationQueriesSchemes`).
    ///
    /// - Parameter url: A URL such as `ifttt-handoff-v1://`.
    /// - Returns: `true` when ``open(_:)`` would find an app for it.
    func canOpen(_ url: URL) -> Bool
    /// Opens `url`.
    ///
    /// - Parameter url: The URL to open.
    /// - Returns: `true` when an app or browser took it.
    func open(_ url: URL) async -> Bool
}

/// Opens `http` and `https` URLs in the default browser (`open` on macOS, `xdg-open` on Linux) and no other
/// scheme, so the IFTTT app hand-off is never attempted. Elsewhere it opens nothing.
///
/// The URL becomes an argument of another program, and a program's arguments can be read by every local user
/// (`ps`, `/proc/PID/cmdline`). So it opens only URLs that carry no secret: no query, no fragment, no user or
/// password. The activation URL carries the flow's `state`, the email and the partner's OAuth code, so it is
/// refused; open the secret-free launch URL of a ``BrowserLaunchPad`` instead (a `LoopbackRedirectReceiver`
/// of IFTTTConnectDesktop is one), as ``BrowserWebAuthenticationSession/init(opener:launchPad:)`` does.
@MainActor
@_spi(Sandbox) public final class SystemBrowserURLOpener: URLOpener {
    /// Starts a program with arguments; returns whether it started.
    typealias Launcher = @Sendable (_ executable: URL, _ arguments: [String]) -> Bool

    private let launch: Launcher

    /// Creates the opener.
    public init() {
        launch = Self.run
    }

    /// Creates an opener that starts programs with `launcher` (tests record the command line with it).
    init(launcher: @escaping Launcher) {
        launch = launcher
    }

    /// `true` for `http` and `https` URLs without a query, a fragment or user info, on macOS and Linux.
    ///
    /// - Parameter url: The URL.
    /// - Returns: Whether ``open(_:)`` can open it.
    public func canOpen(_ url: URL) -> Bool {
        #if (os(macOS) || os(Linux)) && !IFTTT_APPLE_STUB_CHECK
        return Self.carriesNoSecret(url)
        #else
        return false
        #endif
    }

    /// Starts the system's opener with `url` as its only argument.
    ///
    /// - Parameter url: An `http` or `https` URL without a query, a fragment or user info.
    /// - Returns: Whether the opener was started; `false` for a URL that ``canOpen(_:)`` refuses.
    public func open(_ url: URL) async -> Bool {
        guard canOpen(url) else { return false }
        #if os(macOS)
        return launch(URL(fileURLWithPath: "/usr/bin/open"), [url.absoluteString])
        #else
        return launch(URL(fileURLWithPath: "/usr/bin/env"), ["xdg-open", url.absoluteString])
        #endif
    }

    /// Whether `url` can be put on a command line: `http` or `https`, a host, and nothing that usually holds a
    /// secret (query, fragment, user, password).
    nonisolated static func carriesNoSecret(_ url: URL) -> Bool {
        guard let components = URLComponents(url: url, resolvingAgainstBaseURL: false),
            let scheme = components.scheme?.lowercased(), ["http", "https"].contains(scheme),
            components.host?.isEmpty == false
        else { return false }
        return components.percentEncodedQuery == nil && components.percentEncodedFragment == nil
            && components.percentEncodedUser == nil && components.percentEncodedPassword == nil
    }

    /// Runs `executable` with `arguments`, its output discarded.
    private static let run: Launcher = { executable, arguments in
        #if (os(macOS) || os(Linux)) && !IFTTT_APPLE_STUB_CHECK
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
            return true
        } catch {
            return false
        }
        #else
        return false
        #endif
    }
}
