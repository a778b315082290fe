/// Trimming on the string's own bytes, with the result `trimmingCharacters(in: .whitespaces)` and
/// `trimmingCharacters(in: .whitespacesAndNewlines)` give (scalar by scalar from each end), without the round trip
/// through `NSString` that those cost on every call. The common case, a value that starts and ends with a printable
/// ASCII byte, returns at once.
enum Whitespace {
    /// `text` without the leading and trailing scalars of Foundation's `whitespaces` set (tab and the space
    /// separators, U+200B included as Foundation has it), and of its `newlines` too when `newlines` is true.
    static func trimmed(_ text: String, newlines: Bool) -> Substring {
        let utf8 = text.utf8
        if let first = utf8.first, let last = utf8.last, first > 0x20, first < 0x7F, last > 0x20, last < 0x7F {
            return text[...]
        }
        var scalars = text.unicodeScalars[...]
        while let first = scalars.first, isTrimmed(first.value, newlines: newlines) { scalars.removeFirst() }
        while let last = scalars.last, isTrimmed(last.value, newlines: newlines) { scalars.removeLast() }
        return Substring(scalars)
    }

    /// Whether `scalar` is in Foundation's `whitespaces` set, or in `whitespacesAndNewlines` when `newlines` is true.
    static func isTrimmed(_ scalar: UInt32, newlines: Bool) -> Bool {
        switch scalar {
        case 0x09, 0x20, 0xA0, 0x1680, 0x2000...0x200B, 0x202F, 0x205F, 0x3000: return true
        case 0x0A...0x0D, 0x85, 0x2028, 0x2029: return newlines
        default: return false
        }
    }
}
