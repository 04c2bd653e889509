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

// The byte stream under one HTTP connection: the plain socket, or TLS over it. `SocketConnection` writes requests
// and feeds the response reader through this protocol only, so the HTTP exchange and the pool are the same for
// `http://` and `https://`.

/// The bytes of one connected socket, used by one thread at a time. Every wait is bounded by the caller's
/// milliseconds; a cancel wakes a waiting call by shutting the descriptor down (`SocketTask.cancel()`).
protocol SocketStream: AnyObject {
    /// The socket under the stream: what a cancel shuts down.
    var descriptor: Int32 { get }

    /// Writes all of `bytes`; nil when done, otherwise the failure (`.timedOut` after `milliseconds` without
    /// progress). After a failure the stream must be closed.
    func write(_ bytes: UnsafeRawBufferPointer, milliseconds: Int32) -> TransportFailure?

    /// Writes what the socket takes of `bytes` without waiting: the count written (0 … `bytes.count`), nil when the
    /// connection failed (the stream must then be closed). `write` finishes the rest.
    func writeWithoutWaiting(_ bytes: UnsafeRawBufferPointer) -> Int?

    /// Reads what is available into `buffer`, waiting up to `milliseconds` for something: the byte count, 0 at the
    /// end of the stream, or the failure. After a failure the stream must be closed.
    func read(into buffer: UnsafeMutableRawBufferPointer, milliseconds: Int32) -> Result<Int, TransportFailure>

    /// False when the stream can no longer carry a request: the server closed it or sent something unasked.
    var isHealthyWhileIdle: Bool { get }

    /// Releases the stream and its descriptor. Called once, by the connection's current owner.
    func close()
}

/// A plain TCP stream: `send`/`recv` on the non-blocking socket, `poll` while nothing can move.
// @unchecked: the only stored property is an immutable descriptor; one thread uses the stream at a time.
final class PlainStream: SocketStream, @unchecked Sendable {
    let descriptor: Int32

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    func write(_ bytes: UnsafeRawBufferPointer, milliseconds: Int32) -> TransportFailure? {
        var offset = 0
        while offset < bytes.count {
            let sent = POSIXSocket.send(self.descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
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

    func writeWithoutWaiting(_ bytes: UnsafeRawBufferPointer) -> Int? {
        var offset = 0
        while offset < bytes.count {
            let sent = POSIXSocket.send(self.descriptor, UnsafeRawBufferPointer(rebasing: bytes[offset...]))
            if sent > 0 {
                offset += sent
            } else if sent < 0, POSIXSocket.isTransient(POSIXSocket.lastError) {
                break
            } else {
                return nil
            }
        }
        return offset
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, milliseconds: Int32) -> Result<Int, TransportFailure> {
        while true {
            let count = POSIXSocket.receive(self.descriptor, buffer)
            if count >= 0 { return .success(count) }
            let code = POSIXSocket.lastError
            guard POSIXSocket.isTransient(code) else { return .failure(SocketFailure.connectionLost) }
            let events = POSIXSocket.wait(self.descriptor, for: POSIXSocket.pollIn, milliseconds: milliseconds)
            if events == 0 { return .failure(.timedOut) }
            if events < 0 { return .failure(SocketFailure.connectionLost) }
        }
    }

    /// Readable while idle means end of stream or unasked bytes.
    var isHealthyWhileIdle: Bool {
        POSIXSocket.wait(self.descriptor, for: POSIXSocket.pollIn, milliseconds: 0) == 0
    }

    func close() {
        POSIXSocket.closeDescriptor(self.descriptor)
    }
}
