import Foundation
import PlatformSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// The sockets the client transport opens: every one must be non-blocking (the workers wait in `poll`, never in a
/// blocking call a cancel could not wake) and close-on-exec (a child process the app spawns must not keep a
/// connection open), however the platform sets the two (in the `socket` call on Linux, with `fcntl` on Darwin).
@Suite struct POSIXSocketTests {
    @Test(arguments: ["127.0.0.1", "::1"])
    func aClientSocketIsNonBlockingAndClosesOnExec(host: String) throws {
        let addresses = try POSIXSocket.resolve(host: host, port: 9).get()
        let fd = POSIXSocket.open(try #require(addresses.first))
        guard fd >= 0 else {
            // A machine without IPv6 cannot make the `::1` socket; the IPv4 case still runs.
            #expect(host == "::1", "socket failed: \(POSIXSocket.describe(POSIXSocket.lastError))")
            return
        }
        defer { POSIXSocket.closeDescriptor(fd) }
        let status = fcntl(fd, F_GETFL, 0)
        let descriptorFlags = fcntl(fd, F_GETFD, 0)
        #expect(status >= 0 && status & O_NONBLOCK != 0, "status flags \(status)")
        #expect(descriptorFlags >= 0 && descriptorFlags & FD_CLOEXEC != 0, "descriptor flags \(descriptorFlags)")
    }
}
