import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore

@Suite("Flow step to button look")
struct ButtonStepMappingTests {
    @Test(arguments: [
        (ConnectButtonStep.loading, ConnectButtonVisualState.loading),
        (.loadingFailed, .loadingFailed),
        (.initial, .connect),
        (.enterEmail(invalid: false), .enterEmail(email: "a@b.co", isInvalid: false)),
        (.enterEmail(invalid: true), .enterEmail(email: "a@b.co", isInvalid: true)),
        (.verifyingUser, .verifying),
        (.creatingAccount, .creatingAccount(email: "a@b.co")),
        (.continueToService, .continueToService),
        (.appHandoff, .connecting),
        (.waitingForRedirect, .connecting),
        (.activationComplete, .checkmark),
        (.connected, .connected),
        (.disconnecting, .disconnecting),
        (.disconnected, .disconnected),
    ])
    func everyStepHasALook(step: ConnectButtonStep, look: ConnectButtonVisualState) {
        #expect(ConnectButtonVisualState(step: step, email: "a@b.co") == look)
    }
}
