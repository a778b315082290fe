import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// Drives the pure flow step by step with explicit times: every row of spec §2.3 and the new transitions.
@Suite("Activation flow state machine")
struct ActivationFlowTests {
    typealias F = ActivationFixtures

    /// A flow plus the time and every effect it returned.
    struct Harness {
        var flow: ActivationFlow
        var now: UInt64 = 0
        var effects: [ActivationFlow.Effect] = []

        init(_ connection: Connection? = ActivationFixtures.connection(), timing: ActivationTiming = .standard) {
            flow = ActivationFlow(urls: F.urls(), timing: timing, connection: connection, sessionId: UUID())
            _ = send(.start)
        }

        @discardableResult
        mutating func send(_ event: ActivationFlow.Event) -> [ActivationFlow.Effect] {
            let out = flow.handle(event, now: now)
            effects += out
            return out
        }

        @discardableResult
        mutating func advance(to time: UInt64) -> [ActivationFlow.Effect] {
            now = time
            return send(.tick)
        }

        var reports: [Result<ConnectionActivation, ConnectButtonControllerError>] {
            effects.compactMap { if case .reportActivation(let r) = $0 { return r } else { return nil } }
        }

        var openedURL: URL? {
            effects.compactMap { effect -> URL? in
                switch effect {
                case .openAppHandoff(_, let url), .startWebSession(_, let url): return url
                default: return nil
                }
            }.last
        }
    }

    // MARK: Setup

    @Test(arguments: [Connection.Status.initial, .unknown, .disabled])
    func setupWithAnInactiveStatusShowsInitial(status: Connection.Status) {
        let h = Harness(F.connection(status))
        #expect(h.flow.step == .initial)
        #expect(h.effects == [.funnel(.impression)])
    }

    @Test func setupWithAnEnabledConnectionShowsConnected() {
        let h = Harness(F.connection(.enabled))
        #expect(h.flow.step == .connected)
    }

    // MARK: Toggle from initial

    @Test func toggleWithAUserTokenIdentifiesTheUserByToken() {
        var h = Harness()
        let a = F.attempt(token: true, app: true)
        let out = h.send(.toggle(a))
        #expect(h.flow.step == .identifyUser(a, .token))
        #expect(out.contains(.lookUpUser(a.sessionId, .token)))
        #expect(h.flow.sessionId == a.sessionId)
    }

    @Test func toggleWithoutTokenButWithTheAppOpensTheHandOffAfterOneSecond() throws {
        var h = Harness()
        let a = F.attempt(app: true)
        #expect(h.send(.toggle(a)).contains(.scheduleTick(at: 1000)))
        guard case .appHandoff(_, let url, opensAt: 1000) = h.flow.step else {
            Issue.record("\(h.flow.step)")
            return
        }
        #expect(h.advance(to: 999).isEmpty)
        let out = h.advance(to: 1000)
        #expect(out.first == .awaitRedirect(a.nonce))
        #expect(out.contains(.openAppHandoff(a.sessionId, url)))
        #expect(h.flow.step == .appHandoff(a, url, opensAt: nil))
        #expect(url.absoluteString.hasPrefix("ifttt-handoff-v1://connections/c1?"))
        #expect(F.value("email", in: url) == nil && F.value("username", in: url) == nil)
        #expect(F.value("action", in: url) == "activation")
        #expect(F.value("state", in: url) == a.nonce.value)
    }

    @Test func toggleWithoutTokenOrAppAsksForTheEmail() {
        var h = Harness()
        let a = F.attempt()
        #expect(h.send(.toggle(a)) == [.funnel(.activationStarted), .funnel(.emailRequested)])
        #expect(h.flow.visibleStep == .enterEmail(invalid: false))
    }

    // MARK: Email

    @Test func aValidEmailStartsTheAccountLookup() {
        var h = Harness()
        let a = F.attempt()
        h.send(.toggle(a))
        let out = h.send(.emailConfirmed("  user@example.com \n"))
        #expect(h.flow.step == .identifyUser(a, .email("user@example.com")))
        #expect(out.contains(.lookUpUser(a.sessionId, .email("user@example.com"))))
    }

