import Foundation

/// State shared between threads, reachable only while its lock is held: the package's one lock type.
///
/// Every class of this package that shares mutable state between threads keeps it in one `Locked`, as a single
/// value (usually a private `State` struct), and touches it only inside ``withLock(_:)``:
///
/// ```swift
/// private let state = Locked(State())
/// state.withLock { $0.count += 1 }
/// ```
///
/// It is `Sendable` only when `State` is: the lock serializes access, and a `Sendable` state can be handed out
/// of ``withLock(_:)`` without sharing anything unprotected. The compiler checks that for every user; no state
/// in the package needs an unchecked variant (the redirect registry's weak owners are `AnyObject & Sendable`).
///
/// A closure passed to ``withLock(_:)`` must not block and must not call out to code that could take the same
/// lock (locks here are not reentrant).
package final class Locked<State> {
    private let lock = NSLock()
    private var state: State

    /// Creates the box holding `state`.
    ///
    /// - Parameter state: The initial value.
    package init(_ state: State) { self.state = state }

    /// Runs `body` with exclusive access to the state and returns what it returns.
    ///
    /// - Parameter body: Reads or changes the state; runs while the lock is held.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws (the lock is released first).
    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}

/// The lock serializes every access to the state, and the state is `Sendable`, so nothing unprotected is shared.
extension Locked: @unchecked Sendable where State: Sendable {}
