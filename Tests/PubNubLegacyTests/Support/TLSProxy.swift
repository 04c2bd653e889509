import Foundation

@testable import PubNubLegacy

/// A TLS-terminating proxy in front of a LocalOrigin, for the self-signed-certificate scenario (S-11): `python3`'s
/// `ssl` module serving a certificate for `CN=localhost` that `openssl req -x509` makes in a fresh temporary
/// folder. One port takes TLS and plain HTTP alike (the proxy peeks at the first byte: 0x16 opens a TLS
/// handshake) and forwards both to the origin, printing one line per connection: `tls`, `tls-rejected` (the
/// handshake failed, e.g. the client refused the certificate) or `plain`. The test that starts it calls `stop()`,
/// which ends the process and deletes the folder; should the test process die first, the proxy sees its stdin
/// close and does both itself.
final class TLSProxy: @unchecked Sendable {
    // @unchecked: `process` and `folder` are set in `init` and only queried after; the output is a `Locked` box.

    /// What each connection turned out to be, in accept order (as printed by the proxy).
    enum Connection: String, Sendable {
        case tls
        case tlsRejected = "tls-rejected"
        case plain
    }

    private let process = Process()
    /// The proxy's stdin: closing it ends the proxy (it also ends, and deletes its folder, when this process dies).
    private let input = Pipe()
    private let folder: URL
    private let lines = Locked<[String]>([])

    /// Starts the proxy toward `127.0.0.1:originPort` and waits (10 s) until it listens.
    static func start(forwardingTo originPort: UInt16) async throws -> TLSProxy {
        let proxy = try TLSProxy(originPort: originPort)
        let deadline = Date().addingTimeInterval(10)
        while proxy.port == nil {
            guard proxy.process.isRunning, Date() < deadline else {
                proxy.stop()
                throw TLSProxyError.notListening(proxy.lines.current)
            }
            try await Task.sleep(nanoseconds: 5_000_000)
        }
        return proxy
    }

    private init(originPort: UInt16) throws {
        self.folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("pubnub-tls-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
        let certificate = self.folder.appendingPathComponent("cert.pem")
        let key = self.folder.appendingPathComponent("key.pem")
        let script = self.folder.appendingPathComponent("proxy.py")
        do {
            let openssl = try Self.run([
                "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                "-keyout", key.path, "-out", certificate.path, "-days", "2", "-subj", "/CN=localhost",
            ])
            guard openssl == 0 else { throw TLSProxyError.openssl(openssl) }
            try Data(Self.script.utf8).write(to: script)
            self.process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            self.process.arguments = ["python3", "-u", script.path, certificate.path, key.path, String(originPort)]
            let stdout = Pipe()
            self.process.standardInput = self.input
            self.process.standardOutput = stdout
            self.process.standardError = FileHandle.nullDevice
            try self.process.run()
            let lines = self.lines
            Thread.detachNewThread {
                var pending = Data()
                while true {
                    let chunk = stdout.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    pending.append(chunk)
                    while let newline = pending.firstIndex(of: 0x0A) {
                        let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                        pending.removeSubrange(pending.startIndex...newline)
                        lines.withLock { $0.append(line) }
                    }
                }
            }
        } catch {
            try? FileManager.default.removeItem(at: self.folder)
            throw error
        }
    }

    /// The port the proxy listens on (127.0.0.1), nil until it printed it.
    var port: UInt16? {
        self.lines.current.first { $0.hasPrefix("listening ") }.flatMap { UInt16($0.dropFirst(10)) }
    }

    /// `127.0.0.1:PORT`.
    var address: String { "127.0.0.1:\(self.port ?? 0)" }

    /// The connections the proxy accepted so far.
    var connections: [Connection] {
        self.lines.current.compactMap(Connection.init(rawValue:))
    }

    /// Waits (up to `seconds`) until the proxy reported a connection of `kind`; the proxy prints its line on its own
    /// schedule, e.g. a refused handshake only once the client's alert arrived, which may be after the client moved on.
    func waitForConnection(_ kind: Connection, within seconds: Double = 10) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !self.connections.contains(kind) {
            if Date() > deadline {
                throw TLSProxyError.noConnection(kind.rawValue, self.lines.current)
            }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
    }

    /// Ends the process (closing its stdin; SIGKILL if it still runs 5 s later), waits for it and deletes the
    /// temporary folder.
    func stop() {
        try? self.input.fileHandleForWriting.close()
        let deadline = Date().addingTimeInterval(5)
        while self.process.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
        }
        if self.process.isRunning {
            kill(self.process.processIdentifier, SIGKILL)
            self.process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: self.folder)
    }

    /// Runs a tool found on `PATH` to its end, output discarded; returns its exit status.
    private static func run(_ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The proxy: one thread per connection; `select` relays both ways so one thread owns each TLS socket.
    private static let script = """
        import os, select, shutil, socket, ssl, sys, threading

        certificate, key, upstream = sys.argv[1], sys.argv[2], int(sys.argv[3])

        def end_with_parent():
            # stdin closes when the test stops the proxy, or when the test process dies: clean up and exit.
            sys.stdin.buffer.read()
            shutil.rmtree(os.path.dirname(os.path.abspath(__file__)), ignore_errors=True)
            os._exit(0)

        threading.Thread(target=end_with_parent, daemon=True).start()
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(certificate, key)
        listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        print("listening", listener.getsockname()[1], flush=True)

        def relay(client, origin):
            peers = {client: origin, origin: client}
            while True:
                if isinstance(client, ssl.SSLSocket) and client.pending():
                    ready = [client]
                else:
                    ready, _, _ = select.select(list(peers), [], [])
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    peers[sock].sendall(data)

        def serve(client):
            origin = None
            try:
                first = client.recv(1, socket.MSG_PEEK)
                if not first:
                    return
                if first[0] == 0x16:
                    try:
                        client = context.wrap_socket(client, server_side=True)
                    except (ssl.SSLError, OSError):
                        print("tls-rejected", flush=True)
                        return
                    print("tls", flush=True)
                else:
                    print("plain", flush=True)
                origin = socket.create_connection(("127.0.0.1", upstream))
                relay(client, origin)
            except OSError:
                pass
            finally:
                for sock in (client, origin):
                    if sock is not None:
                        sock.close()

        while True:
            connection, _ = listener.accept()
            threading.Thread(target=serve, args=(connection,), daemon=True).start()
        """
}

/// Why the proxy could not start.
enum TLSProxyError: Error, CustomStringConvertible {
    case openssl(Int32)
    case notListening([String])
    case noConnection(String, [String])

    var description: String {
        switch self {
        case .openssl(let status): return "openssl req -x509 exited with \(status)"
        case .notListening(let lines): return "the proxy did not start listening; it printed \(lines)"
        case .noConnection(let kind, let lines): return "the proxy saw no \(kind) connection; it printed \(lines)"
        }
    }
}
