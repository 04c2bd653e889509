import Foundation
import PlatformSupport
import TestSupport

@testable import PubNubLegacy

/// A TLS terminator in front of a LocalOrigin: `Scripts/tls_terminator.py serve` (Python's `ssl` module) with a
/// certificate made at test time — by default a self-signed one for `CN=localhost` (S-11), or any identity a
/// `TestCertificateAuthority` issued. One port takes TLS and plain HTTP alike (the terminator peeks at the first byte:
/// 0x16 opens a TLS handshake) and relays both to the origin, printing one line per connection: `tls`,
/// `tls-rejected` (the handshake failed with the client's alert, e.g. it refused the certificate), `tls-abandoned` (the
/// client closed the connection mid-handshake without an alert), `tls-cut` (`.cutHandshake`: the
/// terminator closed the connection inside the handshake) or `plain` (with its request line, `plainRequestLines`). The
/// test that starts it calls `stop()`, which
/// ends the process and deletes any folder the proxy made; should the test process die first, the terminator sees
/// its stdin close and does both itself.
final class TLSProxy: @unchecked Sendable {
    // @unchecked: `process` and `authority` are set in `init` and only queried after; the output is a `Locked` box.

    /// What each connection turned out to be, in accept order (as printed by the terminator).
    enum Connection: String, Sendable {
        case tls
        case tlsRejected = "tls-rejected"
        case tlsAbandoned = "tls-abandoned"
        case tlsCut = "tls-cut"
        case plain
    }

    /// What the terminator does with a TLS connection.
    enum Mode: String, Sendable {
        /// Completes the handshake and relays to the origin.
        case relay
        /// Reads the start of the ClientHello and closes the connection.
        case cutHandshake = "cut-handshake"
    }

    private let process: SpawnedProcess
    /// The write end of the terminator's stdin: closing it ends the terminator (it also ends when this process
    /// dies).
    private let input: Locked<Int32>
    /// The authority the proxy made for itself (the default self-signed certificate), removed by `stop()`.
    private let ownAuthority: TestCertificateAuthority?
    private let lines = Locked<[String]>([])

    /// Starts the terminator toward `127.0.0.1:originPort`, serving `identity` (nil: a self-signed certificate for
    /// `CN=localhost`), and waits (10 s) until it listens.
    static func start(
        forwardingTo originPort: UInt16,
        identity: TestCertificateAuthority.Identity? = nil,
        mode: Mode = .relay
    ) async throws -> TLSProxy {
        let served: TestCertificateAuthority.Identity
        let ownAuthority: TestCertificateAuthority?
        if let identity {
            served = identity
            ownAuthority = nil
        } else {
            let authority = try await TestCertificateAuthority()
            do {
                served = try await authority.issue("localhost", san: "DNS:localhost", selfSigned: true)
            } catch {
                authority.remove()
                throw error
            }
            ownAuthority = authority
        }
        let proxy = try TLSProxy(originPort: originPort, served: served, ownAuthority: ownAuthority, mode: mode)
        do {
            try await eventually("the TLS terminator to listen") {
                guard proxy.process.isRunning else { throw TLSProxyError.notListening(proxy.lines.current) }
                return proxy.port != nil
            }
        } catch {
            proxy.stop()
            throw error is EventuallyTimeout ? TLSProxyError.notListening(proxy.lines.current) : error
        }
        return proxy
    }

