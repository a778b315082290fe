import Foundation
@_spi(Sandbox) @testable import IFTTTConnectTesting
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// Hostile redirects: each is refused by `ConnectionRedirectHandler` and changes nothing.
@Suite("Redirect forgery")
struct ActivationRedirectForgeryTests {
    static let state = "0123456789abcdef0123456789abcdef"
    static let base = "groceryexpress://ifttt/callback"
    static let ok = "next_step=complete&user_token=tok123&state=\(state)"

    /// (name, URL) pairs; every one must be refused while a flow with `state` waits.
    static let hostile: [(String, String)] = [
        ("wrong scheme", "evilapp://ifttt/callback?\(ok)"),
        ("scheme upper-case", "GroceryExpress://ifttt/callback?\(ok)"),
        ("scheme prefix", "groceryexpress2://ifttt/callback?\(ok)"),
        ("https scheme", "https://ifttt/callback?\(ok)"),
        ("wrong host", "groceryexpress://evil/callback?\(ok)"),
        ("host upper-case", "groceryexpress://IFTTT/callback?\(ok)"),
        ("host with user info", "groceryexpress://attacker@ifttt/callback?\(ok)"),
        ("host with port", "groceryexpress://ifttt:80/callback?\(ok)"),
        ("host percent-encoded", "groceryexpress://%69fttt/callback?\(ok)"),
        ("no host", "groceryexpress:///callback?\(ok)"),
        ("wrong path", "groceryexpress://ifttt/other?\(ok)"),
        ("path prefix", "groceryexpress://ifttt/callback/extra?\(ok)"),
        ("path trailing slash", "groceryexpress://ifttt/callback/?\(ok)"),
        ("path upper-case", "groceryexpress://ifttt/Callback?\(ok)"),
        ("path percent-encoded letter", "groceryexpress://ifttt/c%61llback?\(ok)"),
        ("path encoded slash", "groceryexpress://ifttt%2Fcallback?\(ok)"),
        ("path dot segment", "groceryexpress://ifttt/x/../callback?\(ok)"),
        ("empty path", "groceryexpress://ifttt?\(ok)"),
        ("no query", base),
        ("empty query", base + "?"),
        ("missing state", base + "?next_step=complete&user_token=tok123"),
        ("empty state", base + "?next_step=complete&user_token=tok123&state="),
        ("wrong state", base + "?next_step=complete&user_token=tok123&state=ffffffffffffffffffffffffffffffff"),
        ("state one digit off", base + "?next_step=complete&user_token=tok123&state=0123456789abcdef0123456789abcdee"),
        ("state truncated", base + "?next_step=complete&user_token=tok123&state=0123456789abcdef"),
        ("state with suffix", base + "?next_step=complete&user_token=tok123&state=\(state)00"),
        ("state upper-case", base + "?next_step=complete&user_token=tok123&state=\(state.uppercased())"),
        ("state twice", base + "?next_step=complete&user_token=tok123&state=\(state)&state=\(state)"),
        ("state name upper-case", base + "?next_step=complete&user_token=tok123&STATE=\(state)"),
        ("state name encoded", base + "?next_step=complete&user_token=tok123&%73tate=\(state)"),
        ("state in fragment", base + "?next_step=complete&user_token=tok123#state=\(state)"),
        ("valid query plus fragment", base + "?\(ok)#x"),
        ("state with encoded NUL", base + "?next_step=complete&user_token=tok123&state=\(state)%00"),
        (
            "state double-encoded",
            base + "?next_step=complete&user_token=tok123&state=%2530123456789abcdef0123456789abcdef"
        ),
        ("user_token without next_step", base + "?user_token=tok123&state=\(state)"),
        ("user_token with next_step=error", base + "?next_step=error&user_token=tok123&state=\(state)"),
        (
            "user_token with user_cancelled",
            base + "?next_step=user_cancelled_configuration&user_token=tok123&state=\(state)"
        ),
        ("unknown next_step", base + "?next_step=done&user_token=tok123&state=\(state)"),
        ("next_step upper-case", base + "?next_step=COMPLETE&user_token=tok123&state=\(state)"),
        ("next_step twice", base + "?next_step=complete&next_step=error&state=\(state)"),
        ("user_token twice", base + "?next_step=complete&user_token=a&user_token=b&state=\(state)"),
        ("empty user_token", base + "?next_step=complete&user_token=&state=\(state)"),
        ("user_token with a space", base + "?next_step=complete&user_token=a%20b&state=\(state)"),
        (
            "user_token too long",
            base + "?next_step=complete&user_token=\(String(repeating: "t", count: 1100))&state=\(state)"
        ),
        ("complete with error_type", base + "?next_step=complete&error_type=x&state=\(state)"),
        ("huge query", base + "?" + ok + "&pad=" + String(repeating: "a", count: 5000)),
        ("too many items", base + "?" + ok + String(repeating: "&x=1", count: 20)),
    ]

