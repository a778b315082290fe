import Foundation

/// Opens URLs outside the app: the IFTTT app's hand-off URL, and the browser on desktop platforms.
///
/// On iOS the default is `UIApplication`; elsewhere it is ``SystemBrowserURLOpener``.
@MainActor
public protocol URLOpener: AnyObject, Sendable {
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
@MainActor
public final class SystemBrowserURLOpener: URLOpener {
    /// Creates the opener.
    public init() {}

    /// `true` for `http` and `https` URLs on macOS and Linux.
    ///
    /// - Parameter url: The URL.
    /// - Returns: Whether ``open(_:)`` can open it.
    public func canOpen(_ url: URL) -> Bool {
        #if (os(macOS) || os(Linux)) && !IFTTT_APPLE_STUB_CHECK
        return ["http", "https"].contains(url.scheme?.lowercased() ?? "")
        #else
        return false
        #endif
    }

    /// Starts the system's opener with `url` as its only argument.
    ///
    /// - Parameter url: An `http` or `https` URL.
    /// - Returns: Whether the opener was started.
    public func open(_ url: URL) async -> Bool {
        guard canOpen(url) else { return false }
        #if (os(macOS) || os(Linux)) && !IFTTT_APPLE_STUB_CHECK
        let process = Process()
        #if os(macOS)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/open")
        #else
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open"]
        #endif
        process.arguments = (process.arguments ?? []) + [url.absoluteString]
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
