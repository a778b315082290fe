import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
import Testing

/// The decoder trims numeric strings and brand colours on their bytes; Foundation's `trimmingCharacters(in:)` is the
/// reference. Every Unicode scalar is tried at both ends, alone, doubled and around content, for both sets, and the
/// values the decoder reads are compared end to end.
@Suite("Whitespace trimming")
struct WhitespaceTrimTests {
    static func reference(_ text: String, newlines: Bool) -> String {
        text.trimmingCharacters(in: newlines ? .whitespacesAndNewlines : .whitespaces)
    }

    @Test(arguments: [false, true])
    func everyScalarAtEitherEndTrimsAsFoundationDoes(newlines: Bool) {
        var mismatches: [String] = []
        for value in UInt32(0)...0x10FFFF {
            // Every scalar of the BMP; above it one in 61 (no supplementary scalar is whitespace).
            guard value < 0x10000 || value % 61 == 0, let scalar = Unicode.Scalar(value) else { continue }
            let c = String(Character(scalar))
            for text in [c, c + c, c + "1.5", "1.5" + c, c + "#1BAF5D" + c, c + "\u{301}2", "2 " + c] {
                let ours = String(Whitespace.trimmed(text, newlines: newlines))
                if ours != Self.reference(text, newlines: newlines) { mismatches.append(String(value, radix: 16)) }
            }
            if mismatches.count > 20 { break }
        }
        #expect(mismatches.isEmpty, "scalars trimmed unlike Foundation: \(mismatches)")
    }

    @Test func edgeCasesTrimAsFoundationDoes() {
        let texts = [
            "", " ", "\t\n", "1", " 1", "1 ", "\u{A0}12\u{3000}", "\u{200B}3\u{200B}", "\u{85}4\u{2028}", "\u{2029}",
            "a\u{301} ", " \u{301}", "é", " é ", "\u{1F600}", "\r\n5\r\n", "#1baf5d\n", "\u{7F}9\u{7F}", "~x~",
        ]
        for text in texts {
            for newlines in [false, true] {
                #expect(
                    String(Whitespace.trimmed(text, newlines: newlines)) == Self.reference(text, newlines: newlines))
            }
        }
    }

    @Test func numbersAndColoursReadAsWithFoundationsTrim() {
        let numbers = ["1.5", " 1.5", "1.5\t", "\u{A0}-3\u{2009}", "\u{200B}7", "\n8", "9\n", " inf ", "nan", "", " "]
        for text in numbers {
            let expected = Double(Self.reference(text, newlines: false)).flatMap { $0.isFinite ? $0 : nil }
            #expect(JSONValue.string(text).doubleValue == expected, "\(text.debugDescription)")
        }
        let colours = ["#1BAF5D", " #1baf5d ", "\n1BAF5D\t", "\u{3000}#00ff00\u{2028}", "#1BAF5", "# 1BAF5D", "+1BAF5"]
        for text in colours {
            var reference = Substring(Self.reference(text, newlines: true))
            if reference.hasPrefix("#") { reference = reference.dropFirst() }
            let expected = reference.utf8.count == 6 ? UInt32(reference, radix: 16) : nil
            let colour = ConnectColor(hex: text)
            #expect(colour.map { UInt32($0.red) << 16 | UInt32($0.green) << 8 | UInt32($0.blue) } == expected)
        }
    }
}
