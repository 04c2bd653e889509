import PlatformSupport
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

@Suite struct HTTPSocketTests {
    #if os(Linux)
    @Test func openFileLimitIsRaisedToTheHardLimit() {
        POSIXSocket.raiseOpenFileLimit()
        var limit = rlimit()
        #expect(getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0)
        #expect(limit.rlim_cur == limit.rlim_max)
    }
    #endif

    @Test func listenReportsTheKernelChosenPortAndFreesItOnClose() throws {
        let (fd, port) = try POSIXSocket.listen(host: "127.0.0.1", port: 0)
        #expect(port != 0)
        #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: port)) {
            _ = try POSIXSocket.listen(host: "127.0.0.1", port: port)
        }
        POSIXSocket.closeDescriptor(fd)
        let (again, samePort) = try POSIXSocket.listen(host: "127.0.0.1", port: port)
        #expect(samePort == port)
        POSIXSocket.closeDescriptor(again)
    }

    @Test func listenAcceptsLocalhostAsLoopback() throws {
        let (fd, port) = try POSIXSocket.listen(host: "localhost", port: 0)
        #expect(port != 0)
        POSIXSocket.closeDescriptor(fd)
    }
}
