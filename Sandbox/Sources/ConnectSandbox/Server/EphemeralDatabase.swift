import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The private temporary folder of an ephemeral sandbox (``SandboxConfiguration/ephemeral``): made with `mkdtemp`
/// (mode 0700) under `$TMPDIR` (else `/tmp`), holding `sandbox.sqlite` and its `-wal`/`-shm`, and removed with all
/// of them when the sandbox stops.
struct EphemeralDatabase: Sendable {
    /// The folder.
    let directory: String
    /// The database file inside it.
    var databasePath: String { directory + "/sandbox.sqlite" }

    /// Makes a new folder.
    ///
    /// - Throws: ``SandboxError/database(path:message:)`` naming the temporary directory when it cannot be made.
    init(environment: [String: String] = ProcessInfo.processInfo.environment) throws(SandboxError) {
        var base = environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/ifttt-connect-XXXXXX").utf8CString)
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!) != nil }
        guard made else {
            throw .database(
                path: base,
                message: "cannot create a private temporary folder for an ephemeral database: "
                    + String(cString: strerror(errno)))
        }
        directory = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Removes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