    @Test func anInvalidEmailStaysAndRevertsTheFooterAfterTwoSeconds() {
        var h = Harness()
        let a = F.attempt()
        h.send(.toggle(a))
        h.now = 500
        #expect(h.send(.emailConfirmed("not an email")) == [.funnel(.emailRejected), .scheduleTick(at: 2500)])
        #expect(h.flow.visibleStep == .enterEmail(invalid: true))
        #expect(h.advance(to: 2499).isEmpty)
        h.advance(to: 2500)
        #expect(h.flow.visibleStep == .enterEmail(invalid: false))
        #expect(h.reports.isEmpty)
    }

    // MARK: Identify user

    @Test func anExistingUserWithTheAppGoesToTheHandOffAtOnce() {
        var h = Harness()
        let a = F.attempt(token: true, app: true)
        h.send(.toggle(a))
        let out = h.send(.userLookupFinished(a.sessionId, .success(.username("jo"))))
        #expect(out.contains(.awaitRedirect(a.nonce)))
        #expect(F.value("username", in: h.openedURL!) == "jo")
        guard case .appHandoff(_, _, opensAt: nil) = h.flow.step else {
            Issue.record("\(h.flow.step)")
            return
        }
    }

    @Test func anExistingUserWithoutTheAppGoesToTheWebPageAtOnce() {
        var h = Harness()
        let a = F.attempt(mailApps: ["message://", "ymail://"])
        h.send(.toggle(a))
        h.send(.emailConfirmed("user@example.com"))
        let out = h.send(.userLookupFinished(a.sessionId, .success(.email("user@example.com", isNew: false))))
        #expect(out.contains(.awaitRedirect(a.nonce)))
        #expect(h.flow.visibleStep == .waitingForRedirect)
        let url = h.openedURL!
        #expect(url.absoluteString.hasPrefix("https://ifttt.com/access/api/c1?"))
        #expect(F.query(url).filter { $0.0 == "available_email_app_schemes[]" }.map(\.1) == ["message://", "ymail://"])
        #expect(url.absoluteString.contains("available_email_app_schemes%5B%5D="))
        #expect(F.value("sdk_create_account", in: url) == nil)
    }

    @Test func aNewUserSeesCreatingAccountThenContinueToServiceThenTheWebPage() {
        var h = Harness()
        let a = F.attempt()
        h.send(.toggle(a))
        h.send(.emailConfirmed("new@example.com"))
        h.now = 100
        h.send(.userLookupFinished(a.sessionId, .success(.email("new@example.com", isNew: true))))
        #expect(h.flow.visibleStep == .creatingAccount)
        #expect(h.advance(to: 1599).isEmpty)
        h.advance(to: 1600)
        #expect(h.flow.visibleStep == .continueToService)
        #expect(h.advance(to: 3599).isEmpty)
        let out = h.advance(to: 3600)
        #expect(out.contains(.awaitRedirect(a.nonce)))
        #expect(h.flow.visibleStep == .waitingForRedirect)
        #expect(F.value("sdk_create_account", in: h.openedURL!) == "true")
        #expect(F.value("email", in: h.openedURL!) == "new@example.com")
    }

    @Test func aFailedLookupIsAnErrorNeverANewUser() {
        var h = Harness()
        let a = F.attempt()
        h.send(.toggle(a))
        h.send(.emailConfirmed("user@example.com"))
        let error = ConnectButtonControllerError.networkError(.apiError(statusCode: 500, payload: nil))
        h.send(.userLookupFinished(a.sessionId, .failure(error)))
        #expect(h.flow.step == .initial)
        #expect(h.reports == [.failure(error)])
        #expect(!h.effects.contains { if case .startWebSession = $0 { return true } else { return false } })
    }

