import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// The proof that binds an activation URL's `code` to the attempt that sent it.
@Suite("The activation URL's code binding (PKCE, S256)")
struct PartnerLinkProofTests {
    @Test func sha256MatchesTheStandardsVectors() {
        func hex(_ text: String) -> String {
            SHA256Digest.hash(Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
        }
        #expect(hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            hex(String(repeating: "a", count: 1_000))
                == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    /// RFC 7636, appendix B.
    @Test func theChallengeIsRFC7636s() {
        let proof = PartnerLinkProof(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
        #expect(proof.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        #expect(!String(describing: proof).contains(proof.verifier))
        #expect(PartnerLinkProof.random().verifier.count == 64)
        #expect(PartnerLinkProof.random() != PartnerLinkProof.random())
    }

    /// The URL carries the challenge right after `code`, never the verifier; without a code, neither.
    @Test func theURLCarriesTheChallengeNextToTheCode() {
        let proof = PartnerLinkProof.random()
        let urls = ActivationURLBuilder(
            connectionId: "c1", redirectURL: URL(string: "groceryexpress://cb")!, skipConfiguration: false,
            localeIdentifier: "en", anonymousId: "a")
        let url = urls.webActivationURL(
            user: .email("a@example.com", isNew: false),
            credentials: .init(oauthCode: "code-1", inviteCode: nil, linkProof: proof), state: .random(),
            installedMailApps: [])
        let text = url.absoluteString
        #expect(text.hasSuffix("&code=code-1&code_challenge=\(proof.challenge)&code_challenge_method=S256"))
        #expect(!text.contains(proof.verifier))
        let bare = urls.webActivationURL(
            user: .email("a@example.com", isNew: false), credentials: .init(oauthCode: "", inviteCode: nil),
            state: .random(), installedMailApps: [])
        #expect(!bare.absoluteString.contains("code"))
    }
}
