// The raw POSIX socket calls the tests make themselves (a hand-written HTTP server, a client that writes exact bytes,
// a probe of whether a port accepts or binds): always TCP on 127.0.0.1, set up in one place.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// TCP sockets on 127.0.0.1 for tests. Every function is synchronous and returns errors as `errno` values instead of
/// throwing, so callers choose their own error type; the caller owns (and closes) each descriptor.
public enum LoopbackSocket {
    /// A new TCP socket, or a negative value (with `errno` set) when the system has none to give.
    public static func tcp() -> Int32 {
        #if canImport(Glibc)
        socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        socket(AF_INET, SOCK_STREAM, 0)
        #endif
    }

    /// Connects `fd` to 127.0.0.1:`port`, blocking until it is connected or refused; 0 or the `errno`.
    public static func connect(_ fd: Int32, port: UInt16) -> Int32 {
        var address = Self.address(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                Darwin.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        return result == 0 ? 0 : errno
    }

    /// Binds `fd` to 127.0.0.1:`port` (0: a port the kernel chooses); 0 or the `errno`.
    public static func bind(_ fd: Int32, port: UInt16) -> Int32 {
        var address = Self.address(port: port)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                #if canImport(Glibc)
                Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #else
                Darwin.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                #endif
            }
        }
        return result == 0 ? 0 : errno
    }

    /// The local port `fd` is bound to, or nil (with `errno` set) when the system cannot tell.
    public static func localPort(_ fd: Int32) -> UInt16? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return named == 0 ? UInt16(bigEndian: address.sin_port) : nil
    }

    /// Sets the integer socket option `option` at `level` on `fd` to `value`; 0 or the `errno`.
    @discardableResult
    public static func setOption(_ fd: Int32, _ level: Int32, _ option: Int32, _ value: Int32) -> Int32 {
        var value = value
        return setsockopt(fd, level, option, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 ? 0 : errno
    }

    private static func address(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
