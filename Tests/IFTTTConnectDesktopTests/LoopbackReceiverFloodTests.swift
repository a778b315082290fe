import Foundation
import Testing
@_spi(Sandbox) @testable import IFTTTConnectCore
@_spi(Sandbox) @testable import IFTTTConnectDesktop
@_spi(Sandbox) @testable import IFTTTConnectTesting

/// The receiver keeps answering while connections are flooded at it and held open: no peer takes more than its
/// share, and the real redirect is never pushed out. The flood is driven with explicit synchronization: the
/// serving loop is held after `poll` while connections queue up, and a probe request that gets its answer marks
/// the point where everything queued before it was accepted.
@Suite("Loopback receiver under a connect flood", .timeLimit(.minutes(1)))
struct LoopbackReceiverFloodTests {
    static let state = "0123456789abcdef0123456789abcdef"
    /// The address the attacker's connections come from (any 127.0.0.0/8 address reaches the receiver).
    static let attackerAddress: UInt32 = 0x7F00_0002
    /// The user the stand-in kernel says owns the attacker's sockets.
    static let attacker = UInt32(geteuid()) &+ 1

    /// Who owns a client's socket, as the kernel would say if the flood came from another user.
    static let owners: @Sendable (LoopbackEndpoint, LoopbackEndpoint) -> UInt32? = { client, _ in
        client.address == attackerAddress ? attacker : UInt32(geteuid())
    }

    /// A receiver whose serving loop `gate` can hold, with one flow waiting for `state`.
    static func receiver(gate: ServingGate, delivered: DispatchSemaphore) throws -> LoopbackRedirectReceiver {
        let registry = RedirectRegistry()
        let receiver = try LoopbackRedirectReceiver(
            path: "/cb", registry: registry, ownerOf: owners, afterPoll: gate.hook)
        let verifier = RedirectVerifier.vouching(for: "tok")
        registry.register(
            RedirectURLMatcher(redirectURL: receiver.redirectURL)!, nonce: RedirectNonce(value: state),
            verifier: verifier
        ) { _ in delivered.signal() }
        return receiver
    }

    static let redirect = "GET /cb?next_step=complete&user_token=tok&state=\(state) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// A request answered at once: once it is answered, every connection queued before it was accepted.
    static func probe(_ port: UInt16, from source: UInt32) throws {
        let probe = try LoopbackTestClient(port: port, from: source)
        probe.send("GET /elsewhere HTTP/1.1\r\n\r\n")
        let answer = try probe.readAll(timeout: .seconds(5))
        #expect(answer.hasPrefix("HTTP/1.1 404"), "the probe got \(answer.prefix(40))")
    }

    @Test func anotherUsersHeldOpenFloodDoesNotPushOutTheRealRedirect() async throws {
        // Blocking sockets and semaphores, on a thread of their own: the redirect's check is a task that needs the
        // concurrency pool.
        try await offPool {
            let gate = ServingGate()
            let delivered = DispatchSemaphore(value: 0)
            let receiver = try Self.receiver(gate: gate, delivered: delivered)
            defer { receiver.stop() }
            gate.hold()
            // The browser connects first and says nothing yet; 60 held-open connections queue up behind it.
            let real = try LoopbackTestClient(port: receiver.port)
            gate.waitUntilHeld()
            var flood = try (0..<60).map { _ in try LoopbackTestClient(port: receiver.port, from: Self.attackerAddress)
            }
            defer { for client in flood { client.shut() } }
            gate.release()
            try Self.probe(receiver.port, from: Self.attackerAddress)
            // The flood goes on: 60 more held open while the browser's connection waits.
            flood += try (0..<60).map { _ in try LoopbackTestClient(port: receiver.port, from: Self.attackerAddress) }
            try Self.probe(receiver.port, from: Self.attackerAddress)

            real.send(Self.redirect)
            let response = try real.readAll(timeout: .seconds(5))
            #expect(response.hasPrefix("HTTP/1.1 200 OK"), "the real redirect got \(response.prefix(40))")
            #expect(delivered.wait(timeout: .now() + 5) == .success)
            // The attacker kept at most its share: the rest of its connections were reset.
            let open = flood.filter { !$0.wasReset() }.count
            #expect(open <= LoopbackRedirectReceiver.maximumConnectionsPerPeer, "\(open) flood connections kept")
        }
    }

