import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The self-pipe that wakes a thread blocked in `poll` when another thread hands it work.
///
/// Writes and the final close happen under one lock, so a late `wake()` can never write into a descriptor number
/// that was closed and reused for something else.
final class HTTPWakePipe: @unchecked Sendable {
    // @unchecked: `isClosed` is guarded by `lock`; the descriptors are immutable and only written to (under `lock`)
    // or read by the owning thread before `close()`.
    let readFD: Int32
    private let writeFD: Int32
    private let lock = NSLock()
    private var isClosed = false

    init() throws(HTTPServerError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { throw .socketFailed(operation: "pipe", code: errno) }
        self.readFD = fds[0]
        self.writeFD = fds[1]
        for fd in fds {
            HTTPSocket.setNonBlocking(fd)
            HTTPSocket.setCloseOnExec(fd)
        }
    }

    /// Makes `readFD` readable. A full pipe is already readable, so EAGAIN is ignored.
    func wake() {
        self.lock.lock()
        defer { self.lock.unlock() }
        guard !self.isClosed else { return }
        var byte: UInt8 = 1
        _ = write(self.writeFD, &byte, 1)
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
        self.lock.lock()
        defer { self.lock.unlock() }
        guard !self.isClosed else { return }
        self.isClosed = true
        HTTPSocket.closeDescriptor(self.readFD)
        HTTPSocket.closeDescriptor(self.writeFD)
    }
}