    @Test func aTokenLookupFailureFails() {
        var h = Harness()
        let a = F.attempt(token: true)
        h.send(.toggle(a))
        h.send(.userLookupFinished(a.sessionId, .failure(.networkError(.authenticationFailure(nil)))))
        #expect(h.reports == [.failure(.networkError(.authenticationFailure(nil)))])
        #expect(h.flow.step == .initial)
    }

    @Test func aStaleLookupResultIsIgnored() {
        var h = Harness()
        let a = F.attempt(token: true)
        h.send(.toggle(a))
        let before = h.flow
        #expect(h.send(.userLookupFinished(UUID(), .success(.username("x")))).isEmpty)
        #expect(h.flow == before)
    }

    // MARK: Hand-off

    @Test func backgroundingDuringTheHandOffShowsInitialButStillAwaitsTheRedirect() {
        var h = Harness(timing: .immediate)
        let a = F.attempt(app: true)
        h.send(.toggle(a))
        h.send(.appDidEnterBackground)
        #expect(h.flow.step == .initial)
        #expect(h.flow.pending == a)
        h.send(.redirectReceived(a.nonce, .complete(userToken: RedactedToken(value: F.token))))
        #expect(h.flow.visibleStep == .activationComplete)
        #expect(h.reports.count == 1)
    }

    @Test func aFailedHandOffOpenFails() {
        var h = Harness(timing: .immediate)
        let a = F.attempt(app: true)
        h.send(.toggle(a))
        let out = h.send(.appHandoffOpenFailed(a.sessionId))
        #expect(out.contains(.stopAwaitingRedirect(a.nonce)))
        #expect(h.reports == [.failure(.iftttAppRedirectFailed)])
        #expect(h.flow.step == .initial && h.flow.pending == nil)
    }

    // MARK: Redirect outcomes

    func waitingOnTheWeb() -> (Harness, ActivationFlow.Attempt) {
        var h = Harness()
        let a = F.attempt()
        h.send(.toggle(a))
        h.send(.emailConfirmed("user@example.com"))
        h.send(.userLookupFinished(a.sessionId, .success(.email("user@example.com", isNew: false))))
        return (h, a)
    }

    @Test func completeWithATokenActivatesThenShowsConnectedAfterTheHold() throws {
        var (h, a) = waitingOnTheWeb()
        h.now = 10
        let out = h.send(.redirectReceived(a.nonce, .complete(userToken: RedactedToken(value: F.token))))
        #expect(out.contains(.dismissWebSession))
        #expect(h.flow.visibleStep == .activationComplete)
        let activation = try #require(try h.reports.first?.get())
        #expect(activation.userToken == F.token)
        #expect(activation.connection.status == .enabled)
        #expect(h.advance(to: 3509).isEmpty)
        h.advance(to: 3510)
        #expect(h.flow.step == .connected)
    }

    @Test func completeWithoutATokenStillActivates() throws {
        var (h, a) = waitingOnTheWeb()
        h.send(.redirectReceived(a.nonce, .complete(userToken: nil)))
        #expect(try h.reports.first?.get().userToken == nil)
    }

    @Test(arguments: [
        (RedirectOutcome.error(accountCreation: true), ConnectButtonControllerError.iftttAccountCreationFailed),
        (.error(accountCreation: false), .unknownRedirect),
        (.userCancelledConfiguration, .userCancelledConfiguration),
    ])
    func errorOutcomesFailOnce(outcome: RedirectOutcome, error: ConnectButtonControllerError) {
        var (h, a) = waitingOnTheWeb()
        let out = h.send(.redirectReceived(a.nonce, outcome))
        #expect(out.filter { $0 == .dismissWebSession }.count == 1)
        #expect(h.reports == [.failure(error)])
        #expect(h.flow.step == .initial)
    }

    @Test func closingTheWebPageCancels() {
        var (h, a) = waitingOnTheWeb()
        let out = h.send(.webSessionEnded(a.sessionId, .cancelled))
        #expect(out.contains(.stopAwaitingRedirect(a.nonce)))
        #expect(h.reports == [.failure(.canceled)])
    }

