import Foundation

// The async API of the controller: funnel events, the next results, and whole activations and deactivations
// without UI. It drives the same flow as the button (``ConnectButtonController/toggle()`` and the email step).
extension ConnectButtonController {
    /// A stream of funnel events, from now until the controller is released. Each call makes a new stream.
    ///
    /// - Returns: The stream.
    @_spi(Sandbox) public func events() -> AsyncStream<ActivationFunnelEvent> {
        let id = UUID()
        return AsyncStream(bufferingPolicy: .bufferingNewest(256)) { continuation in
            subscribers[id] = continuation
            continuation.onTermination = { [weak self] _ in
                Task { @MainActor in self?.subscribers[id] = nil }
            }
        }
    }

    /// Waits for the next activation result, however the flow is started.
    ///
    /// - Returns: The activation, or why it failed.
    @_spi(Sandbox) public func nextActivationResult() async -> Result<
        ConnectionActivation, ConnectButtonControllerError
    > {
        await withCheckedContinuation { activationWaiters.append($0) }
    }

    /// Waits for the next deactivation result.
    ///
    /// - Returns: The disabled Connection, or why turning it off failed.
    @_spi(Sandbox) public func nextDeactivationResult() async -> Result<Connection, ConnectButtonControllerError> {
        await withCheckedContinuation { deactivationWaiters.append($0) }
    }

    /// Runs a whole activation without UI: waits for the Connection to load, starts the flow, confirms the
    /// email step with `email` when one is needed, and returns when the redirect arrives. Cancelling the
    /// calling task cancels the flow.
    ///
    /// - Parameter email: The user's email; `nil` uses ``ConnectionConfiguration/suggestedUserEmail``.
    /// - Returns: The activation.
    /// - Throws: ``ConnectButtonControllerError``: ``ConnectButtonControllerError/unableToGetConnection`` when
    ///   the Connection cannot be loaded, ``ConnectButtonControllerError/notReady`` when a flow is running or
    ///   the Connection is already on, ``ConnectButtonControllerError/invalidEmail``, or the flow's error.
    public func connect(email: String? = nil) async throws(ConnectButtonControllerError) -> ConnectionActivation {
        try await waitUntilLoaded()
        guard case .initial = flow.step else { throw .notReady }
        let attempt = makeAttempt()
        let address = email ?? connectionConfiguration.suggestedUserEmail
        if !attempt.hasUserToken && !attempt.appInstalled && !EmailValidator.isValid(address) { throw .invalidEmail }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                activationWaiters.append(continuation)
                send(.toggle(attempt))
                if case .enterEmail = flow.step {
                    confirmedEmail = address
                    send(.emailConfirmed(address))
                }
            }
        } onCancel: {
            Task { @MainActor [weak self] in self?.cancelActivation() }
        }
        // A switch, not `result.get()`: SDKs before Swift 6's standard library declare `get()` with untyped throws.
        switch result {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }

    /// Turns the Connection off without UI and returns it.
    ///
    /// - Returns: The disabled Connection.
    /// - Throws: ``ConnectButtonControllerError/notReady`` unless connected, or the network error.
    public func disconnect() async throws(ConnectButtonControllerError) -> Connection {
        try await waitUntilLoaded()
        guard case .connected = flow.step else { throw .notReady }
        let result = await withCheckedContinuation { continuation in
            deactivationWaiters.append(continuation)
            send(.toggle(makeAttempt()))
        }
        // A switch, not `result.get()`: SDKs before Swift 6's standard library declare `get()` with untyped throws.
        switch result {
        case .success(let value): return value
        case .failure(let error): throw error
        }
    }

    private func waitUntilLoaded() async throws(ConnectButtonControllerError) {
        while true {
            switch flow.step {
            case .loading, .waitingToRetry:
                await withCheckedContinuation { loadWaiters.append($0) }
            case .loadingFailed:
                throw .unableToGetConnection
            default:
                return
            }
        }
    }
}
