// The tests' child processes (the built `LegacyDemo`, `swiftc`, `tmux`, the Python peer) are started with
// `posix_spawn` here instead of Foundation's `Process`: on Linux (Swift 6.3) `Process.run()` lists `/proc/self/fd` to
// close the descriptors a child would inherit and copies each directory entry 256 bytes whole, reading past glibc's
// 32 KiB directory buffer once more descriptors are open than it holds entries of (about 1,350). Every test target
// is linked into one process and suites run in parallel — a run's first seconds hold 125 `LocalOrigin`s and 2,500
// descriptors at once — and a fresh clone's test run on 2026-12-03 crashed so (a bad pointer in `memcpy` under
// `Process.run()`; fixed upstream in swift-corelibs-foundation pull request 5472). Here the child's other
// descriptors are closed by `posix_spawn_file_actions_addclosefrom_np` (glibc ≥ 2.34; elsewhere only close-on-exec
// ones are), and nothing lists `/proc/self/fd`.

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process with the part of Foundation's `Process` interface the tests use, started with `posix_spawn`
/// (see the top of this file). Set the properties, then `run()` once. The child is reaped by a thread of its own,
/// which then calls `terminationHandler`; every member may be called from any thread.
public final class SpawnedProcess: @unchecked Sendable {
    // @unchecked: the settings are written before `run()` by the one thread that sets the process up; `status` is
    // read and written only with `condition` locked.

    /// The program to run (a file URL).
    public var executableURL: URL?
    /// The arguments after the program's path.
    public var arguments: [String]?
    /// The child's whole environment; nil: this process's.
    public var environment: [String: String]?
    /// A `Pipe` (the child gets its reading end for standard input, its writing end for output and error; this
    /// process closes that end after the spawn), a `FileHandle` (`FileHandle.nullDevice` for `/dev/null`), or nil to
    /// share this process's.
    public var standardInput: Any?
    /// The child's standard output, as `standardInput`.
    public var standardOutput: Any?
    /// The child's standard error, as `standardInput`.
    public var standardError: Any?
    /// Called once, on the reaping thread, after the child ended.
    public var terminationHandler: (@Sendable (SpawnedProcess) -> Void)?

    /// The child's process id (0 before `run()`).
    public var processIdentifier: pid_t {
        self.condition.lock()
        defer { self.condition.unlock() }
        return self.pid
    }

    private let condition = NSCondition()
    private var pid: pid_t = 0
    /// The child's exit code, or the number of the signal that ended it; nil while it runs.
    private var status: Int32?

    /// A process to set up and `run()`.
    public init() {}

    /// Starts the child; throws when it cannot be started.
    public func run() throws {
        guard let path = self.executableURL?.path else { throw SpawnedProcessError(command: "(none)", code: ENOENT) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var parentEnds: [FileHandle] = []
        for (target, source) in [(Int32(0), self.standardInput), (1, self.standardOutput), (2, self.standardError)] {
            switch source {
            case let pipe as Pipe:
                let childEnd = target == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting
                posix_spawn_file_actions_adddup2(&actions, childEnd.fileDescriptor, target)
                parentEnds.append(childEnd)
            case let handle as FileHandle where handle === FileHandle.nullDevice:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case let handle as FileHandle:
                posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target)
            default:
                break
            }
        }
        SpawnActions.closeAll(from: 3, in: &actions)
        let argv = ([path] + (self.arguments ?? [])).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let environment = self.environment ?? ProcessInfo.processInfo.environment
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in envp { free(pointer) } }
        // In a process group of its own, as Foundation's `Process` starts children.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var pid = pid_t()
        let result = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw SpawnedProcessError(command: ([path] + (self.arguments ?? [])).joined(separator: " "), code: result)
        }
        self.condition.lock()
        self.pid = pid
        self.condition.unlock()
        for end in parentEnds { try? end.close() }
        let thread = Thread { [self, pid] in self.reapWhenEnded(pid) }
        thread.name = "SpawnedProcess.reap"
        thread.start()
    }

    /// Whether the child still runs (true until the reaping thread saw it end).
    public var isRunning: Bool {
        self.condition.lock()
        defer { self.condition.unlock() }
        return self.pid != 0 && self.status == nil
    }

    /// The child's exit code, or the number of the signal that ended it (as Foundation's `Process` reports them);
    /// call after it ended.
    public var terminationStatus: Int32 {
        self.condition.lock()
        defer { self.condition.unlock() }
        guard let status = self.status else { preconditionFailure("terminationStatus of a child that has not ended") }
        return status
    }

    /// Blocks until the child ended and was reaped.
    public func waitUntilExit() {
        self.condition.lock()
        defer { self.condition.unlock() }
        while self.status == nil { self.condition.wait() }
    }

    /// Sends SIGTERM, unless the child was reaped.
    public func terminate() { self.send(SIGTERM) }

    /// Sends SIGINT, unless the child was reaped.
    public func interrupt() { self.send(SIGINT) }

    /// Sends `signal`, unless the child was reaped (its id may belong to another process by then).
    public func send(_ signal: Int32) {
        self.condition.lock()
        defer { self.condition.unlock() }
        if self.pid != 0 && self.status == nil { _ = kill(self.pid, signal) }
    }

    /// Waits for the child to end without reaping it (so `send` never signals a reused id), then reaps it under the
    /// lock and calls the handler.
    private func reapWhenEnded(_ pid: pid_t) {
        var info = siginfo_t()
        var waited: Int32
        repeat {
            waited = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
        } while waited == -1 && errno == EINTR
        self.condition.lock()
        var raw: Int32 = 0
        var reaped: pid_t
        repeat {
            reaped = waitpid(pid, &raw, 0)
        } while reaped == -1 && errno == EINTR
        let signal = raw & 0x7F
        self.status = reaped == pid ? (signal == 0 ? (raw >> 8) & 0xFF : signal) : -1
        self.condition.broadcast()
        self.condition.unlock()
        self.terminationHandler?(self)
    }
}

/// `posix_spawn` failed.
public struct SpawnedProcessError: Error, CustomStringConvertible {
    /// The command line that could not be started.
    public let command: String
    /// The `errno` value `posix_spawn` returned.
    public let code: Int32

    /// An error for `command`, which failed with `code`.
    public init(command: String, code: Int32) {
        self.command = command
        self.code = code
    }

    /// "could not start <command>: <reason>".
    public var description: String { "could not start \(self.command): \(String(cString: strerror(self.code)))" }
}

/// The close-from file action of `SpawnedProcess.run()`.
private enum SpawnActions {
    /// Adds "close every descriptor from `lowest` up" to `actions`: `posix_spawn_file_actions_addclosefrom_np` where
    /// the C library has it (glibc ≥ 2.34); elsewhere nothing, and only close-on-exec descriptors are closed.
    static func closeAll(from lowest: Int32, in actions: inout posix_spawn_file_actions_t) {
        if let closeFrom = Self.closeFrom {
            _ = closeFrom(&actions, lowest)
        }
    }

    /// `posix_spawn_file_actions_addclosefrom_np`, looked up at run time (Swift's Glibc module does not declare it).
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? =
        {
            #if canImport(Glibc)
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
            else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self
            )
            #else
            return nil
            #endif
        }()
}
