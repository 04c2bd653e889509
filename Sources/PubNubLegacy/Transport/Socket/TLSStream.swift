import Foundation
import PlatformSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// TLS over one connected non-blocking socket, through OpenSSL (`OpenSSL.shared`). `SSL_read`/`SSL_write` run until
/// OpenSSL wants the socket, then the stream waits in `poll` for the direction it asked for.
///
/// OpenSSL writes to the socket with `write`, which raises SIGPIPE on a connection the peer reset; the socket pool's
/// workers, the only threads that call into a stream, block that signal (`POSIXSocket.blockBrokenPipeSignal()`),
/// so such a write fails with EPIPE instead. `close()` sends no close-notify for the same reason: it may run on
/// any thread, and HTTP framing (never the end of the stream) ends every response this transport accepts.
// @unchecked: the stored properties are immutable; one thread uses the stream at a time (`SocketConnection`).
final class TLSStream: SocketStream, @unchecked Sendable {
    let descriptor: Int32
    private let library: OpenSSL
    private let ssl: OpaquePointer
    /// Kept for the life of the connection, with its settings.
    private let context: TLSContext

    private init(descriptor: Int32, library: OpenSSL, ssl: OpaquePointer, context: TLSContext) {
        self.descriptor = descriptor
        self.library = library
        self.ssl = ssl
        self.context = context
    }

    /// Longest single wait of the handshake, so a cancel is noticed within that time.
    private static let handshakeSliceMilliseconds: Int32 = 100

    // MARK: - Handshake

    /// Runs the client handshake on the connected `descriptor` with SNI and, unless `evaluation` is relaxed,
    /// certificate and host-name verification for its host (the context, made for the same evaluation, holds the
    /// anchors); then the pin check of `evaluation`. Gives up after `timeout` seconds (`.timedOut`) or when `task`
    /// is finished (`.cancelled`). Takes the descriptor over: on failure it is closed.
    static func handshake(
        descriptor: Int32,
        evaluation: TrustEvaluation,
        context: TLSContext,
        timeout: TimeInterval,
        task: SocketTask
    ) -> Result<TLSStream, TransportFailure> {
        let library = context.library
        library.errorClear()
        guard let ssl = library.new(context.pointer) else {
            POSIXSocket.closeDescriptor(descriptor)
            return .failure(SocketFailure.tlsSetupFailed("OpenSSL cannot start a session (\(library.drainErrors()))"))
        }
        let stream = TLSStream(descriptor: descriptor, library: library, ssl: ssl, context: context)
        let result = stream.runHandshake(evaluation: evaluation, timeout: timeout, task: task)
        if case .failure(let failure) = result {
            stream.close()
            return .failure(failure)
        }
        return .success(stream)
    }

