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

/// The self-pipe that wakes a thread blocked in `poll` when another thread hands it work.
///
/// Writes and the final close happen under one lock, so a late `wake()` can never write into a descriptor number
/// that was closed and reused for something else.
final class HTTPWakePipe: @unchecked Sendable {
    // @unchecked: the descriptors are immutable and only written to (inside `isClosed.withLock`) or read by the
    // owning thread before `close()`.
    let readFD: Int32
    private let writeFD: Int32
    /// True once both descriptors are closed; its lock also orders every write before the close.
    private let isClosed = Locked(false)

    init() throws(HTTPServerError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .socketFailed(operation: "pipe", code: errno) }
        self.readFD = fds[0]
        self.writeFD = fds[1]
        for fd in fds {
            POSIXSocket.setNonBlocking(fd)
            POSIXSocket.setCloseOnExec(fd)
        }
    }

    /// Makes `readFD` readable. A full pipe is already readable, so EAGAIN is ignored.
    func wake() {
        self.isClosed.withLock { isClosed in
            guard !isClosed else { return }
            var byte: UInt8 = 1
            _ = write(self.writeFD, &byte, 1)
        }
    }

    /// Empties the pipe; called by the owning thread when `readFD` polled readable.
    func drain() {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while true {
            let count = withUnsafeMutableBytes(of: &buffer) { read(self.readFD, $0.baseAddress, $0.count) }
            if count <= 0 { return }
        }
    }

    func close() {
        self.isClosed.withLock { isClosed in
            guard !isClosed else { return }
            isClosed = true
            POSIXSocket.closeDescriptor(self.readFD)
            POSIXSocket.closeDescriptor(self.writeFD)
        }
    }
}