    @Test func aRequestThatArrivesWithItsConnectionIsReadBeforeTheFloodBehindIt() async throws {
        // Blocking sockets and semaphores, on a thread of their own: the redirect's check is a task that needs the
        // concurrency pool.
        try await offPool {
            let gate = ServingGate()
            let delivered = DispatchSemaphore(value: 0)
            let receiver = try Self.receiver(gate: gate, delivered: delivered)
            defer { receiver.stop() }
            gate.hold()
            // Same user, same address: the browser's request is already there when 60 idle connections queue behind it.
            let real = try LoopbackTestClient(port: receiver.port)
            real.send(Self.redirect)
            gate.waitUntilHeld()
            let flood = try (0..<60).map { _ in try LoopbackTestClient(port: receiver.port) }
            defer { for client in flood { client.shut() } }
            gate.release()
            let response = try real.readAll(timeout: .seconds(5))
            #expect(response.hasPrefix("HTTP/1.1 200 OK"), "the real redirect got \(response.prefix(40))")
            #expect(delivered.wait(timeout: .now() + 5) == .success)
        }
    }
}

/// Holds the receiver's serving loop after `poll` returns, so connections queue in the kernel meanwhile.
final class ServingGate: Sendable {
    private let held = Locked(false)
    private let arrived = DispatchSemaphore(value: 0)
    private let opened = DispatchSemaphore(value: 0)

    /// Runs on the serving thread: waits while the gate is held.
    var hook: @Sendable () -> Void {
        { [self] in
            guard held.withLock({ $0 }) else { return }
            arrived.signal()
            opened.wait()
        }
    }

    /// The next turn of the loop stops after its `poll`.
    func hold() { held.withLock { $0 = true } }

    /// Waits until the loop stopped at the gate (a connection woke it).
    func waitUntilHeld() { arrived.wait() }

    /// Lets the loop go on, and every later turn too.
    func release() {
        held.withLock { $0 = false }
        opened.signal()
    }
}

@Suite("Connection admission")
struct ConnectionAdmissionTests {
    typealias Occupant = ConnectionAdmission.Occupant
    let admission = ConnectionAdmission(perPeer: 3, total: 5)
    let you = ConnectionAdmission.PeerKey.user(1000)
    let them = ConnectionAdmission.PeerKey.user(1001)

    @Test func aPeerOverItsShareClosesItsOwnIdleConnectionFirst() {
        let occupants = [
            Occupant(id: 1, peer: them, isReading: true, received: 3),
            Occupant(id: 2, peer: you, isReading: true, received: 0),
            Occupant(id: 3, peer: them, isReading: true, received: 0),
            Occupant(id: 4, peer: them, isReading: false, received: 90),
        ]
        #expect(admission.decide(newcomer: them, occupants: occupants) == .evict(3))
        #expect(admission.decide(newcomer: you, occupants: occupants) == .admit)
    }

    @Test func whenFullThePeerHoldingTheMostMakesRoom() {
        let occupants = [
            Occupant(id: 1, peer: you, isReading: true, received: 0),
            Occupant(id: 2, peer: them, isReading: true, received: 5),
            Occupant(id: 3, peer: .address(7), isReading: true, received: 0),
            Occupant(id: 4, peer: them, isReading: true, received: 0),
            Occupant(id: 5, peer: them, isReading: false, received: 9),
        ]
        #expect(admission.decide(newcomer: you, occupants: occupants) == .evict(4))
        #expect(admission.decide(newcomer: .address(7), occupants: occupants) == .evict(4))
    }

    @Test func onATieAnotherPeerMakesRoomBeforeTheNewcomers() {
        let occupants = [
            Occupant(id: 1, peer: you, isReading: true, received: 0),
            Occupant(id: 2, peer: them, isReading: true, received: 0),
            Occupant(id: 3, peer: you, isReading: true, received: 0),
            Occupant(id: 4, peer: them, isReading: true, received: 0),
            Occupant(id: 5, peer: .address(7), isReading: true, received: 0),
        ]
        #expect(admission.decide(newcomer: you, occupants: occupants) == .evict(2))
        #expect(admission.decide(newcomer: them, occupants: occupants) == .evict(1))
    }

    @Test func connectionsBeingVerifiedAreNeverClosedToMakeRoom() {
        let busy = (1...3).map { Occupant(id: $0, peer: them, isReading: false, received: 50) }
        #expect(admission.decide(newcomer: them, occupants: busy) == .refuse)
        #expect(admission.decide(newcomer: you, occupants: busy) == .admit)
    }
}
