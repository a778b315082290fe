import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system call the journal writes its bytes with: `write(2)` by default; tests inject a failing one (a full
/// disk) to prove what the store does when a write fails.
struct JournalWrites: Sendable {
    /// Writes up to `count` bytes to `descriptor` (open on `path`); returns the bytes written, or `-1` with `errno`
    /// set.
    var writeBytes: @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ path: String) -> Int

    /// The system's `write(2)`.
    static let system = JournalWrites { descriptor, bytes, count, _ in write(descriptor, bytes, count) }
}

/// The journal's files: `events.journal` (append-only) and `events.lock` (for `flock`).
// @unchecked: its one owner, the event store, creates it in its initializer and uses it only on LocationEngineActor.
final class JournalFile: @unchecked Sendable {
    let journalPath: String
    let lockPath: String
    let directoryPath: String
    /// Why nothing can be written (a read-only file system, a directory the app may not write), or `nil`. The
    /// journal can still be read, so what it holds can still be uploaded.
    let readOnlyReason: String?
    /// `-1` when the lock file cannot be opened at all (a read-only directory without one): nobody can write
    /// there, so reading needs no lock.
    private var lockDescriptor: Int32
    private var appendDescriptor: Int32 = -1
    private let writes: JournalWrites

    /// Opens the files; `readOnly` opens them for reading only, as a read-only file system forces.
    init(directory: URL, readOnly: Bool = false, writes: JournalWrites = .system) throws(LocationError) {
        self.writes = writes
        directoryPath = directory.path
        journalPath = directory.appendingPathComponent("events.journal").path
        lockPath = directory.appendingPathComponent("events.lock").path
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: directoryPath, isDirectory: &isDirectory) || !isDirectory.boolValue {
            do {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true,
                    attributes: [.posixPermissions: 0o700])
            } catch {
                throw LocationError(.storage, "cannot create the store directory (\(Self.describe(error)))")
            }
        }
        let descriptor = readOnly ? -1 : open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        if descriptor >= 0 {
            lockDescriptor = descriptor
            readOnlyReason = nil
            Self.protect(directory: directory, files: [lockPath])
            return
        }
        let failure = errno
        guard readOnly || [EROFS, EACCES, EPERM].contains(failure) else {
            throw Self.posixError("cannot open the lock file")
        }
        // A directory the app cannot write: read what is there, write nothing.
        lockDescriptor = open(lockPath, O_RDONLY | O_CLOEXEC)
        readOnlyReason =
            readOnly
            ? "the store was opened read-only"
            : failure == EROFS
                ? "the store's file system is read-only (EROFS)"
                : "the store's directory cannot be written (errno \(failure))"
    }

    deinit {
        if appendDescriptor >= 0 { close(appendDescriptor) }
        if lockDescriptor >= 0 { close(lockDescriptor) }
    }

    /// The error for a write to a read-only store.
    private func refuseWrite() throws(LocationError) {
        if let readOnlyReason {
            throw LocationError(
                .readOnly,
                "\(readOnlyReason): new crossings cannot be recorded; what it holds is still read and uploaded")
        }
    }

    /// Appends one record with a single write, then syncs it.
    func append(_ record: Data) throws(LocationError) {
        try refuseWrite()
        try withLock(LOCK_SH) { () throws(LocationError) in
            try openForAppendIfNeeded()
            try writeAll(appendDescriptor, record, path: journalPath)
            try Self.sync(appendDescriptor)
        }
    }

    /// The whole journal (empty when it does not exist yet).
    func read() throws(LocationError) -> Data {
        try withLock(LOCK_SH) { () throws(LocationError) in
            guard FileManager.default.fileExists(atPath: journalPath) else { return Data() }
            do {
                return try Data(contentsOf: URL(fileURLWithPath: journalPath))
            } catch {
                throw LocationError(.storage, "cannot read the journal (\(Self.describe(error)))")
            }
        }
    }

    /// Replaces the journal atomically with `transform(current contents)`.
    func rewrite(_ transform: (Data) throws(LocationError) -> Data) throws(LocationError) {
        try refuseWrite()
        try withLock(LOCK_EX) { () throws(LocationError) in
            let current: Data
            if FileManager.default.fileExists(atPath: journalPath) {
                do { current = try Data(contentsOf: URL(fileURLWithPath: journalPath)) } catch {
                    throw LocationError(.storage, "cannot read the journal (\(Self.describe(error)))")
                }
            } else {
                current = Data()
            }
            let output = try transform(current)
            let temporary = journalPath + ".tmp"
            let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw Self.posixError("cannot create the compacted journal") }
            do throws(LocationError) {
                _ = fchmod(fd, 0o600)
                try writeAll(fd, output, path: temporary)
                try Self.sync(fd)
                close(fd)
            } catch {
                close(fd)
                unlink(temporary)
                throw error
            }
            guard rename(temporary, journalPath) == 0 else {
                let error = Self.posixError("cannot replace the journal")
                unlink(temporary)
                throw error
            }
            Self.protect(directory: nil, files: [journalPath])
            let directoryDescriptor = open(directoryPath, O_RDONLY | O_CLOEXEC)
            if directoryDescriptor >= 0 {
                _ = fsync(directoryDescriptor)
                close(directoryDescriptor)
            }
            if appendDescriptor >= 0 {
                close(appendDescriptor)
                appendDescriptor = -1
            }
        }
    }

    private func openForAppendIfNeeded() throws(LocationError) {
        if appendDescriptor >= 0 {
            // Compaction in another process may have replaced the file: append to the current one.
            var opened = stat()
            var named = stat()
            if fstat(appendDescriptor, &opened) == 0, stat(journalPath, &named) == 0,
                opened.st_ino == named.st_ino, opened.st_dev == named.st_dev
            {
                return
            }
            close(appendDescriptor)
            appendDescriptor = -1
        }
        let created = !FileManager.default.fileExists(atPath: journalPath)
        appendDescriptor = open(journalPath, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard appendDescriptor >= 0 else { throw Self.posixError("cannot open the journal") }
        if created {
            _ = fchmod(appendDescriptor, 0o600)
            Self.protect(directory: nil, files: [journalPath])
        }
    }

    private func withLock<T>(_ operation: Int32, _ body: () throws(LocationError) -> T) throws(LocationError) -> T {
        guard lockDescriptor >= 0 else { return try body() }
        while flock(lockDescriptor, operation) != 0 {
            guard errno == EINTR else { throw Self.posixError("cannot lock the store") }
        }
        defer { _ = flock(lockDescriptor, LOCK_UN) }
        return try body()
    }

    private func writeAll(_ fd: Int32, _ data: Data, path: String) throws(LocationError) {
        var failure: LocationError?
        let writeBytes = writes.writeBytes
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            guard var pointer = raw.baseAddress else { return }
            var remaining = raw.count
            while remaining > 0 {
                let written = writeBytes(fd, pointer, remaining, path)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = Self.posixError("cannot write the journal")
                    return
                }
                remaining -= written
                pointer += written
            }
        }
        if let failure { throw failure }
    }

    private static func sync(_ fd: Int32) throws(LocationError) {
        #if canImport(Darwin)
        if fcntl(fd, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(fd) == 0 else { throw posixError("cannot sync the journal") }
    }

    private static func posixError(_ what: String) -> LocationError {
        LocationError(.storage, "\(what) (errno \(errno))")
    }

    private static func describe(_ error: any Error) -> String {
        let ns = error as NSError
        return "\(ns.domain) \(ns.code)"
    }

    /// File protection on Apple devices; backup exclusion for the directory.
    private static func protect(directory: URL?, files: [String]) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS) || IFTTT_APPLE_STUB_CHECK
        for path in files + (directory.map { [$0.path] } ?? []) {
            try? FileManager.default.setAttributes(
                [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication],
                ofItemAtPath: path)
        }
        #endif
        #if canImport(Darwin) || IFTTT_APPLE_STUB_CHECK
        if var url = directory {
            var values = URLResourceValues()
            values.isExcludedFromBackup = true
            try? url.setResourceValues(values)
        }
        #endif
    }
}
