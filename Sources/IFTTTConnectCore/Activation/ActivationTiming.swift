import Foundation

/// The pauses of the activation flow, in seconds. ``standard`` keeps the original Connect Button's pacing,
/// which leaves room for its animations; ``immediate`` has no pauses, for headless programs and tests.
@_spi(Sandbox) public struct ActivationTiming: Sendable, Hashable {
    /// The progress shown before the IFTTT app is opened when the user is not known yet. Default 1 s.
    public var appHandoffDelay: TimeInterval
    /// How long "creating your IFTTT account" is shown for a new user. Default 1.5 s.
    public var creatingAccountDuration: TimeInterval
    /// How long "going to the service" is shown before the web page opens for a new user. Default 2 s.
    public var continueToServiceDuration: TimeInterval
    /// How long the progress and checkmark are shown after an activation. Default 3.5 s.
    public var activationCompleteDuration: TimeInterval
    /// How long "disconnected" is shown before the button offers to connect again. Default 2 s.
    public var disconnectedDuration: TimeInterval
    /// How long the invalid-email message is shown. Default 2 s.
    public var invalidEmailDuration: TimeInterval
    /// The waits before each new attempt to load the Connection. Default 2, 4 and 8 s (three retries).
    public var loadRetryDelays: [TimeInterval]

    /// Creates a timing; every parameter defaults to the ``standard`` value.
    ///
    /// - Parameters:
    ///   - appHandoffDelay: Seconds before the IFTTT app opens.
    ///   - creatingAccountDuration: Seconds "creating account" is shown.
    ///   - continueToServiceDuration: Seconds "going to the service" is shown.
    ///   - activationCompleteDuration: Seconds the completed state is shown.
    ///   - disconnectedDuration: Seconds "disconnected" is shown.
    ///   - invalidEmailDuration: Seconds the invalid-email message is shown.
    ///   - loadRetryDelays: Seconds before each retry of loading the Connection.
    public init(
        appHandoffDelay: TimeInterval = 1, creatingAccountDuration: TimeInterval = 1.5,
        continueToServiceDuration: TimeInterval = 2, activationCompleteDuration: TimeInterval = 3.5,
        disconnectedDuration: TimeInterval = 2, invalidEmailDuration: TimeInterval = 2,
        loadRetryDelays: [TimeInterval] = [2, 4, 8]
    ) {
        self.appHandoffDelay = appHandoffDelay
        self.creatingAccountDuration = creatingAccountDuration
        self.continueToServiceDuration = continueToServiceDuration
        self.activationCompleteDuration = activationCompleteDuration
        self.disconnectedDuration = disconnectedDuration
        self.invalidEmailDuration = invalidEmailDuration
        self.loadRetryDelays = loadRetryDelays
    }

    /// The original Connect Button's pacing.
    public static let standard = ActivationTiming()

    /// No pauses (loading is still retried three times, at once).
    public static let immediate = ActivationTiming(
        appHandoffDelay: 0, creatingAccountDuration: 0, continueToServiceDuration: 0,
        activationCompleteDuration: 0, disconnectedDuration: 0,
        invalidEmailDuration: 0, loadRetryDelays: [0, 0, 0])

    /// `seconds` as whole milliseconds, never negative.
    static func milliseconds(_ seconds: TimeInterval) -> UInt64 {
        guard seconds.isFinite, seconds > 0 else { return 0 }
        return UInt64((seconds * 1000).rounded())
    }
}

extension Connection {
    /// The same Connection with another status.
    func withStatus(_ status: Status) -> Connection {
        (try? Connection(
            id: id, name: name, description: description, url: url, status: status, services: services,
            coverImages: coverImages, valuePropositions: valuePropositions, features: features,
            userConnection: userConnection, enabledCount: enabledCount)) ?? self
    }
}
