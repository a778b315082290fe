import Foundation

// How the static synchronization API meets the host app's threads: the main queue, and the host's closures
// called on the queue 2.8 called them on.

/// Whether the caller runs on the main queue (the main actor's executor). On Apple platforms that is the main
/// thread; elsewhere the main queue may be drained by another thread, so the queue is marked and asked.
func isOnMainQueue() -> Bool {
    #if canImport(Darwin)
    return Thread.isMainThread
    #else
    return DispatchQueue.getSpecific(key: mainQueueMarker) == true
    #endif
}

#if !canImport(Darwin)
/// A key set on the main queue only, created (and set) on first use.
private let mainQueueMarker: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
}()
#endif

/// Where a host app's closure runs.
enum HostCallbackPlace: Sendable {
    /// The main queue, where 2.8 called completions and event reports.
    case main
    /// The location engine's actor: one closure at a time, in order, never on the main queue, as 2.8's serial
    /// queue for the background task's closures did.
    case engine
}

/// A host app's closure, typed as 2.8 typed it (not `@Sendable`), always called in one serial place.
///
/// ConnectSDK-iOS 2.8 ran its synchronization on the main thread and called completions there, and ran the
/// background task's closures on one serial queue; apps wrote them for those places. Calling each closure only
/// in its place (the main queue, or the engine's actor, which is serial and off the main queue) keeps that contract,
/// which is why the box may be handed between threads although the closure is not `Sendable`.
// @unchecked: the closure is not Sendable (2.8's type) but is only ever called in its one serial place.
struct HostCallback<Argument: Sendable>: @unchecked Sendable {
    let body: (Argument) -> Void
    let place: HostCallbackPlace

    init(_ body: @escaping (Argument) -> Void, on place: HostCallbackPlace) {
        self.body = body
        self.place = place
    }

    /// A `Sendable` closure that calls this one as ``callAsFunction(_:)`` does.
    var closure: @Sendable (Argument) -> Void {
        let callback = self
        return { argument in callback(argument) }
    }

    /// Calls the closure in its place: at once when the caller already runs on the main queue and that is the
    /// closure's place, asynchronously otherwise.
    func callAsFunction(_ argument: Argument) {
        let callback = self
        switch place {
        case .main:
            if isOnMainQueue() { return body(argument) }
            DispatchQueue.main.async { callback.body(argument) }
        case .engine:
            Task { @LocationEngineActor in callback.body(argument) }
        }
    }
}

extension HostCallback where Argument == Void {
    /// A `Sendable` closure without argument that calls this one as ``callAsFunction(_:)`` does.
    var voidClosure: @Sendable () -> Void {
        let callback = self
        return { callback(()) }
    }
}
