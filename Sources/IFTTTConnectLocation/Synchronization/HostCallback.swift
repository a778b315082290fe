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

/// The serial queue the SDK background task's host closures run on, as in 2.8.
let backgroundProcessQueue = DispatchQueue(label: "com.ifttt.backgroundprocess.developer_closure")

/// A host app's closure, typed as 2.8 typed it (not `@Sendable`), always called on one serial queue.
///
/// ConnectSDK-iOS 2.8 ran its synchronization on the main thread and called completions there, and ran the
/// background task's closures on one serial queue; apps wrote them for those queues. Calling each closure only
/// on its queue keeps that contract, which is why the box may be handed between threads although the closure
/// is not `Sendable`.
// @unchecked: the closure is not Sendable (2.8's type) but is only ever called on its one serial queue.
struct HostCallback<Argument: Sendable>: @unchecked Sendable {
    let body: (Argument) -> Void
    let queue: DispatchQueue

    init(_ body: @escaping (Argument) -> Void, on queue: DispatchQueue) {
        self.body = body
        self.queue = queue
    }

    /// A `Sendable` closure that calls this one as ``callAsFunction(_:)`` does.
    var closure: @Sendable (Argument) -> Void {
        let callback = self
        return { argument in callback(argument) }
    }

    /// Calls the closure on its queue: at once when the caller already runs on the main queue and that is the
    /// closure's queue, asynchronously otherwise.
    func callAsFunction(_ argument: Argument) {
        if queue === DispatchQueue.main, isOnMainQueue() { return body(argument) }
        let callback = self
        queue.async { callback.body(argument) }
    }
}

extension HostCallback where Argument == Void {
    /// A `Sendable` closure without argument that calls this one as ``callAsFunction(_:)`` does.
    var voidClosure: @Sendable () -> Void {
        let callback = self
        return { callback(()) }
    }
}
