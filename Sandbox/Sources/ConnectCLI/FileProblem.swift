import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be read, in the system's words ("No such file or directory", "Permission denied", "Is a
/// directory"), for messages that name the file: Foundation's own errors say "NSCocoaErrorDomain error 256".
enum FileProblem {
    static func reading(_ path: String) -> String {
        var status = stat()
        if stat(path, &status) != 0 { return String(cString: strerror(errno)) }
        if status.st_mode & S_IFMT == S_IFDIR { return String(cString: strerror(EISDIR)) }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        if descriptor < 0 { return String(cString: strerror(errno)) }
        close(descriptor)
        return "it could not be read"
    }

    /// Why a directory could not be written.
    static func writing(_ path: String) -> String {
        var status = stat()
        var directory = URL(fileURLWithPath: path)
        while stat(directory.path, &status) != 0, directory.path != "/" { directory.deleteLastPathComponent() }
        if status.st_mode & S_IFMT != S_IFDIR { return "\(directory.path) is not a directory" }
        if access(directory.path, W_OK | X_OK) != 0 { return "\(directory.path): \(String(cString: strerror(errno)))" }
        return "it could not be written"
    }
}
