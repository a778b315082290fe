import Foundation
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing

/// Icons, cover images and a service's page are kept only as `http(s)` URLs with a host. The decoder decides that on
/// the URL's bytes when its authority is plain; these tests hold that decision to the parsed URL's (`URL.isWebURL`,
/// what it did before) on hostile URLs and on many generated ones.
@Suite("Web URL check on bytes")
struct WebURLVerdictTests {
    /// The check as it was: Foundation's parse, then the parsed scheme and host.
    static func reference(_ text: String) -> URL? {
        JSONReader.absoluteURL(text).flatMap { $0.isWebURL ? $0 : nil }
    }

    static let hostile = [
        "https://ifttt.com/x", "HTTPS://IFTTT.COM", "HtTp://a", "http://", "https://", "http:///x", "https:x.com",
        "https:/x.com", "https:", "http:", "https://@/x", "https://@h/x", "https://u@h/x", "https://u:p@h:99/p?q#f",
        "https://u:1@h/", "https://:80/x", "https://h:/x", "https://h:80", "https://h:80:90/", "https://h:port/",
        "https://h:-1/", "https://h:80a/", "https://a@b@c/", "https://[::1]/", "https://[::1/", "https://%41/",
        "https://%/", "https://%ff/", "https://ex%41.com/", "https://é.com/", "https://a b.com/", "https://a.com/ b",
        "https://a.com\t", " https://a.com", "https://a.com#frag", "https://a.com?q", "https://?q", "https://#f",
        "https://a!$&'()*+,;=.com/", "https://a_b~c.com/", "https://-.com", "https://./", "https://../",
        "javascript:alert(1)", "JavaScript://a.com/%0Aalert(1)", "data:image/svg+xml,<svg/>", "file:///etc/passwd",
        "ftp://a.com/", "httpx://a.com", "http+s://a.com", "https2://a.com", "htt://a", "h://a", "://a.com", ":",
        "", "https://a.com/\u{0}", "https://\u{0}/", "https://a.com:99999999999999999999/", "https:////a.com",
        "https:\\\\a.com", "https://a.com\\@b.com/", "https://b.com%2F@a.com/", "https://a.com%00.b.com/",
    ]

    @Test func hostileURLsAreDecidedAsTheParsedURLDecides() {
        for text in Self.hostile {
            #expect(
                JSONReader.webURL(text)?.absoluteString == Self.reference(text)?.absoluteString,
                "\(text.debugDescription)")
        }
    }

    @Test func generatedURLsAreDecidedAsTheParsedURLDecides() {
        let schemes = ["http://", "https://", "HTTP://", "hTtPs://", "http:/", "https:", "ftp://", "httpss://", "h:"]
        let pieces = [
            "a", "Z", "0", "9", "-", ".", "_", "~", "@", ":", "/", "?", "#", "%", "%41", "%zz", "[", "]", "[::1]", " ",
            "!", "$", "&", "'", "(", "*", "+", ",", ";", "=", "é", "\u{0}", "\\", "80", "ifttt.com", "u:p@",
        ]
        var generator = SplitMix64(seed: 0x5EED_40)
        var decidedOnBytes = 0
        var mismatches: [String] = []
        for _ in 0..<20_000 {
            var text = schemes[Int(generator.next() % UInt64(schemes.count))]
            for _ in 0..<Int(generator.next() % 7) { text += pieces[Int(generator.next() % UInt64(pieces.count))] }
            if JSONReader.absoluteURL(text) != nil, JSONReader.webURLVerdict(text) != nil { decidedOnBytes += 1 }
            if JSONReader.webURL(text)?.absoluteString != Self.reference(text)?.absoluteString {
                mismatches.append(text)
            }
        }
        #expect(mismatches.isEmpty, "decided unlike the parsed URL: \(mismatches.prefix(10))")
        #expect(decidedOnBytes > 2_000, "the byte check decided only \(decidedOnBytes) URLs")
    }

    @Test func plainWebURLsAreDecidedOnTheirBytes() {
        for text in ["https://ifttt.com/x", "http://a.b-c_d~e.com:8080/p?q#f", "https://u@h/", "HTTPS://X.COM"] {
            #expect(JSONReader.webURLVerdict(text) == true, "\(text)")
        }
        for text in ["javascript:alert(1)", "https:x.com", "http://", "https://:80/", "ftp://a.com/"] {
            #expect(JSONReader.webURLVerdict(text) == false, "\(text)")
        }
        for text in ["https://[::1]/", "https://%41/", "https://é.com/", "https://u:p@h/"] {
            #expect(JSONReader.webURLVerdict(text) == nil, "\(text)")
        }
    }
}