    @Test func aFailingWebSessionIsAnUnknownResponse() {
        var (h, a) = waitingOnTheWeb()
        h.send(.webSessionEnded(a.sessionId, .failed(.unknownResponse)))
        #expect(h.reports == [.failure(.unknownResponse)])
    }

    @Test func aRedirectWithAnotherStateChangesNothing() {
        var (h, _) = waitingOnTheWeb()
        let before = h.flow
        #expect(h.send(.redirectReceived(RedirectNonce(value: "ffff"), .complete(userToken: nil))).isEmpty)
        #expect(h.flow == before)
    }

    @Test func aSecondRedirectAfterCompletionChangesNothing() {
        var (h, a) = waitingOnTheWeb()
        h.send(.redirectReceived(a.nonce, .complete(userToken: RedactedToken(value: F.token))))
        let before = h.flow
        #expect(h.send(.redirectReceived(a.nonce, .complete(userToken: RedactedToken(value: "other")))).isEmpty)
        #expect(h.send(.webSessionEnded(a.sessionId, .cancelled)).isEmpty)
        #expect(h.flow == before)
        #expect(h.reports.count == 1)
    }

    @Test func aRedirectWithNoFlowWaitingChangesNothing() {
        var h = Harness()
        let before = h.flow
        #expect(
            h.send(
                .redirectReceived(RedirectNonce(value: "0123456789abcdef0123456789abcdef"), .complete(userToken: nil))
            ).isEmpty)
        #expect(h.flow == before)
    }

    // MARK: Cancel (new)

    @Test func cancelEndsEveryWaitingStepOnce() {
        var h = Harness()
        h.send(.toggle(F.attempt()))
        h.send(.cancel)
        h.send(.toggle(F.attempt(token: true)))
        h.send(.cancel)
        var (web, _) = waitingOnTheWeb()
        web.send(.cancel)
        web.send(.cancel)
        #expect(h.reports == [.failure(.canceled), .failure(.canceled)])
        #expect(web.reports == [.failure(.canceled)])
        #expect(web.effects.filter { $0 == .dismissWebSession }.count == 1)
    }

    @Test func cancelAfterABackgroundedHandOffStopsWaiting() {
        var h = Harness(timing: .immediate)
        let a = F.attempt(app: true)
        h.send(.toggle(a))
        h.send(.appDidEnterBackground)
        #expect(h.send(.cancel).contains(.stopAwaitingRedirect(a.nonce)))
        #expect(h.send(.cancel).isEmpty)
    }

    @Test func aNewToggleReplacesAnAttemptStillWaiting() {
        var h = Harness(timing: .immediate)
        let first = F.attempt(app: true, nonce: "a")
        h.send(.toggle(first))
        h.send(.appDidEnterBackground)
        let second = F.attempt(app: true, nonce: "b")
        #expect(h.send(.toggle(second)).first == .stopAwaitingRedirect(first.nonce))
        #expect(h.send(.redirectReceived(first.nonce, .complete(userToken: nil))).isEmpty)
        #expect(h.flow.pending == second)
    }

    @Test func togglesWhileBusyAreIgnored() {
        var (h, _) = waitingOnTheWeb()
        let before = h.flow
        #expect(h.send(.toggle(F.attempt())).isEmpty)
        #expect(h.send(.emailConfirmed("a@b.co")).isEmpty)
        #expect(h.flow == before)
    }

    // MARK: Disconnect

    @Test func toggleWhenConnectedDisconnects() {
        var h = Harness(F.connection(.enabled))
        let a = F.attempt()
        #expect(h.send(.toggle(a)) == [.funnel(.deactivationStarted), .disconnect(a.sessionId)])
        #expect(h.flow.visibleStep == .disconnecting)
    }

    @Test func aSuccessfulDisconnectShowsDisconnectedThenInitial() {
        var h = Harness(F.connection(.enabled))
        let a = F.attempt()
        h.send(.toggle(a))
        let out = h.send(.disconnectFinished(a.sessionId, .success(F.connection(.enabled))))
        #expect(out.contains(.reportDeactivation(.success(F.connection(.disabled)))))
        #expect(h.flow.visibleStep == .disconnected)
        #expect(h.advance(to: 1999).isEmpty)
        h.advance(to: 2000)
        #expect(h.flow.step == .initial)
        #expect(h.flow.connection?.status == .disabled)
    }

    @Test func aFailedDisconnectReturnsToConnected() {
        var h = Harness(F.connection(.enabled))
        let a = F.attempt()
        h.send(.toggle(a))
        let out = h.send(.disconnectFinished(a.sessionId, .failure(.timedOut)))
        #expect(out.contains(.reportDeactivation(.failure(.networkError(.timedOut)))))
        #expect(h.flow.step == .connected)
    }

    // MARK: Loading (new)

    @Test func loadingRetriesAfterTwoFourAndEightSecondsThenFails() {
        var h = Harness(nil)
        #expect(h.effects == [.fetchConnection(retry: 0)])
        var times: [UInt64] = []
        for retry in 0..<3 {
            let out = h.send(.connectionLoaded(retry: retry, .failure(.timedOut)))
            guard case .scheduleTick(let at)? = out.last else {
                Issue.record("no retry")
                return
            }
            times.append(at - h.now)
            #expect(h.advance(to: at - 1).isEmpty)
            #expect(h.advance(to: at) == [.fetchConnection(retry: retry + 1)])
        }
        #expect(times == [2000, 4000, 8000])
        h.send(.connectionLoaded(retry: 3, .failure(.timedOut)))
        #expect(h.flow.step == .loadingFailed)
        #expect(h.send(.retryLoading) == [.fetchConnection(retry: 0)])
        h.send(.connectionLoaded(retry: 0, .success(F.connection())))
        #expect(h.flow.step == .initial)
    }

    @Test func aLateLoadResultFromAnEarlierTryIsIgnored() {
        var h = Harness(nil)
        h.send(.connectionLoaded(retry: 0, .failure(.timedOut)))
        #expect(h.send(.connectionLoaded(retry: 0, .success(F.connection()))).isEmpty)
    }

    // MARK: URLs

    @Test func theHandOffURLCarriesEveryParameterInOrder() {
        let urls = F.urls(skip: true)
        let url = urls.appHandoffURL(
            user: .email("a+b@example.com", isNew: false),
            credentials: .init(oauthCode: "oauth+code", inviteCode: "inv-1"),
            state: RedirectNonce(value: "s1"))
        #expect(
            F.query(url).map(\.0) == [
                "sdk_return_to", "sdk_version", "sdk_platform", "sdk_anonymous_id", "locale", "skip_config",
                "invite_code", "state", "code", "email", "action",
            ])
        #expect(F.value("sdk_return_to", in: url) == "groceryexpress://ifttt/callback")
        #expect(F.value("sdk_version", in: url) == SDKInfo.version)
        #expect(F.value("sdk_platform", in: url) == SDKInfo.platform)
        #expect(F.value("invite_code", in: url) == "inv-1")
        #expect(url.absoluteString.contains("email=a%2Bb%40example.com"))
        #expect(url.absoluteString.contains("code=oauth%2Bcode"))
    }

    @Test func theWebURLForANewUserOmitsEmptyCodesAndSkipConfig() {
        let url = F.urls().webActivationURL(
            user: .email("n@example.com", isNew: true), credentials: .init(oauthCode: "", inviteCode: ""),
            state: RedirectNonce(value: "s1"), installedMailApps: ["message://"])
        #expect(
            F.query(url).map(\.0) == [
                "sdk_return_to", "sdk_version", "sdk_platform", "sdk_anonymous_id", "locale", "state",
                "email", "sdk_create_account",
            ])
    }

    @Test func noncesAre128RandomBits() {
        let values = (0..<200).map { _ in RedirectNonce.random().value }
        #expect(Set(values).count == 200)
        #expect(values.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        #expect("\(RedirectNonce.random())" == "RedirectNonce(<redacted>)")
    }
}
