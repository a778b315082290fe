import Foundation

/// The one email rule of the activation flow, used both to decide whether the suggested email can be
/// offered and to check what the user confirms.
///
/// Surrounding spaces and newlines are ignored. What is left must be a single address `local@domain`:
/// - the local part is 1–64 characters of letters, digits, the backtick and `!#$%&'*+/=?^_{|}~-`, with dots only
///   between other characters;
/// - the domain has at least two labels of letters, digits and inner hyphens (1–63 characters each), and its
///   last label is at least two letters;
/// - the whole address is at most 254 characters.
///
/// So `hello@ifttt.com` and `hello+mike.amu_dsen@ifttt.com` are valid; two addresses separated by a comma,
/// or an address inside a sentence, are not. The rule is the same on every platform (no `NSDataDetector`).
@_spi(Sandbox) public enum EmailValidator {
    /// Whether `text` is one valid email address (see ``EmailValidator``).
    ///
    /// - Parameter text: What the user typed or the app suggested.
    /// - Returns: `true` for a single valid address.
    public static func isValid(_ text: String) -> Bool {
        normalized(text) != nil
    }

    /// The address without surrounding whitespace when it is valid, else `nil`.
    ///
    /// - Parameter text: What the user typed or the app suggested.
    /// - Returns: The trimmed address, or `nil`.
    public static func normalized(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let bytes = Array(trimmed.utf8)
        guard bytes.count <= 254, let at = bytes.firstIndex(of: UInt8(ascii: "@")),
            bytes.lastIndex(of: UInt8(ascii: "@")) == at
        else { return nil }
        let local = bytes[..<at]
        let domain = bytes[(at + 1)...]
        guard isValidLocalPart(local), isValidDomain(domain) else { return nil }
        return trimmed
    }

    private static let localSymbols = Set("!#$%&'*+/=?^_`{|}~-".utf8)

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || isLetter(byte)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isValidLocalPart(_ local: ArraySlice<UInt8>) -> Bool {
        guard (1...64).contains(local.count) else { return false }
        let dot = UInt8(ascii: ".")
        guard local.first != dot, local.last != dot else { return false }
        var previous: UInt8 = 0
        for byte in local {
            guard isAlphanumeric(byte) || localSymbols.contains(byte) || byte == dot else { return false }
            if byte == dot && previous == dot { return false }
            previous = byte
        }
        return true
    }

    private static func isValidDomain(_ domain: ArraySlice<UInt8>) -> Bool {
        guard (1...253).contains(domain.count) else { return false }
        let labels = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        let hyphen = UInt8(ascii: "-")
        for label in labels {
            guard (1...63).contains(label.count), label.first != hyphen, label.last != hyphen,
                label.allSatisfy({ isAlphanumeric($0) || $0 == hyphen })
            else { return false }
        }
        guard let last = labels.last, last.count >= 2, last.allSatisfy(isLetter) else { return false }
        return true
    }
}
