import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension LoopbackRedirectReceiver {
    /// One connection, owned by the serving thread (no other thread touches it, so it needs no lock).
    final class Client {
        enum Phase {
            case reading, verifying
            case writing(finishes: Bool)
        }
        let id: Int
        let fd: Int32
        let peer: LoopbackEndpoint
        /// The user owning the client's socket, when the system says.
        let owner: UInt32?
        var deadline: UInt64
        var phase = Phase.reading
        var input: [UInt8] = []
        var output: [UInt8] = []
        var sent = 0
        var closed = false

        init(id: Int, fd: Int32, peer: LoopbackEndpoint, owner: UInt32?, deadline: UInt64) {
            self.id = id
            self.fd = fd
            self.peer = peer
            self.owner = owner
            self.deadline = deadline
        }

        var isReading: Bool {
            if case .reading = phase { return true }
            return false
        }

        /// Whether an answer is being written.
        var isWriting: Bool {
            if case .writing = phase { return true }
            return false
        }

        /// What the per-peer limit counts this connection by.
        var peerKey: ConnectionAdmission.PeerKey { owner.map { .user($0) } ?? .address(peer.address) }

        var occupant: ConnectionAdmission.Occupant {
            .init(id: id, peer: peerKey, isReading: isReading, received: input.count)
        }

        func close() {
            guard !closed else { return }
            closed = true
            _ = Glibc_close(fd)
        }

        /// Closes with a reset: nothing is owed to a connection pushed out or cut at its deadline, and the
        /// receiver's side keeps no TIME_WAIT entry for it.
        func abort() {
            guard !closed else { return }
            LoopbackRedirectReceiver.reset(fd)
            close()
        }
    }

    /// Sets `SO_LINGER` to zero, so that closing `fd` sends a reset.
    static func reset(_ fd: Int32) {
        var immediately = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &immediately, socklen_t(MemoryLayout<linger>.size))
    }
}

/// `close(2)`, callable from a type with its own `close()`.
private func Glibc_close(_ fd: Int32) -> Int32 {
    close(fd)
}
