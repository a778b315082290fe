import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
import Testing
import TestSupport

/// The fuzz corpora (`Fuzz/Corpus`, `Fuzz/Regressions`) replayed as ordinary tests, so every input the fuzzers
/// were seeded with or once failed on is checked by `swift test` too; `scripts/fuzz.sh` explores beyond them.
@Suite("Fuzz corpora and regressions")
struct FuzzCorpusTests {
    static let fuzz = Repository.url("Fuzz")

    /// Every file of `Fuzz/Corpus/<target>` and `Fuzz/Regressions/<target>`, by name.
    static func inputs(_ target: String) -> [(String, Data)] {
        ["Corpus", "Regressions"].flatMap { folder -> [(String, Data)] in
            let directory = fuzz.appendingPathComponent(folder).appendingPathComponent(target)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            return names.sorted().compactMap { name in
                (try? Data(contentsOf: directory.appendingPathComponent(name))).map { ("\(folder)/\(name)", $0) }
            }
        }
    }

    @Test func theParserAgreesWithJSONSerializationOnEveryJSONInput() {
        let inputs = Self.inputs("json")
        #expect(inputs.count >= 18)
        for (name, data) in inputs {
            #expect(JSONDifferential.compare(data) == nil, "\(name)")
        }
    }

    /// The differential over every committed input of every target, not only the `json` corpus: Connection
    /// payloads, seed files, redirect URLs and journal bytes are all bytes a parser may be handed, and on each
    /// the SDK's parser and `JSONSerialization` accept and refuse alike, with the same values.
    @Test(arguments: ["json", "connection", "seed", "redirect", "journal"])
    func theParserAgreesWithJSONSerializationOnEveryCorpusInput(target: String) {
        let inputs = Self.inputs(target)
        #expect(inputs.count >= 5)
        for (name, data) in inputs {
            #expect(JSONDifferential.compare(data) == nil, "\(target)/\(name)")
        }
    }

    /// The public, `Codable` way into ``JSONValue`` (`JSONDecoder`, `JSONEncoder`) agrees with the SDK's parser
    /// on every JSON input it accepts (object member order aside, which `JSONDecoder` does not keep).
    @Test func jsonDecoderReadsTheSameJSONValueAsTheParser() throws {
        var compared = 0
        for (name, data) in Self.inputs("json") + Self.inputs("connection") + Self.inputs("seed") {
            guard (try? JSONParser().parse(data)) != nil else { continue }
            #expect(JSONDifferential.compareCodable(data) == nil, "\(name)")
            compared += 1
        }
        #expect(compared >= 15)
    }

    /// Found by the `json` fuzz target: raw bytes that are not UTF-8 inside a string were repaired with U+FFFD
    /// and accepted; RFC 8259 texts are UTF-8 and JSONSerialization refuses them.
    @Test(
        arguments: [
            [0x22, 0x98, 0x80, 0x22],  // a lone continuation byte
            [0x7B, 0x22, 0x6B, 0xC3, 0x22, 0x3A, 0x31, 0x7D],  // a key cut inside a two-byte sequence
            [0x22, 0xED, 0xA0, 0x80, 0x22],  // an encoded surrogate
            [0x22, 0x5C, 0x6E, 0xFF, 0x22],  // after an escape (the slow path)
            [0x22, 0xC0, 0xAF, 0x22],  // an overlong '/'
        ] as [[UInt8]])
    func invalidUTF8InAStringIsRefused(bytes: [UInt8]) {
        #expect(throws: ConnectDecodingError.self) { try JSONParser().parse(Data(bytes)) }
    }

    @Test func validUTF8StillDecodesOnBothPaths() throws {
        #expect(try JSONParser().parse(#""kéy 日本語 😀""#) == .string("kéy 日本語 😀"))
        #expect(try JSONParser().parse(#""é\n😀\u00e9""#) == .string("é\n😀é"))
        let regression = try #require(Self.inputs("json").first { $0.0.hasSuffix("invalid-utf8-in-string.json") })
        #expect(throws: ConnectDecodingError.self) { try JSONParser().parse(regression.1) }
    }

    @Test func everyConnectionInputDecodesOrFailsWithATypedError() {
        let inputs = Self.inputs("connection")
        #expect(inputs.count >= 7)
        var decoded = 0
        for (_, data) in inputs {
            if (try? Connection.decode(from: data)) != nil { decoded += 1 }
        }
        #expect(decoded >= 4)  // the three Connection fixtures and the minimal one
    }
}
