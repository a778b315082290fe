import Foundation
@_spi(Sandbox) import IFTTTConnectCore

/// The synchronization log: off by default; a custom handler replaces `NSLog`; every line is redacted.
///
/// Lines never contain a user token or an invite code: before a line reaches the handler, every secret the
/// synchronizer knows is replaced with `<redacted>`, and so is anything after `Bearer `.
@_spi(Sandbox) public final class SynchronizationLogger: Sendable {
    private struct State {
        var enabled = false
        var handler: (@Sendable (String) -> Void)?
        var secrets: [String] = []
    }

    private let state = Locked(State())

    /// Creates a disabled logger.
    public init() {}

    /// Whether lines are logged. Default `false`.
    public var isEnabled: Bool {
        get { state.withLock { $0.enabled } }
        set { state.withLock { $0.enabled = newValue } }
    }

    /// Receives each line instead of `NSLog`; `nil` logs with `NSLog("[ConnectSDK/Synchronization] …")`.
    public var customHandler: (@Sendable (String) -> Void)? {
        get { state.withLock { $0.handler } }
        set { state.withLock { $0.handler = newValue } }
    }

    /// Replaces the secrets redacted from every line (empty strings are ignored).
    func setSecrets(_ values: [String?]) {
        let cleaned = values.compactMap { $0 }.filter { !$0.isEmpty }.sorted { $0.count > $1.count }
        state.withLock { $0.secrets = cleaned }
    }

    /// Logs `message` when enabled, redacted.
    func log(_ message: @autoclosure () -> String) {
        let (enabled, handler, secrets) = state.withLock { ($0.enabled, $0.handler, $0.secrets) }
        guard enabled else { return }
        let line = Self.redact(message(), secrets: secrets)
        if let handler {
            handler(line)
        } else {
            NSLog("[ConnectSDK/Synchronization] %@", line)
        }
    }

    /// `text` with every secret and every `Bearer` credential replaced by `<redacted>`.
    static func redact(_ text: String, secrets: [String]) -> String {
        var result = secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "<redacted>") }
        var searchStart = result.startIndex
        while let range = result.range(of: "Bearer ", options: .caseInsensitive, range: searchStart..<result.endIndex) {
            let end =
                result[range.upperBound...].firstIndex { $0 == " " || $0 == "\"" || $0 == "," || $0 == "\n" }
                ?? result.endIndex
            result.replaceSubrange(range.upperBound..<end, with: "<redacted>")
            searchStart = result.index(range.upperBound, offsetBy: "<redacted>".count)
        }
        return result
    }
}
