import Foundation
import Logging

/// How `ifttt-connect sandbox` logs (`--log-format`).
enum LogFormat: String, CaseIterable {
    /// `2026-01-01T10:00:00.000Z info GET /health → 200 (0 ms)`, one line per message.
    case text
    /// One JSON object per line: `time`, `level`, `message`, and the message's metadata (a request's `method`,
    /// `path`, `status`, `duration_ms`).
    case json
}

/// The sandbox's logger for the command line: every message one line on standard error, as text or JSON.
enum SandboxLog {
    static func logger(format: LogFormat) -> Logger {
        Logger(label: "ifttt-connect.sandbox") { _ in LineLogHandler(format: format) }
    }
}

/// Writes each message as one line to standard error (one `write` per line, so lines of concurrent requests never
/// interleave).
struct LineLogHandler: LogHandler {
    let format: LogFormat
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let time = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(Date())
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let line: String
        switch format {
        case .text:
            line = "\(time) \(event.level) \(event.message)"
        case .json:
            var object: [String: Any] = ["time": time, "level": event.level.rawValue, "message": "\(event.message)"]
            for (key, value) in merged { object[key] = Self.json(value) }
            let data =
                (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
                ?? Data("{}".utf8)
            line = String(decoding: data, as: UTF8.self)
        }
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A metadata value as JSON: numbers stay numbers.
    static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let text): return Int(text).map { $0 as Any } ?? text
        case .stringConvertible(let convertible):
            let text = convertible.description
            return Int(text).map { $0 as Any } ?? Double(text).map { $0 as Any } ?? text
        case .array(let values): return values.map(json)
        case .dictionary(let values): return values.mapValues(json)
        }
    }
}
