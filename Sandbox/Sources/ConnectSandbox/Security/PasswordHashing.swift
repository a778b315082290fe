import Crypto
import Foundation
import _CryptoExtras

/// Salted password hashes for the sandbox's sign-in pages (IFTTT users and partner accounts): PBKDF2-HMAC-SHA256
/// (RFC 8018) with a random 16-byte salt, stored as `pbkdf2-sha256$<iterations>$<salt hex>$<hash hex>`, compared
/// in constant time. The key derivation is swift-crypto's (`_CryptoExtras`, BoringSSL underneath).
///
/// A stored value is read as a hash only within bounds (``iterationLimits``, a salt of 8 to 64 bytes, a 32-byte
/// hash), so no stored value can make a wrong guess cost more than a hash at the largest allowed count; anything
/// else is not a hash and never matches. Passwords typed on the pages are always hashed, whatever they look like
/// (``make(_:iterations:)``); only a seed file may carry a hash (``storable(_:)``: a re-imported export).
enum PasswordHash {
    /// The iteration count of new hashes. A stored hash keeps the count it was made with, so this can grow.
    static let iterations = 4096

    /// The iteration counts a stored hash may name: a larger count would let one stored value make every wrong
    /// sign-in for it expensive (10,000,000 iterations cost seconds of CPU per guess).
    static let iterationLimits = 1...100_000

    /// The stored form's prefix.
    static let scheme = "pbkdf2-sha256"

    /// A new salted hash of `password`; its text is never read as a hash.
    static func make(_ password: String, iterations: Int = iterations) -> String {
        var generator = SystemRandomNumberGenerator()
        let salt = (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let derived = pbkdf2(password: Array(password.utf8), salt: salt, iterations: iterations, length: 32)
        return "\(scheme)$\(iterations)$\(hex(salt))$\(hex(derived))"
    }

    /// A seed file's `password` as stored: a hash within bounds stays as it is (a re-imported export), anything else
    /// is a plain-text password and is hashed.
    static func storable(_ password: String) -> String {
        isHash(password) ? password : make(password)
    }

    /// Whether `stored` is a hash within bounds, as ``make(_:iterations:)`` makes them.
    static func isHash(_ stored: String) -> Bool {
        parse(stored) != nil
    }

    /// Whether `password` matches `stored`. A stored value that is not a hash within bounds never matches.
    static func verify(_ password: String, against stored: String) -> Bool {
        guard let (iterations, salt, expected) = parse(stored) else { return false }
        let derived = pbkdf2(password: Array(password.utf8), salt: salt, iterations: iterations, length: expected.count)
        // SymmetricKey's equality takes the same time wherever the bytes differ.
        return SymmetricKey(data: derived) == SymmetricKey(data: expected)
    }

    private static func parse(_ stored: String) -> (Int, [UInt8], [UInt8])? {
        let parts = stored.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == scheme, parts[1].count <= 7, parts[1].allSatisfy(\.isWholeNumber),
            let iterations = Int(parts[1]),
            iterationLimits.contains(iterations),
            let salt = bytes(hex: parts[2]), (8...64).contains(salt.count),
            let hash = bytes(hex: parts[3]), hash.count == 32
        else { return nil }
        return (iterations, salt, hash)
    }

    /// PBKDF2 with HMAC-SHA256 as the PRF (RFC 8018 §5.2).
    static func pbkdf2(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        // The checked variant refuses fewer than 210,000 rounds; the sandbox's hashes use ``iterations`` and
        // existing ones must stay readable, and ``iterationLimits`` bounds what a stored value may ask for.
        guard
            let key = try? KDF.Insecure.PBKDF2.deriveKey(
                from: password, salt: salt, using: .sha256, outputByteCount: length,
                unsafeUncheckedRounds: iterations)
        else { return [] }
        return key.withUnsafeBytes { Array($0) }
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    private static func bytes(hex: Substring) -> [UInt8]? {
        guard hex.count % 2 == 0, hex.count <= 256 else { return nil }
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
}