    /// Starts the terminator serving `served`; `ownAuthority`, the proxy's own authority if it made one, is removed
    /// when the start fails and by `stop()`.
    private init(
        originPort: UInt16,
        served: TestCertificateAuthority.Identity,
        ownAuthority: TestCertificateAuthority?,
        mode: Mode
    ) throws {
        self.ownAuthority = ownAuthority
        var arguments = [
            "python3", "-u", TestCertificateAuthority.script.path, "serve", "--upstream", String(originPort),
            "--cert", served.certificate.path, "--key", served.key.path, "--mode", mode.rawValue, "--lifeline",
        ]
        if let folder = self.ownAuthority?.folder { arguments += ["--cleanup", folder.path] }
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        guard Self.makePipe(&inputPipe) else {
            self.ownAuthority?.remove()
            throw SpawnedProcessError(command: "pipe", code: errno)
        }
        guard Self.makePipe(&outputPipe) else {
            close(inputPipe[0])
            close(inputPipe[1])
            self.ownAuthority?.remove()
            throw SpawnedProcessError(command: "pipe", code: errno)
        }
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        // The child's copies are made by the spawn; this process closes its own ends below.
        process.standardInput = FileHandle(fileDescriptor: inputPipe[0], closeOnDealloc: false)
        process.standardOutput = FileHandle(fileDescriptor: outputPipe[1], closeOnDealloc: false)
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            for fd in inputPipe + outputPipe { close(fd) }
            self.ownAuthority?.remove()
            throw error
        }
        self.process = process
        close(inputPipe[0])
        close(outputPipe[1])
        self.input = Locked(inputPipe[1])
        let output = outputPipe[0]
        let lines = self.lines
        Thread.detachNewThread {
            var pending = Data()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = read(output, &buffer, buffer.count)
                if count < 0, errno == EINTR { continue }
                if count <= 0 { break }
                pending.append(contentsOf: buffer[0..<count])
                while let newline = pending.firstIndex(of: 0x0A) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending.removeSubrange(pending.startIndex...newline)
                    lines.withLock { $0.append(line) }
                }
            }
            close(output)
        }
    }

    /// The port the terminator listens on (127.0.0.1), nil until it printed it.
    var port: UInt16? {
        self.lines.current.first { $0.hasPrefix("listening ") }.flatMap { UInt16($0.dropFirst(10)) }
    }

    /// `127.0.0.1:PORT`.
    var address: String { "127.0.0.1:\(self.port ?? 0)" }

    /// The connections the terminator accepted so far.
    var connections: [Connection] {
        self.lines.current.compactMap { line in
            line.hasPrefix("plain ") ? .plain : Connection(rawValue: line)
        }
    }

    /// The request line of each plain connection so far (`GET /time/0?…&uuid=u HTTP/1.1`), "" for one whose line the
    /// terminator had not received whole when it looked.
    var plainRequestLines: [String] {
        self.lines.current.compactMap { line in
            line == "plain" ? "" : line.hasPrefix("plain ") ? String(line.dropFirst(6)) : nil
        }
    }

    /// The plain connections that may be a request of a client whose `uuid` (percent-escaped as sent) is in `uuids`:
    /// those whose request line names one of them, and those whose line shows no `uuid` (not received whole, not a
    /// request of this client library). Leaves out plain requests of other clients: a test's client still trying a
    /// port that the kernel has given to this terminator since (tests run in parallel) is not the test's concern.
    func plainConnections(of uuids: Set<String>) -> [String] {
        Self.plainConnections(in: self.plainRequestLines, of: uuids)
    }

    /// `plainConnections(of:)` among `lines` (`plainRequestLines` read once).
    static func plainConnections(in lines: [String], of uuids: Set<String>) -> [String] {
        lines.filter { line in
            guard let uuid = Self.uuid(inRequestLine: line) else { return true }
            return uuids.contains(uuid)
        }
    }

    /// The `uuid` query parameter of a request line, as sent.
    static func uuid(inRequestLine line: String) -> String? {
        TrafficLog.Request.parameter("uuid", inTarget: line.split(separator: " ").dropFirst().first ?? "")
    }

    /// Waits (up to `seconds`) until the terminator reported a connection of `kind`; it prints its line on its own
    /// schedule, e.g. a refused handshake only once the client's alert arrived, which may be after the client moved
    /// on.
    func waitForConnection(_ kind: Connection, within seconds: Double = 10) async throws {
        do {
            try await eventually("a \(kind.rawValue) connection", within: seconds) { self.connections.contains(kind) }
        } catch is EventuallyTimeout {
            throw TLSProxyError.noConnection(kind.rawValue, self.lines.current)
        }
    }

    /// Closes the terminator's stdin (once).
    private func closeInput() {
        self.input.withLock { fd in
            if fd >= 0 { close(fd) }
            fd = -1
        }
    }

    /// A pipe whose two ends close on exec (the spawn gives the child copies of its ends without that flag); false
    /// with `errno` set when it could not be made.
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        guard pipe(&ends) == 0 else { return false }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return true
    }

    /// Ends the process (closing its stdin; SIGKILL if it still runs 5 s later), waits for it and deletes the
    /// folder the proxy made.
    func stop() {
        self.closeInput()
        if (try? eventuallyBlocking("the TLS terminator to exit", within: 5, { !self.process.isRunning })) == nil {
            self.process.send(SIGKILL)
            self.process.waitUntilExit()
        }
        self.ownAuthority?.remove()
    }
}

/// Why the terminator could not start.
enum TLSProxyError: Error, CustomStringConvertible {
    case notListening([String])
    case noConnection(String, [String])

    var description: String {
        switch self {
        case .notListening(let lines): return "the TLS terminator did not start listening; it printed \(lines)"
        case .noConnection(let kind, let lines): return "the terminator saw no \(kind) connection; it printed \(lines)"
        }
    }
}