    private func runHandshake(
        evaluation: TrustEvaluation,
        timeout: TimeInterval,
        task: SocketTask
    ) -> Result<Void, TransportFailure> {
        let host = evaluation.host
        guard self.library.setDescriptor(self.ssl, self.descriptor) == 1 else {
            return .failure(SocketFailure.tlsSetupFailed("OpenSSL cannot use the socket"))
        }
        let literal = Self.isIPAddress(host)
        if !literal {
            // SNI carries host names only (RFC 6066 §3).
            _ = host.withCString { name in
                self.library.control(
                    self.ssl,
                    OpenSSL.controlSetTLSExtensionHostName,
                    0,
                    UnsafeMutableRawPointer(mutating: name)
                )
            }
        }
        if self.context.verifies {
            let set =
                literal
                ? self.library.setIPAddress(self.library.verifyParameters(self.ssl), host)
                : self.library.setHost(self.ssl, host)
            guard set == 1 else {
                return .failure(SocketFailure.tlsSetupFailed("\(host) cannot be set as the name to verify"))
            }
        }
        let deadline = DispatchTime.now().uptimeNanoseconds &+ UInt64(SocketConnection.seconds(timeout) * 1e9)
        while true {
            self.library.errorClear()
            let result = self.library.connect(self.ssl)
            if result == 1 { break }
            let code = self.library.getError(self.ssl, result)
            let events: Int16
            switch code {
            case OpenSSL.errorWantRead: events = POSIXSocket.pollIn
            case OpenSSL.errorWantWrite: events = POSIXSocket.pollOut
            case OpenSSL.errorSyscall where POSIXSocket.lastError == EINTR: continue
            default: return .failure(self.handshakeFailure(evaluation: evaluation, code: code, result: result))
            }
            // Wait in slices, so a cancel (which may not wake `poll` on a socket mid-handshake) is seen quickly.
            while true {
                if task.isFinished { return .failure(.cancelled) }
                let now = DispatchTime.now().uptimeNanoseconds
                guard now < deadline else { return .failure(.timedOut) }
                let left = Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Self.handshakeSliceMilliseconds)))
                let ready = POSIXSocket.wait(self.descriptor, for: events, milliseconds: left)
                if ready < 0 {
                    return .failure(SocketFailure.tlsHandshakeFailed(host: host, "the socket cannot be polled"))
                }
                if ready > 0 { break }
            }
        }
        if evaluation.pins,
            let failure = evaluation.pinFailure(chain: self.chain(), chainVerified: self.context.verifies)
        {
            return .failure(failure)
        }
        return .success(())
    }

    /// The failure of a handshake that ended with `code`: a refused certificate when verification failed, the
    /// handshake's own failure otherwise.
    private func handshakeFailure(evaluation: TrustEvaluation, code: Int32, result: Int32) -> TransportFailure {
        let host = evaluation.host
        let errno = POSIXSocket.lastError
        let queue = self.library.drainErrors()
        let verification = self.library.verifyResult(self.ssl)
        if self.context.verifies && verification != OpenSSL.verifyOK {
            return evaluation.refused(
                TrustEvaluation.Refusal(openSSLResult: verification),
                library: "OpenSSL",
                detail: self.library.verifyText(verification)
            )
        }
        let reason: String
        if queue.contains("wrong version number") {
            // The answer to the ClientHello was not TLS: most often plain HTTP on that port.
            reason = "the server does not speak TLS on this port (OpenSSL reports \(queue))"
        } else if !queue.isEmpty {
            reason = "OpenSSL reports \(queue)"
        } else if code == OpenSSL.errorSyscall && (result == 0 || errno == 0) {
            reason = "the connection was closed during the handshake"
        } else if code == OpenSSL.errorSyscall {
            reason = "the connection failed during the handshake (\(String(cString: strerror(errno))))"
        } else if code == OpenSSL.errorZeroReturn {
            reason = "the server ended the session during the handshake"
        } else {
            reason = "OpenSSL error \(code)"
        }
        return SocketFailure.tlsHandshakeFailed(host: host, reason)
    }

    /// The server's chain as DER, its own certificate first: the chain OpenSSL verified when it verified one (the
    /// anchor included), else only the certificate the server presented.
    private func chain() -> [[UInt8]] {
        if self.context.verifies, let chain = self.library.verifiedChain(self.ssl) {
            return (0..<max(0, self.library.stackCount(chain))).compactMap { index in
                self.library.stackValue(chain, index).flatMap { self.library.derBytes(of: OpaquePointer($0)) }
            }
        }
        guard let leaf = self.library.peerCertificate(self.ssl) else { return [] }
        defer { self.library.certificateFree(leaf) }
        return self.library.derBytes(of: leaf).map { [$0] } ?? []
    }

    /// True for an IPv4 or IPv6 literal: verified against the certificate's IP addresses, and sent without SNI.
    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    // MARK: - Bytes

    func write(_ bytes: UnsafeRawBufferPointer, milliseconds: Int32) -> TransportFailure? {
        var offset = 0
        while offset < bytes.count {
            self.library.errorClear()
            let chunk = Int32(min(bytes.count - offset, Int(Int32.max)))
            let written = self.library.write(self.ssl, bytes.baseAddress.map { $0 + offset }, chunk)
            if written > 0 {
                offset += Int(written)
                continue
            }
            let code = self.library.getError(self.ssl, written)
            if let failure = self.wait(after: code, result: written, milliseconds: milliseconds) { return failure }
        }
        return nil
    }

    /// Writes nothing: an `SSL_write` that could not finish must be repeated with the same bytes, so the whole
    /// request is left to `write` (the pool writes TLS requests on its workers only).
    func writeWithoutWaiting(_ bytes: UnsafeRawBufferPointer) -> Int? {
        0
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, milliseconds: Int32) -> Result<Int, TransportFailure> {
        while true {
            self.library.errorClear()
            let count = self.library.read(self.ssl, buffer.baseAddress, Int32(min(buffer.count, Int(Int32.max))))
            if count > 0 { return .success(Int(count)) }
            let code = self.library.getError(self.ssl, count)
            // The server's close-notify: the end of the stream.
            if code == OpenSSL.errorZeroReturn { return .success(0) }
            if let failure = self.wait(after: code, result: count, milliseconds: milliseconds) {
                return .failure(failure)
            }
        }
    }

    /// After an `SSL_read`/`SSL_write` that returned `result` ≤ 0 with the `SSL_get_error` `code`: waits for the
    /// direction OpenSSL wants (nil: try again), or the failure. Past the handshake every failure counts as a lost
    /// connection, as a reset would on a plain socket — an end of stream without close-notify included (a response
    /// cut short).
    private func wait(after code: Int32, result: Int32, milliseconds: Int32) -> TransportFailure? {
        let events: Int16
        switch code {
        case OpenSSL.errorWantRead: events = POSIXSocket.pollIn
        case OpenSSL.errorWantWrite: events = POSIXSocket.pollOut
        case OpenSSL.errorSyscall where result < 0 && POSIXSocket.lastError == EINTR: return nil
        default:
            self.library.errorClear()
            return SocketFailure.connectionLost
        }
        let ready = POSIXSocket.wait(self.descriptor, for: events, milliseconds: milliseconds)
        if ready == 0 { return .timedOut }
        if ready < 0 { return SocketFailure.connectionLost }
        return nil
    }

    /// Readable while idle: TLS 1.3 session tickets the server sent after the last response are read and dropped
    /// here; an alert, an end of stream or any application data means the connection cannot be reused.
    var isHealthyWhileIdle: Bool {
        var byte: UInt8 = 0
        // A few records at most: tickets come in ones and twos.
        for _ in 0..<8 {
            if self.library.pending(self.ssl) > 0 { return false }
            guard POSIXSocket.wait(self.descriptor, for: POSIXSocket.pollIn, milliseconds: 0) > 0 else { return true }
            self.library.errorClear()
            let count = self.library.read(self.ssl, &byte, 1)
            if count > 0 { return false }
            guard self.library.getError(self.ssl, count) == OpenSSL.errorWantRead else {
                self.library.errorClear()
                return false
            }
        }
        return false
    }

    func close() {
        self.library.free(self.ssl)
        POSIXSocket.closeDescriptor(self.descriptor)
    }

    /// The negotiated protocol (`TLSv1.3`), for logs and tests.
    var protocolVersion: String {
        self.library.version(self.ssl).map { String(cString: $0) } ?? "unknown"
    }
}
