import Foundation
import GRDB
import NIOConcurrencyHelpers

/// Read-only connections on which `GET /v1/location_events` reads its page on the calling task's own thread.
///
/// An async read of the `DatabasePool` waits for a reader on one queue and runs on another, and the hops cost more
/// than reading a page. These connections are taken without ever waiting: a request takes an idle one, or opens
/// one while fewer than ``maximum`` are open, and otherwise falls back to the pool's async read. So no thread ever
/// blocks on a connection another request holds (a blocking wait for a pool connection on the server's threads
/// can hang the server under load). A read is one short read transaction on a WAL snapshot, which never waits for
/// the writer.
final class LocationEventReaders: Sendable {
    /// The most connections open at once (the machine's cores are the useful bound; a few more cover preemption).
    static let maximum = max(2, min(8, ProcessInfo.processInfo.activeProcessorCount + 2))

    private struct State {
        var idle: [DatabaseQueue] = []
        var open = 0
    }

    private enum Checkout {
        case idle(DatabaseQueue)
        case openNew
        case busy
    }

    /// The database file; `nil` for an in-memory database, which has no second connection to open.
    private let path: String?
    private let state = NIOLockedValueBox(State())

    /// Readers of the database file at `path` (`nil`: none, every read falls back).
    init(path: String?) {
        self.path = path
    }

    /// `body` run in a read transaction on one of these connections, on this thread; `nil` when none is free (or
    /// none could be opened): the caller then reads through the pool.
    func read<T>(_ body: (Database) throws -> T) throws -> T? {
        guard let path else { return nil }
        let checkout: Checkout = state.withLockedValue { state in
            if let queue = state.idle.popLast() { return .idle(queue) }
            guard state.open < Self.maximum else { return .busy }
            state.open += 1
            return .openNew
        }
        let queue: DatabaseQueue
        switch checkout {
        case .idle(let idle):
            queue = idle
        case .busy:
            return nil
        case .openNew:
            do {
                var configuration = Configuration()
                configuration.readonly = true
                configuration.busyMode = .timeout(5)
                configuration.label = "ConnectSandbox.locationEventReader"
                queue = try DatabaseQueue(path: path, configuration: configuration)
            } catch {
                state.withLockedValue { $0.open -= 1 }
                return nil
            }
        }
        defer { state.withLockedValue { $0.idle.append(queue) } }
        return try queue.read(body)
    }
}
