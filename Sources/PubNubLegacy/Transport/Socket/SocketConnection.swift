import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One TCP connection of a `SocketTransport`, used by one worker at a time (or resting in the idle pool). Blocking
/// calls wait in `poll` with the request's idle timeout; a cancel wakes them by shutting the socket down
/// (`SocketTask.cancel()`).
///
/// The descriptor is closed only by `close()`, which its current owner (a worker, or `invalidate()` for an idle
/// connection taken out of the pool) calls once.
// @unchecked: every stored property is an immutable `let`; the connection is handed between threads only through
// the pool's lock (`SocketPool.condition`) and used by one thread at a time.
final class SocketConnection: @unchecked Sendable {
    let descriptor: Int32
    let poolKey: String

    private init(descriptor: Int32, poolKey: String) {
        self.descriptor = descriptor
        self.poolKey = poolKey
    }

    /// Longest single wait while connecting, so a cancel is noticed within that time even where shutting down a
    /// connecting socket does not wake `poll`.
    private static let connectSliceMilliseconds: Int32 = 100

    // MARK: - Opening

    /// Resolves `target` and connects to its first address that accepts, within `timeout` per address; gives up
    /// early when `task` is finished (cancelled).
    static func open(
        to target: HTTPTarget,
        timeout: TimeInterval,
        task: SocketTask
    ) -> Result<SocketConnection, TransportFailure> {
        let addresses: [POSIXSocket.Address]
        switch POSIXSocket.resolve(host: target.host, port: target.port) {
        case .success(let resolved): addresses = resolved
        case .failure: return .failure(SocketFailure.cannotFindHost)
        }
        var failure = SocketFailure.cannotConnect
        for address in addresses {
            if task.isFinished { return .failure(.cancelled) }
            switch self.connect(to: address, timeout: timeout, task: task) {
            case .success(let fd):
                return .success(SocketConnection(descriptor: fd, poolKey: target.poolKey))
            case .failure(let error):
                failure = error
                if error == .timedOut || error == .cancelled { return .failure(error) }
            }
        }
        return .failure(failure)
    }

    private static func connect(
        to address: POSIXSocket.Address,
        timeout: TimeInterval,
        task: SocketTask
    ) -> Result<Int32, TransportFailure> {
        let fd = POSIXSocket.open(address)
        guard fd >= 0 else { return .failure(SocketFailure.cannotConnect) }
        let started = POSIXSocket.startConnect(fd, to: address)
        if started == 0 { return .success(fd) }
        guard started == EINPROGRESS else {
            POSIXSocket.closeDescriptor(fd)
            return .failure(SocketFailure.cannotConnect)
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
            return .failure(SocketFailure.cannotConnect)
        }
    }

    // MARK: - Using

    /// False when the server closed the idle connection or sent something unasked: readable while idle.
    var isHealthyWhileIdle: Bool {
        POSIXSocket.wait(self.descriptor, for: POSIXSocket.pollIn, milliseconds: 0) == 0
    }

    /// Writes `head` and `body`, then reads one response within `limits`, failing after `timeout` without progress.
    /// On failure the connection must be closed.
    func exchange(
        head: [UInt8],
        body: Data?,
        timeout: TimeInterval,
        limits: ResponseLimits = ResponseLimits()
    ) -> Result<(TransportResponse, reusable: Bool), TransportFailure> {
        let milliseconds = Self.milliseconds(timeout)
        if let failure = self.write(head, milliseconds: milliseconds) { return .failure(failure) }
        if let body, !body.isEmpty {
            if let failure = self.write(Array(body), milliseconds: milliseconds) { return .failure(failure) }
        }
        return self.read(milliseconds: milliseconds, limits: limits)
    }

    private func write(_ bytes: [UInt8], milliseconds: Int32) -> TransportFailure? {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                POSIXSocket.send(self.descriptor, UnsafeRawBufferPointer(rebasing: buffer[offset...]))
            }
            if sent > 0 {
                offset += sent
                continue
            }
            let code = POSIXSocket.lastError
            guard sent < 0, POSIXSocket.isTransient(code) else { return SocketFailure.connectionLost }
            let events = POSIXSocket.wait(self.descriptor, for: POSIXSocket.pollOut, milliseconds: milliseconds)
            if events == 0 { return .timedOut }
            if events < 0 { return SocketFailure.connectionLost }
        }
        return nil
    }

    private func read(
        milliseconds: Int32,
        limits: ResponseLimits
    ) -> Result<(TransportResponse, reusable: Bool), TransportFailure> {
        var reader = HTTPResponseReader(limits: limits)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 65_536, alignment: 1)
        defer { buffer.deallocate() }
        while true {
            let count = POSIXSocket.receive(self.descriptor, buffer)
            do {
                if count > 0 {
                    if case .complete(let response, let reusable) = try reader.consume(
                        UnsafeRawBufferPointer(rebasing: buffer[..<count])
                    ) {
                        return .success((response, reusable))
                    }
                    continue
                }
                if count == 0 {
                    if case .complete(let response, _) = try reader.finish() {
                        return .success((response, false))
                    }
                    return .failure(SocketFailure.connectionLost)
                }
            } catch {
                return .failure(SocketFailure.from(error, limits: limits))
            }
            let code = POSIXSocket.lastError
            guard POSIXSocket.isTransient(code) else { return .failure(SocketFailure.connectionLost) }
            let events = POSIXSocket.wait(self.descriptor, for: POSIXSocket.pollIn, milliseconds: milliseconds)
            if events == 0 { return .failure(.timedOut) }
            if events < 0 { return .failure(SocketFailure.connectionLost) }
        }
    }

    /// Releases the descriptor. Called once, by the connection's current owner.
    func close() {
        POSIXSocket.closeDescriptor(self.descriptor)
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
