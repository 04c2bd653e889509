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

/// One TCP connection of a `SocketTransport` — plain, or TLS for `https` targets — used by one worker at a time (or
/// resting in the idle pool). Its bytes go through a `SocketStream`, whose blocking calls wait in `poll` with the
/// request's idle timeout; a cancel wakes them by shutting the socket down (`SocketTask.cancel()`).
///
/// The descriptor is closed only by `close()`, which its current owner (a worker, or `invalidate()` for an idle
/// connection taken out of the pool) calls once.
// @unchecked: every stored property is an immutable `let`; the connection is handed between threads only through
// the pool's lock (`SocketPool.condition`) and used by one thread at a time.
final class SocketConnection: @unchecked Sendable {
    let stream: any SocketStream
    let poolKey: PoolKey

    private init(stream: any SocketStream, poolKey: PoolKey) {
        self.stream = stream
        self.poolKey = poolKey
    }

    /// The socket under the stream: what a cancel shuts down.
    var descriptor: Int32 { self.stream.descriptor }

    /// Longest single wait while connecting, so a cancel is noticed within that time even where shutting down a
    /// connecting socket does not wake `poll`.
    private static let connectSliceMilliseconds: Int32 = 100

    // MARK: - Opening

    /// Resolves `target` and connects to its first address that accepts, within `timeout` per address, then for an
    /// `https` target runs the TLS handshake with a context from `contexts` (within `timeout` as well); gives up
    /// early when `task` is finished (cancelled).
    static func open(
        to target: HTTPTarget,
        timeout: TimeInterval,
        task: SocketTask,
        contexts: TLSContextCache?
    ) -> Result<SocketConnection, TransportFailure> {
        let addresses: [POSIXSocket.Address]
        switch POSIXSocket.resolve(host: target.host, port: target.port) {
        case .success(let resolved): addresses = resolved
        case .failure(let error): return .failure(SocketFailure.cannotFindHost(target.host, reason: error.reason))
        }
        var failure = SocketFailure.cannotConnect(target.host, port: target.port, errno: EHOSTUNREACH)
        for address in addresses {
            if task.isFinished { return .failure(.cancelled) }
            switch self.connect(to: address, of: target, timeout: timeout, task: task) {
            case .success(let fd):
                guard target.secure else {
                    return .success(SocketConnection(stream: PlainStream(descriptor: fd), poolKey: task.poolKey))
                }
                return self.secure(fd, target: target, timeout: timeout, task: task, contexts: contexts)
            case .failure(let error):
                failure = error
                if error == .timedOut || error == .cancelled { return .failure(error) }
            }
        }
        return .failure(failure)
    }

    /// The TLS connection over the connected `fd` (which it takes over: closed on failure).
    private static func secure(
        _ fd: Int32,
        target: HTTPTarget,
        timeout: TimeInterval,
        task: SocketTask,
        contexts: TLSContextCache?
    ) -> Result<SocketConnection, TransportFailure> {
        guard let contexts else {
            POSIXSocket.closeDescriptor(fd)
            return .failure(SocketFailure.unsupportedURL)
        }
        let request = task.request
        let evaluation = TrustEvaluation(
            host: target.host,
            trust: request.trust,
            relaxed: request.relaxedCertificateValidation
        )
        let key = TLSContext.Key(evaluation)
        let context: TLSContext
        switch contexts.context(for: key) {
        case .success(let made): context = made
        case .failure(let failure):
            POSIXSocket.closeDescriptor(fd)
            return .failure(failure)
        }
        let handshake = TLSStream.handshake(
            descriptor: fd,
            evaluation: evaluation,
            context: context,
            timeout: timeout,
            task: task
        )
        return handshake.map { SocketConnection(stream: $0, poolKey: task.poolKey) }
    }

