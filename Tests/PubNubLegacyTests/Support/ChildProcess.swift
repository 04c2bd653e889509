import Foundation
import PlatformSupport
import TestSupport

@testable import PubNubLegacy

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// A child process started with `posix_spawn`, for the TLS test helpers (`TestCertificateAuthority`, `TLSProxy`).
///
/// Not Foundation's `Process`: on Linux (Swift 6.3) `Process.run()` lists `/proc/self/fd` to close inherited
/// descriptors and copies each directory entry whole, reading past glibc's buffer; with the many sockets a parallel
/// suite holds open that crashed the test process (a bad pointer in `memcpy` under `Process.run()`; fixed upstream in
/// swift-corelibs-foundation pull request 5472). Here the child's standard descriptors are set by the spawn's file
/// actions, and every other descriptor is closed in the child by `posix_spawn_file_actions_addclosefrom_np` where
/// the C library has it (glibc ≥ 2.34); elsewhere only close-on-exec descriptors stay behind.
final class ChildProcess: Sendable {
    /// Where a standard descriptor of the child comes from.
    enum Source {
        /// `/dev/null`.
        case null
        /// A file, created or truncated (standard output and error).
        case file(URL)
        /// A descriptor of this process; the caller closes its own copy after the spawn.
        case descriptor(Int32)
    }

    let pid: pid_t
    /// The exit status once the child was reaped (128 + signal for a child a signal ended).
    private let exit = Locked<Int32?>(nil)

    /// Starts `arguments` (the first is looked up on `PATH` through `/usr/bin/env`).
    init(_ arguments: [String], stdin: Source = .null, stdout: Source = .null, stderr: Source = .null) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, source) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
            switch source {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .file(let url):
                posix_spawn_file_actions_addopen(&actions, target, url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .descriptor(let fd):
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        SpawnActions.closeAll(from: 3, in: &actions)
        let argv = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, "/usr/bin/env", &actions, nil, argv, environ)
        guard result == 0 else {
            throw ChildProcessError(command: arguments.joined(separator: " "), code: result)
        }
        self.pid = pid
    }

    /// A pipe whose two ends close on exec (a spawn's `adddup2` gives the child a copy without that flag); false
    /// with `errno` set when it could not be made.
    static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Whether the child still runs (reaps it when it ended).
    var isRunning: Bool { self.reap(blocking: false) == nil }

    /// Waits for the child to end; its exit status.
    @discardableResult
    func waitUntilExit() -> Int32 {
        self.reap(blocking: true) ?? -1
    }

    /// Waits for the child to end on a thread of its own; its exit status. What an async caller uses: on Linux Swift's
    /// concurrency runs every task on as many threads as there are cores, and a tool waited for there held one of
    /// them — with two tests making certificates at once, a whole run's async tests stood still (a 2-core run saw
    /// 50 s pauses, long enough for clients' own 10 s timeouts to fire in tests that hold a request).
    func exitStatus() async -> Int32 {
        // The body cannot throw.
        (try? await onOwnThread("ChildProcess.exitStatus") { self.waitUntilExit() }) ?? -1
    }

    /// Sends `signal` to the child unless it was already reaped.
    func send(_ signal: Int32) {
        self.exit.withLock { status in
            if status == nil { _ = kill(self.pid, signal) }
        }
    }

    private func reap(blocking: Bool) -> Int32? {
        self.exit.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            var result: pid_t
            repeat {
                result = waitpid(self.pid, &raw, blocking ? 0 : WNOHANG)
            } while result == -1 && errno == EINTR
            guard result == self.pid else { return nil }
            let signal = raw & 0x7F
            status = signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
            return status
        }
    }
}

/// `posix_spawn` failed.
struct ChildProcessError: Error, CustomStringConvertible {
    let command: String
    let code: Int32

    var description: String { "could not start \(self.command): \(String(cString: strerror(self.code)))" }
}
