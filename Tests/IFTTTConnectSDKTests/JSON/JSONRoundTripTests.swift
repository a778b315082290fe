import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing

/// The SDK's JSON writer (`JSONValue.serialized()`, which writes every request body and every sandbox response)
/// against its own parser and against `JSONSerialization`: `parse(serialize(v)) == v` for every value of the fuzz
/// corpora and for generated values heavy in `\`, `"`, control characters and non-BMP scalars, and the text byte for
/// byte what `JSONSerialization` writes where both are defined (`JSONDifferential.compareRoundTrip`). The `json`
/// fuzz target checks the same property on every input it generates.
@Suite("JSON writer round trip")
struct JSONRoundTripTests {
    @Test func everyCorpusValueSurvivesTheWriter() {
        var checked = 0
        for target in ["json", "connection", "seed", "redirect", "journal"] {
            for (name, data) in FuzzCorpusTests.inputs(target) {
                guard let value = try? JSONParser().parse(data) else { continue }
                #expect(JSONDifferential.compareRoundTrip(value) == nil, "\(target)/\(name)")
                // The raw bytes as one string value: every escape the writer knows, in corpus context.
                let text = JSONValue.string(String(decoding: data, as: UTF8.self))
                #expect(JSONDifferential.compareRoundTrip(text) == nil, "\(target)/\(name) as a string")
                checked += 1
            }
        }
        #expect(checked >= 25)
    }

    @Test func generatedEscapeHeavyStringsSurviveTheWriter() {
        var random = SplitMix64(seed: 0x5C22_0A1F)
        for _ in 0..<3_000 {
            let string = Self.escapeHeavyString(using: &random)
            let problem = JSONDifferential.compareRoundTrip(.string(string))
            #expect(problem == nil, "\(string.debugDescription)")
            if problem != nil { return }  // one counterexample is enough
        }
    }

    @Test func generatedValuesSurviveTheWriter() {
        var random = SplitMix64(seed: 2_026)
        for _ in 0..<600 {
            let value = Self.value(depth: 3, using: &random)
            let problem = JSONDifferential.compareRoundTrip(value)
            #expect(problem == nil)
            if problem != nil { return }
        }
    }

    /// Each kind of character the writer treats specially, alone, so a failure names the one that broke.
    @Test(arguments: [
        "\\", "\"", "/", "\u{0}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}", "\u{7F}", "\u{2028}",
        "\u{FFFF}", "\u{10FFFF}", "😀", "a\\b", "a\"b", "\\\"", "\\\\n", "C:\\path\\file", "end\\",
    ])
    func aSingleSpecialCharacterSurvivesTheWriter(string: String) {
        #expect(JSONDifferential.compareRoundTrip(.string(string)) == nil)
        #expect(JSONDifferential.compareRoundTrip(.object(JSONObject([(string, .string(string))]))) == nil)
    }

    @Test func theWriterEscapesExactlyAsJSONSerializationDoes() {
        let string = "q\"b\\s/\u{8}\u{C}\n\r\t\u{1}\u{1F}\u{7F}é😀"
        #expect(JSONValue.string(string).serialized() == #""q\"b\\s/\b\f\n\r\t\u0001\u001f\#u{7F}é😀""#)
        #expect(JSONDifferential.foundationText(.string(string)) == JSONValue.string(string).serialized())
    }

    /// The properties can fail: a writer that leaves a backslash unescaped (the bug its fast path once could hide)
    /// is caught by both the round trip and the byte comparison.
    @Test func aBrokenEscapeIsCaught() {
        let broken = #""a\b""#  // what a writer that skips the backslash writes for `a\b`
        #expect((try? JSONParser().parse(Data(broken.utf8))) != .string("a\\b"))
        #expect(JSONDifferential.foundationText(.string("a\\b")) != broken)
    }

    // MARK: - Generators

    /// Characters weighted towards what JSON must escape or what UTF-16 and UTF-8 encode specially.
    static let alphabet: [Unicode.Scalar] = {
        var scalars: [Unicode.Scalar] = Array(repeating: "\\", count: 6) + Array(repeating: "\"", count: 6)
        scalars += (0..<0x20).compactMap(Unicode.Scalar.init(_:))
        scalars += ["/", "\u{7F}", "a", "Z", "0", " ", "u", "n", "é", "日", "\u{2028}", "\u{2029}", "\u{FEFF}"]
        scalars += ["\u{FFFD}", "\u{FFFF}", "😀", "\u{1D11E}", "\u{10000}", "\u{10FFFF}", "\u{E0001}"]
        return scalars
    }()

    static func escapeHeavyString(using random: inout SplitMix64) -> String {
        let length = Int.random(in: 0...24, using: &random)
        var scalars = String.UnicodeScalarView()
        for _ in 0..<length { scalars.append(alphabet.randomElement(using: &random) ?? "\\") }
        return String(scalars)
    }

    static let numbers: [Double] = [
        0, -0.0, 1, -1, 0.1, 1.5, -2.25e-3, 1e10, 1e16, 1e21, 1e300, -1e-300, .leastNonzeroMagnitude,
        .leastNormalMagnitude, 9_007_199_254_740_991, 9_007_199_254_740_992, 18_014_398_509_481_984, 123_456_789.125,
        .greatestFiniteMagnitude,
    ]

    static func value(depth: Int, using random: inout SplitMix64) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 8 : 6), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number(numbers.randomElement(using: &random) ?? 0)
        case 3:  // any finite double, from its bits
            let number = Double(bitPattern: random.next())
            return .number(number.isFinite ? number : 0.5)
        case 4, 5: return .string(escapeHeavyString(using: &random))
        case 6:
            let count = Int.random(in: 0...4, using: &random)
            return .array((0..<count).map { _ in value(depth: depth - 1, using: &random) })
        default:
            let members = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                (escapeHeavyString(using: &random), value(depth: depth - 1, using: &random))
            }
            return .object(JSONObject(members))
        }
    }
}