    /// Connects to `address`, one of `target`'s, which the failure names.
    private static func connect(
        to address: POSIXSocket.Address,
        of target: HTTPTarget,
        timeout: TimeInterval,
        task: SocketTask
    ) -> Result<Int32, TransportFailure> {
        let failed = { (code: Int32) in SocketFailure.cannotConnect(target.host, port: target.port, errno: code) }
        let fd = POSIXSocket.open(address)
        guard fd >= 0 else { return .failure(failed(POSIXSocket.lastError)) }
        let started = POSIXSocket.startConnect(fd, to: address)
        if started == 0 { return .success(fd) }
        guard started == EINPROGRESS else {
            POSIXSocket.closeDescriptor(fd)
            return .failure(failed(started))
        }
        let deadline = DispatchTime.now().uptimeNanoseconds &+ SocketConnection.nanoseconds(timeout)
        while true {
            if task.isFinished {
                POSIXSocket.closeDescriptor(fd)
                return .failure(.cancelled)
            }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                POSIXSocket.closeDescriptor(fd)
                return .failure(.timedOut)
            }
            let left = Int32(min((deadline - now) / 1_000_000 + 1, UInt64(Self.connectSliceMilliseconds)))
            let events = POSIXSocket.wait(fd, for: POSIXSocket.pollOut, milliseconds: left)
            if events == 0 { continue }
            let code = events < 0 ? POSIXSocket.lastError : POSIXSocket.connectError(fd)
            if code == 0 { return .success(fd) }
            POSIXSocket.closeDescriptor(fd)
            return .failure(failed(code))
        }
    }

    // MARK: - Using

    /// False when the server closed the idle connection or sent something unasked.
    var isHealthyWhileIdle: Bool {
        self.stream.isHealthyWhileIdle
    }

    /// Writes what the socket takes of `head`, then `body`, without waiting (`SocketStream.writeWithoutWaiting`):
    /// the count written, to be passed to `exchange` as `written`; nil when the connection failed (close it).
    func writeWithoutWaiting(head: [UInt8], body: Data?) -> Int? {
        guard let written = head.withUnsafeBytes({ self.stream.writeWithoutWaiting($0) }) else { return nil }
        guard written == head.count, let body, !body.isEmpty else { return written }
        return body.withUnsafeBytes { self.stream.writeWithoutWaiting($0) }.map { written + $0 }
    }

    /// Writes `head` and `body` (less their first `written` bytes, already sent by `writeWithoutWaiting`), runs
    /// `whileWaiting` (the request is on its way; its answer's time has not started), then reads one response within
    /// `limits`, failing after `timeout` without progress. When `whileWaiting` returns true (the request's deadline
    /// passed meanwhile), only an answer that has begun to arrive is read; without one the exchange fails with
    /// `.timedOut` at once. On failure the connection must be closed.
    func exchange(
        head: [UInt8],
        body: Data?,
        written: Int = 0,
        timeout: TimeInterval,
        limits: ResponseLimits = ResponseLimits(),
        whileWaiting: () -> Bool = { false }
    ) -> Result<(TransportResponse, reusable: Bool), TransportFailure> {
        let milliseconds = Self.milliseconds(timeout)
        if written < head.count {
            let rest = head[written...].withUnsafeBytes { self.stream.write($0, milliseconds: milliseconds) }
            if let failure = rest { return .failure(failure) }
        }
        if let body, written - head.count < body.count {
            let skipped = max(0, written - head.count)
            let rest = body.withUnsafeBytes {
                self.stream.write(UnsafeRawBufferPointer(rebasing: $0[skipped...]), milliseconds: milliseconds)
            }
            if let failure = rest { return .failure(failure) }
        }
        let expired = whileWaiting()
        return self.read(firstWait: expired ? 0 : milliseconds, milliseconds: milliseconds, limits: limits)
    }

    /// Reads one response, waiting up to `firstWait` for its first bytes and up to `milliseconds` for each later
    /// read.
    private func read(
        firstWait: Int32,
        milliseconds: Int32,
        limits: ResponseLimits
    ) -> Result<(TransportResponse, reusable: Bool), TransportFailure> {
        var reader = HTTPResponseReader(limits: limits)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
        defer { buffer.deallocate() }
        var wait = firstWait
        while true {
            let count: Int
            switch self.stream.read(into: buffer, milliseconds: wait) {
            case .success(let received): count = received
            case .failure(let failure): return .failure(failure)
            }
            wait = milliseconds
            do {
                if count > 0 {
                    if case .complete(let response, let reusable) = try reader.consume(
                        UnsafeRawBufferPointer(rebasing: buffer[..<count])
                    ) {
                        return .success((response, reusable))
                    }
                    continue
                }
                if case .complete(let response, _) = try reader.finish() {
                    return .success((response, false))
                }
                return .failure(SocketFailure.connectionLost)
            } catch {
                return .failure(SocketFailure.from(error, limits: limits))
            }
        }
    }

    /// Releases the stream and its descriptor. Called once, by the connection's current owner.
    func close() {
        self.stream.close()
    }

    // MARK: - Time

    /// A usable idle timeout: URLSession's 60 s default for zero, negative or not finite values.
    static func seconds(_ timeout: TimeInterval) -> TimeInterval {
        timeout.isFinite && timeout > 0 ? min(timeout, 86_400) : 60
    }

    private static func milliseconds(_ timeout: TimeInterval) -> Int32 {
        Int32((self.seconds(timeout) * 1_000).rounded(.up))
    }

    private static func nanoseconds(_ timeout: TimeInterval) -> UInt64 {
        UInt64(self.seconds(timeout) * 1_000_000_000)
    }
}
