import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

/// The portable part of `ConnectFlowButton`: how a flow's result becomes the one event the app hears, how the
/// controller's step becomes the status it observes, and when new settings restart the button.
@Suite("ConnectFlowButton's model")
struct ConnectFlowModelTests {
    static let connection = ActivationFixtures.connection(.enabled, id: "gx-arrive-store")

    @Test func eachEndOfAFlowIsItsOwnEventAndCancelIsNotAFailure() throws {
        let activation = ConnectionActivation(userToken: "tok", connection: Self.connection)
        #expect(ConnectFlowEvent(activation: .success(activation)) == .activated(activation))
        #expect(ConnectFlowEvent(activation: .failure(.canceled)) == .cancelled)
        #expect(ConnectFlowEvent(activation: .failure(.userCancelledConfiguration)) == .cancelled)
        #expect(
            ConnectFlowEvent(activation: .failure(.iftttAccountCreationFailed))
                == .activationFailed(.iftttAccountCreationFailed))
        #expect(ConnectFlowEvent(activation: .failure(.unknownRedirect)) == .activationFailed(.unknownRedirect))
        #expect(ConnectFlowEvent(deactivation: .success(Self.connection)) == .deactivated(Self.connection))
        #expect(
            ConnectFlowEvent(deactivation: .failure(.unableToGetConnection))
                == .deactivationFailed(.unableToGetConnection))
        // A failed deactivation is never reported as a cancelled or failed activation.
        #expect(ConnectFlowEvent(deactivation: .failure(.canceled)) == .deactivationFailed(.canceled))
        #expect("\(ConnectFlowEvent.activated(activation))" == "activated(gx-arrive-store)")
    }

    @Test(arguments: [
        (ConnectButtonStep.loading, false, true), (.loadingFailed, false, false), (.initial, false, false),
        (.enterEmail(invalid: false), false, true), (.enterEmail(invalid: true), false, true),
        (.verifyingUser, false, true), (.creatingAccount, false, true), (.continueToService, false, true),
        (.appHandoff, false, true), (.waitingForRedirect, false, true), (.activationComplete, true, false),
        (.connected, true, false), (.disconnecting, true, true), (.disconnected, false, false),
    ])
    func everyStepHasAStatus(step: ConnectButtonStep, connected: Bool, busy: Bool) {
        let status = ConnectFlowStatus(step: step)
        #expect(status.isConnected == connected, "\(step)")
        #expect(status.isBusy == busy, "\(step)")
    }

    static func settings(id: String = "gx-arrive-store", email: String = "alice@example.com", locale: String = "en")
        -> ConnectFlowSettings
    {
        ConnectFlowSettings(
            configuration: ConnectionConfiguration(
                connectionId: id, suggestedUserEmail: email, credentialProvider: ConnectionCredentials.anonymous,
                redirectURL: URL(string: "groceryexpress://ifttt/callback")!),
            controllerConfiguration: .sandbox(URL(string: "http://127.0.0.1:8080")!),
            locale: Locale(identifier: locale))
    }

    @Test func newSettingsRestartAtOnceWhenIdleAndAfterTheFlowWhenBusy() {
        var policy = ConnectFlowRestartPolicy(Self.settings())
        var restarts: [Bool] = []
        // The same inputs again (every view update): nothing happens.
        restarts.append(policy.update(Self.settings(), busy: false))
        // Another Connection while idle: at once.
        restarts.append(policy.update(Self.settings(id: "gx-store-visits"), busy: false))
        #expect(policy.current.connectionId == "gx-store-visits")
        // Another email while a flow is under way: waits, then is taken when the flow ends.
        restarts.append(policy.update(Self.settings(id: "gx-store-visits", email: "bob@example.com"), busy: true))
        #expect(policy.current.suggestedUserEmail == "alice@example.com")
        restarts.append(policy.statusChanged(busy: true))
        restarts.append(policy.statusChanged(busy: false))
        #expect(policy.current.suggestedUserEmail == "bob@example.com")
        restarts.append(policy.statusChanged(busy: false))
        // A change that is undone before the flow ends restarts nothing.
        restarts.append(
            policy.update(Self.settings(id: "gx-store-visits", email: "bob@example.com", locale: "de"), busy: true))
        restarts.append(policy.update(Self.settings(id: "gx-store-visits", email: "bob@example.com"), busy: true))
        restarts.append(policy.statusChanged(busy: false))
        #expect(restarts == [false, true, false, false, true, false, false, false, false])
    }

    @Test func theSettingsSeeEveryInputThatChangesTheFlow() {
        let base = Self.settings()
        #expect(base == Self.settings())
        #expect(base != Self.settings(id: "gx-weekly-deals"))
        #expect(base != Self.settings(email: "bob@example.com"))
        #expect(base != Self.settings(locale: "de"))
        let production = ConnectFlowSettings(
            configuration: ConnectionConfiguration(
                connectionId: "gx-arrive-store", suggestedUserEmail: "alice@example.com",
                credentialProvider: ConnectionCredentials.anonymous,
                redirectURL: URL(string: "groceryexpress://ifttt/callback")!),
            controllerConfiguration: ConnectButtonController.Configuration(), locale: Locale(identifier: "en"))
        #expect(base != production)
    }
}
