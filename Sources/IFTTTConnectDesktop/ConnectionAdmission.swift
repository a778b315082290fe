/// Who may hold the loopback receiver's connections: each peer at most its share, and when every slot is taken the
/// peer holding the most makes room, so a flood from one peer can neither fill the receiver nor push out
/// another peer's connection.
///
/// A pure decision over the connections being served, oldest first; the receiver applies it at each accept.
struct ConnectionAdmission {
    /// What a peer is counted by: the user owning the client's socket when the system says, its address otherwise.
    enum PeerKey: Hashable, Sendable {
        case user(UInt32)
        case address(UInt32)
    }

    /// A connection being served.
    struct Occupant: Equatable {
        var id: Int
        var peer: PeerKey
        /// Still reading its request (a connection being verified or answered is never closed to make room).
        var isReading: Bool
        /// Bytes received so far.
        var received: Int
    }

    /// What to do with a new connection.
    enum Decision: Equatable {
        /// Serve it; nothing needs to go.
        case admit
        /// Close the connection with this id, then serve the new one.
        case evict(Int)
        /// Close the new connection: nothing may make room for it.
        case refuse
    }

    /// The most connections one peer holds.
    var perPeer: Int
    /// The most connections held in all.
    var total: Int

    /// Where a new connection from `peer` goes, given the connections served now, oldest first.
    func decide(newcomer peer: PeerKey, occupants: [Occupant]) -> Decision {
        var counts: [PeerKey: Int] = [:]
        for occupant in occupants { counts[occupant.peer, default: 0] += 1 }
        if counts[peer, default: 0] >= perPeer {
            return Self.victim(of: peer, in: occupants).map(Decision.evict) ?? .refuse
        }
        guard occupants.count >= total else { return .admit }
        // The peers holding the most connections make room first; on a tie, another peer before the newcomer's.
        let order = counts.keys.sorted { a, b in
            let (countA, countB) = (counts[a, default: 0], counts[b, default: 0])
            return countA != countB ? countA > countB : (a != peer && b == peer)
        }
        for key in order {
            if let id = Self.victim(of: key, in: occupants) { return .evict(id) }
        }
        return .refuse
    }

    /// The connection of `peer` to close: one that has sent nothing before one that has, the oldest first.
    static func victim(of peer: PeerKey, in occupants: [Occupant]) -> Int? {
        let candidates = occupants.filter { $0.peer == peer && $0.isReading }
        return (candidates.first { $0.received == 0 } ?? candidates.first)?.id
    }
}
