import Foundation
import NIOConcurrencyHelpers

/// Salted password hashes for the sandbox's sign-in pages (IFTTT users and partner accounts): PBKDF2-HMAC-SHA256
/// (RFC 8018) with a random 16-byte salt, stored as `pbkdf2-sha256$<iterations>$<salt hex>$<hash hex>`, and a
/// comparison that takes the same time wherever the bytes differ.
///
/// SHA-256 is implemented here (FIPS 180-4) because the sandbox uses Foundation only for this and CryptoKit does not
/// exist on Linux; the tests check it against the published test vectors.
enum PasswordHash {
    /// The iteration count of new hashes. A stored hash keeps the count it was made with, so this can grow.
    static let iterations = 4096

    /// The stored form's prefix.
    static let scheme = "pbkdf2-sha256"

    /// A new salted hash of `password`.
    static func make(_ password: String, iterations: Int = iterations) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let derived = pbkdf2(password: Array(password.utf8), salt: salt, iterations: iterations, length: 32)
        return "\(scheme)$\(iterations)$\(hex(salt))$\(hex(derived))"
    }

    /// Whether `stored` is a hash made by ``make(_:iterations:)``.
    static func isHash(_ stored: String) -> Bool {
        parse(stored) != nil
    }

    /// Whether `password` matches `stored`. A stored value that is not a hash never matches.
    static func verify(_ password: String, against stored: String) -> Bool {
        guard let (iterations, salt, expected) = parse(stored) else { return false }
        let derived = pbkdf2(password: Array(password.utf8), salt: salt, iterations: iterations, length: expected.count)
        return constantTimeEqual(derived, expected)
    }

    /// Compares two byte arrays in time that depends only on their lengths.
    static func constantTimeEqual(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in 0..<a.count { difference |= a[i] ^ b[i] }
        return difference == 0
    }

    private static func parse(_ stored: String) -> (Int, [UInt8], [UInt8])? {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == scheme, let iterations = Int(parts[1]),
            (1...10_000_000).contains(iterations),
            let salt = bytes(hex: parts[2]), let hash = bytes(hex: parts[3]), !hash.isEmpty
        else { return nil }
        return (iterations, salt, hash)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var out = ""
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return out
    }

    private static func bytes(hex: Substring) -> [UInt8]? {
        guard hex.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            out.append(byte)
            index = next
        }
        return out
    }

    // MARK: PBKDF2-HMAC-SHA256

    /// PBKDF2 with HMAC-SHA256 as the PRF (RFC 8018 §5.2).
    ///
    /// HMAC's inner and outer states after the key block are the same for every iteration, so they are computed once;
    /// each further iteration is then two compressions of one prepared block, without allocations.
    static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        var key = password.count > 64 ? SHA256.hash(password) : password
        key += [UInt8](repeating: 0, count: 64 - key.count)
        let innerState = SHA256.state(afterBlock: key.map { $0 ^ 0x36 })
        let outerState = SHA256.state(afterBlock: key.map { $0 ^ 0x5c })
        var output: [UInt8] = []
        var block: UInt32 = 1
        while output.count < length {
            let first = hmacSHA256(
                key: password,
                message: salt + [
                    UInt8(block >> 24), UInt8(block >> 16 & 0xff), UInt8(block >> 8 & 0xff), UInt8(block & 0xff),
                ])
            var u = [UInt32](repeating: 0, count: 8)
            for j in 0..<8 {
                u[j] =
                    UInt32(first[j * 4]) << 24 | UInt32(first[j * 4 + 1]) << 16 | UInt32(first[j * 4 + 2]) << 8
                    | UInt32(first[j * 4 + 3])
            }
            var t = u
            if iterations > 1 {
                // One 64-byte block: a 32-byte message after a 64-byte key block, padded (0x80, zeros, 768 bits).
                var message = [UInt32](repeating: 0, count: 16)
                message[8] = 0x8000_0000
                message[15] = (64 + 32) * 8
                var state = [UInt32](repeating: 0, count: 8)
                message.withUnsafeMutableBufferPointer { m in
                    state.withUnsafeMutableBufferPointer { st in
                        u.withUnsafeMutableBufferPointer { uu in
                            t.withUnsafeMutableBufferPointer { tt in
                                for _ in 1..<iterations {
                                    for j in 0..<8 {
                                        m[j] = uu[j]
                                        st[j] = innerState[j]
                                    }
                                    SHA256.compress(state: st, block: UnsafeBufferPointer(m))
                                    for j in 0..<8 {
                                        m[j] = st[j]
                                        st[j] = outerState[j]
                                    }
                                    SHA256.compress(state: st, block: UnsafeBufferPointer(m))
                                    for j in 0..<8 {
                                        uu[j] = st[j]
                                        tt[j] ^= st[j]
                                    }
                                }
                            }
                        }
                    }
                }
            }
            for word in t {
                output += [UInt8(word >> 24), UInt8(word >> 16 & 0xff), UInt8(word >> 8 & 0xff), UInt8(word & 0xff)]
            }
            block += 1
        }
        return Array(output.prefix(length))
    }

    /// HMAC-SHA256 (RFC 2104).
    static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var key = key.count > 64 ? SHA256.hash(key) : key
        key += [UInt8](repeating: 0, count: 64 - key.count)
        var inner = SHA256()
        inner.update(key.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(key.map { $0 ^ 0x5c })
        outer.update(inner.finish())
        return outer.finish()
    }
}

