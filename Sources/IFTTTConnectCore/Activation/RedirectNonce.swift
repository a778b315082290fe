import Foundation

/// The `state` value of one activation attempt: 128 random bits from the system's secure generator,
/// written as 32 lower-case hex digits. The server echoes it on the redirect; nothing else can guess it.
struct RedirectNonce: Sendable, Hashable, CustomStringConvertible, CustomReflectable {
    /// The hex text sent as `state`.
    let value: String

    /// Creates a nonce from an existing value (tests and parsing).
    init(value: String) {
        self.value = value
    }

    /// A fresh nonce from `SystemRandomNumberGenerator` (the platform's cryptographic source).
    static func random() -> RedirectNonce {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next(), generator.next()] as [UInt64]
        let hex = words.map { word -> String in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return RedirectNonce(value: hex.joined())
    }

    /// Compares in time independent of where the first difference is.
    func matches(_ candidate: String) -> Bool {
        let a = Array(value.utf8)
        let b = Array(candidate.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    /// Never shows the value.
    var description: String { "RedirectNonce(<redacted>)" }

    /// Never shows the value in `dump` or reflection.
    var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// A user token held by the flow; it prints as `<redacted>` everywhere.
struct RedactedToken: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The token itself.
    let value: String

    var description: String { "<redacted>" }
    var debugDescription: String { "<redacted>" }
    var customMirror: Mirror { Mirror(self, children: [:]) }
}
