import Foundation

/// The activation URLs waiting behind launch URLs: each behind a random id, handed out once, until it expires.
///
/// Owned by the receiver's locked state; ids come from the system's random generator.
struct LaunchTable {
    /// The most launches waiting at once; a new one beyond that replaces the oldest.
    static let capacity = 16

    private struct Entry {
        var id: String
        var destination: URL
        var expires: UInt64
    }

    private var entries: [Entry] = []

    /// Whether `url` may be handed to a browser in a `Location` header: `http` or `https` with a host, printable
    /// ASCII only (a `URL` is percent-encoded, so nothing can end the header early).
    static func canLaunch(_ url: URL) -> Bool {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host?.isEmpty == false
        else { return false }
        return url.absoluteString.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    /// Files `destination` under a new random id (128 bits, hexadecimal) valid until `expires`; returns the id.
    mutating func add(_ destination: URL, expires: UInt64, now: UInt64) -> String {
        var generator = SystemRandomNumberGenerator()
        let id = (0..<2).map { _ in
            let text = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - text.count) + text
        }.joined()
        entries.removeAll { $0.expires <= now }
        if entries.count >= Self.capacity { entries.removeFirst() }
        entries.append(Entry(id: id, destination: destination, expires: expires))
        return id
    }

    /// The destination filed under `id` if it has not expired at `now`; it is forgotten either way.
    mutating func take(_ id: String, now: UInt64) -> URL? {
        guard let index = entries.firstIndex(where: { $0.id == id }) else { return nil }
        let entry = entries.remove(at: index)
        return entry.expires > now ? entry.destination : nil
    }
}