    @Test func theListIsLongEnough() {
        #expect(Self.hostile.count >= 40)
        #expect(Set(Self.hostile.map(\.0)).count == Self.hostile.count)
    }

    /// Registers a flow waiting with `state` (redirects without it refused, as with `.required`), whose token is
    /// vouched for.
    static func waitingFlow(_ registry: RedirectRegistry, matcher: RedirectURLMatcher, delivered: LogCapture? = nil) {
        registry.register(
            matcher, nonce: RedirectNonce(value: state), verifier: .vouchingForTests(), acceptsWithoutState: false
        ) { _ in delivered?.handler("delivered") }
    }

    @Test(arguments: hostile.map(\.0))
    func isRefusedWithNoChange(name: String) async throws {
        let text = try #require(Self.hostile.first { $0.0 == name }?.1)
        let registry = RedirectRegistry()
        let redirect = URL(string: Self.base)!
        let matcher = try #require(RedirectURLMatcher(redirectURL: redirect))
        let delivered = LogCapture()
        Self.waitingFlow(registry, matcher: matcher, delivered: delivered)
        let handler = ConnectionRedirectHandler(redirectURL: redirect, registry: registry)
        if let url = URL(string: text) {
            #expect(handler.handleApplicationRedirect(url: url) == false)
            #expect(handler.handleApplicationRedirect(url: url, options: ["source": "com.apple.mobilesafari"]) == false)
        }
        #expect(handler.handleApplicationRedirect(urlString: text) == false)
        #expect(registry.isWaiting(for: RedirectNonce(value: Self.state)))
        #expect(delivered.lines.isEmpty)
        // The genuine redirect still works afterwards, once.
        #expect(await handler.verdict(for: URL(string: Self.base + "?" + Self.ok)!) == (true, true))
        #expect(await handler.verdict(for: URL(string: Self.base + "?" + Self.ok)!) == (false, false))
        #expect(delivered.lines == ["delivered"])
    }

    @Test func nothingIsAcceptedWhenNoFlowWaits() {
        let handler = ConnectionRedirectHandler(redirectURL: URL(string: Self.base)!, registry: RedirectRegistry())
        #expect(!handler.handleApplicationRedirect(url: URL(string: Self.base + "?" + Self.ok)!))
    }

    @Test func aHandlerForAnotherRedirectURLDoesNotSeeTheFlow() {
        let registry = RedirectRegistry()
        Self.waitingFlow(registry, matcher: RedirectURLMatcher(redirectURL: URL(string: Self.base)!)!)
        let other = ConnectionRedirectHandler(
            redirectURL: URL(string: "groceryexpress://ifttt/other")!, registry: registry)
        #expect(!other.handleApplicationRedirect(url: URL(string: "groceryexpress://ifttt/other?" + Self.ok)!))
        #expect(registry.count == 1)
    }

    @Test func aCancelledFlowNoLongerAcceptsItsState() {
        let registry = RedirectRegistry()
        let nonce = RedirectNonce(value: Self.state)
        Self.waitingFlow(registry, matcher: RedirectURLMatcher(redirectURL: URL(string: Self.base)!)!)
        registry.cancel(nonce)
        let handler = ConnectionRedirectHandler(redirectURL: URL(string: Self.base)!, registry: registry)
        #expect(!handler.handleApplicationRedirect(url: URL(string: Self.base + "?" + Self.ok)!))
    }

    @Test func aRedirectURLWithAQueryMatchesNothing() {
        let handler = ConnectionRedirectHandler(
            redirectURL: URL(string: Self.base + "?a=1")!, registry: RedirectRegistry())
        #expect(!handler.handleApplicationRedirect(url: URL(string: Self.base + "?a=1&" + Self.ok)!))
    }

    @Test func genuineOutcomesParse() {
        let matcher = RedirectURLMatcher(redirectURL: URL(string: Self.base)!)!
        func outcome(_ query: String) -> RedirectOutcome? {
            matcher.candidate(for: URL(string: Self.base + "?" + query)!)?.outcome
        }
        #expect(outcome(Self.ok) == .complete(userToken: RedactedToken(value: "tok123")))
        #expect(outcome("state=s&next_step=complete&extra=1") == .complete(userToken: nil))
        #expect(outcome("state=s&next_step=error&error_type=account_creation") == .error(accountCreation: true))
        #expect(outcome("state=s&next_step=error") == .error(accountCreation: false))
        #expect(outcome("state=s&next_step=user_cancelled_configuration") == .userCancelledConfiguration)
    }
}
