import ArgumentParser
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a command writes its result to (a user token): checked before any network work, so that a result is never
/// obtained and then lost, and never replaced without `--force`.
struct OutputFile {
    /// The path as given.
    let path: String
    /// The option that named it, for messages (`--output`, `--token-file`).
    let option: String

    /// Throws a usage error naming the option and path unless the file can be written: an existing file only with
    /// `force` (and only a regular file this user may write), a new one in a directory this user may write (the
    /// nearest existing one when folders are missing; they are created at ``write(_:)``).
    func check(force: Bool) throws {
        var status = stat()
        if lstat(path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFREG else {
                throw ValidationError("\(option) \(path) exists and is not a regular file")
            }
            guard force else { throw ValidationError("\(option) \(path) exists; give --force to replace it") }
            guard access(path, W_OK) == 0 else {
                throw ValidationError("\(option) \(path) cannot be written: \(Self.reason(errno))")
            }
            return
        }
        var directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        while lstat(directory.path, &status) != 0, directory.path != "/" { directory.deleteLastPathComponent() }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw ValidationError("\(option) \(path): \(directory.path) is not a directory")
        }
        guard access(directory.path, W_OK | X_OK) == 0 else {
            throw ValidationError(
                "\(option) \(path): the directory \(directory.path) cannot be written: \(Self.reason(errno))")
        }
    }

    /// Writes `secret` and a newline. A new file gets mode 0600 (missing folders 0700); a file replaced with
    /// `--force` keeps its mode (a warning says so when others may read it).
    ///
    /// - Throws: `ValidationError` naming the option and the path.
    func write(_ secret: String) throws {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ValidationError("\(option) \(path): cannot create the directory \(directory.path)")
        }
        var status = stat()
        let existed = lstat(path, &status) == 0
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ValidationError("\(option) \(path) cannot be written: \(Self.reason(errno))")
        }
        defer { close(descriptor) }
        let bytes = Array((secret + "\n").utf8)
        let written = bytes.withUnsafeBytes { writeBytes(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(descriptor) == 0 else {
            throw ValidationError("\(option) \(path) could not be written completely: \(Self.reason(errno))")
        }
        if existed, status.st_mode & 0o077 != 0 {
            warn(
                "warning: \(option) \(path) kept its mode \(String(status.st_mode & 0o777, radix: 8)): other users may "
                    + "read the token (chmod 600 it)")
        }
    }

    /// The system's sentence for `code`, e.g. "Permission denied".
    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }
}

/// `write(2)` under a name that does not clash with the method.
private func writeBytes(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
