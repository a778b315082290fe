import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SandboxStore {
    /// Makes sure the database file is this user's own and private before SQLite opens it: the database holds every
    /// user token, password hash and service key (issue 30, hole 5).
    ///
    /// * Missing parent directories are created with mode 0700; a missing file is created with mode 0600, exclusively
    ///   (`O_CREAT | O_EXCL | O_NOFOLLOW`: a file or link someone else creates at the same moment makes it fail).
    /// * An existing path is **checked first, changed only after**: it must not be a symbolic link, must be a regular
    ///   file owned by the user running the sandbox, writable by nobody else (group and others), and either empty or a
    ///   SQLite database (its header). Only then are read bits for others taken away (mode 0600). The same holds for
    ///   SQLite's companion files (`-wal`, `-shm`, `-journal`) when they exist. A directory that others may write to
    ///   must have the sticky bit (as `/tmp` has), so nobody else can replace the file.
    ///
    /// - Throws: ``SandboxError/database(path:message:)`` naming what is wrong; nothing is changed then.
    static func preparePrivateFile(_ path: String) throws {
        let manager = FileManager.default
        var missing: [URL] = []
        var directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        while !manager.fileExists(atPath: directory.path), directory.path != "/" {
            missing.append(directory)
            directory = directory.deletingLastPathComponent()
        }
        for created in missing.reversed() {
            guard mkdir(created.path, 0o700) == 0 || errno == EEXIST else {
                throw SandboxError.database(
                    path: path,
                    message: "cannot create its directory \(created.path): \(String(cString: strerror(errno)))")
            }
        }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var parentStatus = stat()
        if stat(parent, &parentStatus) == 0, parentStatus.st_mode & 0o022 != 0, parentStatus.st_mode & 0o1000 == 0 {
            throw SandboxError.database(
                path: path,
                message:
                    "its directory \(parent) can be written by other users and has no sticky bit: they could replace the file"
            )
        }
        var status = stat()
        if lstat(path, &status) != 0 {
            guard errno == ENOENT else {
                throw SandboxError.database(
                    path: path, message: "cannot inspect the file: \(String(cString: strerror(errno)))")
            }
            let descriptor = open(path, O_CREAT | O_EXCL | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0o600)
            guard descriptor >= 0 else {
                throw SandboxError.database(
                    path: path, message: "cannot create the database file: \(String(cString: strerror(errno)))")
            }
            fchmod(descriptor, 0o600)
            close(descriptor)
            return
        }
        try checkOwnPrivate(path, status: status, isDatabase: true)
        for suffix in ["-wal", "-shm", "-journal"] {
            var companion = stat()
            if lstat(path + suffix, &companion) == 0 {
                try checkOwnPrivate(path + suffix, status: companion, isDatabase: false)
            }
        }
        for file in [path, path + "-wal", path + "-shm", path + "-journal"] where manager.fileExists(atPath: file) {
            // Checked above: ours, a regular file, not a link. Only now is its mode changed.
            chmod(file, 0o600)
        }
    }

    /// Throws unless `path` (its `lstat` is `status`) is a regular file of this user that nobody else can write,
    /// and, for the database itself, empty or a SQLite database.
    private static func checkOwnPrivate(_ path: String, status: stat, isDatabase: Bool) throws {
        func refuse(_ problem: String) -> SandboxError {
            .database(
                path: path, message: "\(problem); the sandbox uses only a file of its own that others cannot change")
        }
        let type = status.st_mode & S_IFMT
        if type == S_IFLNK { throw refuse("it is a symbolic link") }
        guard type == S_IFREG else { throw refuse("it is not a regular file") }
        guard status.st_uid == geteuid() else { throw refuse("it belongs to another user (uid \(status.st_uid))") }
        if status.st_mode & 0o022 != 0 {
            throw refuse("other users can write it (mode \(String(status.st_mode & 0o777, radix: 8)))")
        }
        guard isDatabase, status.st_size > 0 else { return }
        let header = FileHandle(forReadingAtPath: path).map { handle in
            defer { try? handle.close() }
            return (try? handle.read(upToCount: 16)) ?? Data()
        }
        guard header == Data("SQLite format 3\u{0}".utf8) else { throw refuse("it is not a SQLite database") }
    }
}
