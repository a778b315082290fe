import Foundation
import NIOConcurrencyHelpers
#if canImport(Glibc)
import Glibc
#else
/// Foundation's own `Process` where it does not list `/proc/self/fd` (below).
typealias TestProcess = Process
#endif

#if canImport(Glibc)

/// A child process for the tests, started with `posix_spawn`: the part of Foundation's `Process` the tests use, under
/// the same names.
///
/// Why not `Process`: on Linux, `Process.run()` lists `/proc/self/fd` to close every descriptor in the child, and it
/// copies each directory entry's whole 256-byte name field. With about 1,360 descriptors open (the sandbox tests run
/// many servers at once) the last entry sits at the end of the directory buffer, the copy reads past it, and the test
/// process crashed with "Bad pointer dereference" in `Process.run()` (seen in a CI run). Here the child closes every
/// descriptor from 3 up itself (`posix_spawn_file_actions_addclosefrom_np`), so the parent reads no directory.
final class TestProcess: @unchecked Sendable {
    // @unchecked: the configuration is set before run() on one thread; what the waiter thread changes is in `state`.

    /// The program to run.
    var executableURL: URL?
    /// Its arguments, without the program.
    var arguments: [String] = []
    /// Its environment; `nil` is ours.
    var environment: [String: String]?
    /// A `FileHandle` or a `Pipe` (its reading end); `nil` inherits ours.
    var standardInput: Any?
    /// A `FileHandle` or a `Pipe` (its writing end); `nil` inherits ours.
    var standardOutput: Any?
    /// A `FileHandle` or a `Pipe` (its writing end); `nil` inherits ours.
    var standardError: Any?
    /// Called once on the waiter thread when the process has exited.
    var terminationHandler: (@Sendable (TestProcess) -> Void)?

    /// How the process ended.
    enum TerminationReason: Sendable {
        /// It exited.
        case exit
        /// A signal ended it.
        case uncaughtSignal
    }

    private struct State {
        var pid: pid_t = 0
        var status: Int32?
        var reason: TerminationReason = .exit
    }

    private let state = NIOLockedValueBox(State())
    private let exited = DispatchSemaphore(value: 0)

    /// Thrown when the process cannot start.
    struct SpawnError: Error, CustomStringConvertible {
        let description: String
    }

    /// The process id (0 before ``run()``).
    var processIdentifier: Int32 { state.withLockedValue { $0.pid } }

    /// Whether it started and has not exited.
    var isRunning: Bool { state.withLockedValue { $0.pid != 0 && $0.status == nil } }

    /// The exit status, or the number of the signal that ended it; -1 while it runs.
    var terminationStatus: Int32 { state.withLockedValue { $0.status ?? -1 } }

    /// Whether it exited or a signal ended it (``TerminationReason/exit`` while it runs).
    var terminationReason: TerminationReason { state.withLockedValue { $0.reason } }

    /// Starts the process; a waiter thread reaps it.
    func run() throws {
        guard let path = executableURL?.path else { throw SpawnError(description: "no executableURL") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentCopies: [FileHandle] = []
        for (handle, target, childReads) in [
            (standardInput, STDIN_FILENO, true), (standardOutput, STDOUT_FILENO, false),
            (standardError, STDERR_FILENO, false),
        ] {
            let fd: Int32
            switch handle {
            case let pipe as Pipe:
                let end = childReads ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                fd = end.fileDescriptor
                parentCopies.append(end)
            case let file as FileHandle:
                fd = file.fileDescriptor
            default:
                continue
            }
            if fd < 0 {
                // FileHandle.nullDevice has no descriptor of its own.
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", childReads ? O_RDONLY : O_WRONLY, 0)
            } else {
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let environment = (self.environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw SpawnError(description: "posix_spawn \(path): \(String(cString: strerror(result)))")
        }
        // The child has its own copies of the pipe ends it uses; ours would keep a reader from seeing the end.
        for end in parentCopies { try? end.close() }
        state.withLockedValue { $0.pid = pid }
        let child = pid
        let thread = Thread { [self] in
            var status: Int32 = 0
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            // WIFEXITED / WEXITSTATUS / WTERMSIG, which Swift does not import as functions.
            let signal = status & 0x7f
            let code = signal == 0 ? (status >> 8) & 0xff : signal
            state.withLockedValue {
                $0.status = code
                $0.reason = signal == 0 ? .exit : .uncaughtSignal
            }
            exited.signal()
            terminationHandler?(self)
        }
        thread.start()
    }

    /// Blocks until the process has exited.
    func waitUntilExit() {
        guard processIdentifier != 0 else { return }
        exited.wait()
        exited.signal()  // later waiters return at once
    }

    /// Sends SIGTERM while it runs.
    func terminate() {
        let pid = state.withLockedValue { $0.status == nil ? $0.pid : 0 }
        if pid != 0 { kill(pid, SIGTERM) }
    }

    /// Sends `signal` while it runs.
    func send(_ signal: Int32) {
        let pid = state.withLockedValue { $0.status == nil ? $0.pid : 0 }
        if pid != 0 { kill(pid, signal) }
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which Swift's Glibc module does not declare.
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
        else { return nil }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()
}
#endif