/// SHA-256 (FIPS 180-4), incremental.
struct SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    private var h: [UInt32] = [
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
    ]
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    /// The digest of `bytes`.
    static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var sha = SHA256()
        sha.update(bytes)
        return sha.finish()
    }

    mutating func update(_ bytes: [UInt8]) {
        length &+= UInt64(bytes.count)
        pending += bytes
        var offset = 0
        while pending.count - offset >= 64 {
            compress(pending, at: offset)
            offset += 64
        }
        if offset > 0 { pending.removeFirst(offset) }
    }

    /// The digest; the value is spent afterwards.
    mutating func finish() -> [UInt8] {
        let bits = length &* 8
        var tail: [UInt8] = [0x80]
        while (pending.count + tail.count) % 64 != 56 { tail.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift)))
        }
        pending += tail
        var offset = 0
        while offset < pending.count {
            compress(pending, at: offset)
            offset += 64
        }
        pending = []
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for word in h {
            out += [UInt8(word >> 24), UInt8(word >> 16 & 0xff), UInt8(word >> 8 & 0xff), UInt8(word & 0xff)]
        }
        return out
    }

    /// The state after compressing one 64-byte block from the initial state.
    static func state(afterBlock bytes: [UInt8]) -> [UInt32] {
        var sha = SHA256()
        sha.compress(bytes, at: 0)
        return sha.h
    }

    private mutating func compress(_ data: [UInt8], at offset: Int) {
        var block = [UInt32](repeating: 0, count: 16)
        for i in 0..<16 {
            let b = offset + i * 4
            block[i] =
                UInt32(data[b]) << 24 | UInt32(data[b + 1]) << 16 | UInt32(data[b + 2]) << 8 | UInt32(data[b + 3])
        }
        h.withUnsafeMutableBufferPointer { state in
            block.withUnsafeBufferPointer { Self.compress(state: state, block: $0) }
        }
    }

    /// One SHA-256 compression of the 16 big-endian words of `block` into the 8 words of `state`.
    static func compress(state h: UnsafeMutableBufferPointer<UInt32>, block: UnsafeBufferPointer<UInt32>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            for i in 0..<16 { w[i] = block[i] }
            for i in 16..<64 {
                let x = w[i - 15]
                let y = w[i - 2]
                let s0 = (x >> 7 | x << 25) ^ (x >> 18 | x << 14) ^ (x >> 3)
                let s1 = (y >> 17 | y << 15) ^ (y >> 19 | y << 13) ^ (y >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            k.withUnsafeBufferPointer { k in
                var a = h[0]
                var b = h[1]
                var c = h[2]
                var d = h[3]
                var e = h[4]
                var f = h[5]
                var g = h[6]
                var hh = h[7]
                for i in 0..<64 {
                    let s1 = (e >> 6 | e << 26) ^ (e >> 11 | e << 21) ^ (e >> 25 | e << 7)
                    let ch = (e & f) ^ (~e & g)
                    let t1 = hh &+ s1 &+ ch &+ k[i] &+ w[i]
                    let s0 = (a >> 2 | a << 30) ^ (a >> 13 | a << 19) ^ (a >> 22 | a << 10)
                    let maj = (a & b) ^ (a & c) ^ (b & c)
                    let t2 = s0 &+ maj
                    hh = g
                    g = f
                    f = e
                    e = d &+ t1
                    d = c
                    c = b
                    b = a
                    a = t1 &+ t2
                }
                h[0] &+= a
                h[1] &+= b
                h[2] &+= c
                h[3] &+= d
                h[4] &+= e
                h[5] &+= f
                h[6] &+= g
                h[7] &+= hh
            }
        }
    }
}
/// Refuses sign-in attempts for an identifier after too many failures: after ``maximumFailures`` wrong passwords
/// within ``window``, every attempt for that identifier (even with the right password) is refused until the window
/// of the first failure has passed. In memory, per sandbox process.
final class SignInThrottle: Sendable {
    /// Failures allowed within ``window``.
    static let maximumFailures = 5
    /// The window, in seconds.
    static let window: TimeInterval = 15 * 60

    private let failures = NIOLockedValueBox<[String: [Date]]>([:])

    /// Whether an attempt for `identifier` may go ahead now.
    func allows(_ identifier: String, now: Date) -> Bool {
        let key = identifier.lowercased()
        return failures.withLockedValue { table in
            let recent = (table[key] ?? []).filter { now.timeIntervalSince($0) < Self.window }
            table[key] = recent.isEmpty ? nil : recent
            return recent.count < Self.maximumFailures
        }
    }

    /// Records a wrong password for `identifier`.
    func recordFailure(_ identifier: String, now: Date) {
        let key = identifier.lowercased()
        failures.withLockedValue { table in
            if table.count > 10_000 { table.removeAll() }  // bounded memory; a reset only helps a guesser briefly
            table[key, default: []].append(now)
        }
    }

    /// Forgets the failures of `identifier` (after a successful sign-in).
    func reset(_ identifier: String) {
        _ = failures.withLockedValue { $0.removeValue(forKey: identifier.lowercased()) }
    }
}
