import Testing

@testable import LocalOrigin

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

@Suite struct HTTPWakePipeTests {
    private func isReadable(_ fd: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, 0) == 1
    }

    @Test func wakeMakesTheReadEndReadableUntilDrained() throws {
        let pipe = try HTTPWakePipe()
        defer { pipe.close() }
        #expect(!self.isReadable(pipe.readFD))
        for _ in 0..<100_000 { pipe.wake() }  // more than a pipe holds: extra wakes are dropped, never block
        #expect(self.isReadable(pipe.readFD))
        pipe.drain()
        #expect(!self.isReadable(pipe.readFD))
    }

    @Test func wakeAfterCloseIsIgnored() throws {
        let pipe = try HTTPWakePipe()
        pipe.close()
        pipe.wake()
        pipe.close()
    }
}
