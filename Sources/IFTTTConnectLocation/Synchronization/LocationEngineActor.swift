import Foundation

/// The one isolation domain of the location engine.
///
/// The synchronizer's shell, the monitoring session, the event store, the uploader and the simulated region
/// monitor all run on this actor, so a region event is handled, stored and uploaded without leaving it except to
/// wait: for the platform (CoreLocation's delegate queue), for a timer, or for the network. Calls between the
/// engine's parts are plain synchronous calls; what can suspend is named in the "Synchronization" article's
/// walk-through of a crossing.
@_spi(Sandbox) @globalActor public actor LocationEngineActor {
    /// The shared instance the attribute refers to.
    public static let shared = LocationEngineActor()

    private init() {}
}
