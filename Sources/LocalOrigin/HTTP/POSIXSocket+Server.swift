// The server's side of the POSIX shim: listening, reserving a port, accepting, the open-files limit. The calls both
// sides share (descriptors, I/O, poll) are in `PlatformSupport`'s `POSIXSocket`, which carries no protocol.

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

extension POSIXSocket {
    /// Prepares an accepted connection: non-blocking, no Nagle delay (answers are small and latency-bound), and on
    /// Darwin no SIGPIPE.
    static func configureAccepted(_ fd: Int32) {
        self.setNonBlocking(fd)
        self.setCloseOnExec(fd)
        self.configureStream(fd)
    }

    // MARK: - Accepting

    /// Accepts one pending connection and configures it (`configureAccepted`). Returns -1 with `errno` set when none is pending or on
    /// failure.
    static func accept(_ listener: Int32) -> Int32 {
        let fd = systemAccept(listener)
        if fd >= 0 { self.configureAccepted(fd) }
        return fd
    }

    /// Raises the soft open-files limit to the hard limit, so a thousand parked long-polls (two descriptors each
    /// when the clients are in-process) fit. Failure is ignored: the server still works with fewer connections.
    static func raiseOpenFileLimit() {
        let resource = self.constant(RLIMIT_NOFILE)
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        var raised = limit
        raised.rlim_cur = limit.rlim_max
        if setrlimit(resource, &raised) != 0 {
            // Darwin reports an unlimited hard limit but refuses soft limits above OPEN_MAX.
            raised.rlim_cur = min(limit.rlim_max, 10_240)
            _ = setrlimit(resource, &raised)
        }
    }

    // MARK: - Listening

    /// Creates a non-blocking listening socket bound to `host` (a numeric IPv4/IPv6 address or `localhost`):`port`
    /// and returns it with the bound port. SO_REUSEADDR lets a stopped server's port be bound again while old
    /// connections sit in TIME_WAIT, or while `reserve` holds it.
    static func listen(host: String, port: UInt16) throws(HTTPServerError) -> (fd: Int32, port: UInt16) {
        let fd = try self.bound(host: host, port: port)
        guard listenOnSocket(fd, 4_096) == 0, self.setNonBlocking(fd) else {
            let code = errno
            self.closeDescriptor(fd)
            throw .socketFailed(operation: "listen", code: code)
        }
        guard let bound = self.boundPort(fd) else {
            let code = errno
            self.closeDescriptor(fd)
            throw .socketFailed(operation: "getsockname", code: code)
        }
        return (fd, bound)
    }

    /// Binds a socket to `host`:`port` without listening: connections to the port are refused, and the kernel does
    /// not hand the port to anyone asking for a free one (port 0), while `listen` can still bind it again beside
    /// the reservation (both use SO_REUSEADDR and the reservation never listens). Returns nil when the port cannot
    /// be held; the caller then goes on without the reservation.
    static func reserve(host: String, port: UInt16) -> Int32? {
        try? self.bound(host: host, port: port)
    }

    private static func bound(host: String, port: UInt16) throws(HTTPServerError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = self.streamType
        // Numeric addresses only (plus "localhost"), so starting a server never waits for a name lookup.
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV | AI_NUMERICHOST
        var list: UnsafeMutablePointer<addrinfo>?
        let numeric = host == "localhost" ? "127.0.0.1" : host
        let status = getaddrinfo(numeric, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw .invalidHost(host: host, reason: reason)
        }
        defer { freeaddrinfo(list) }

        let info = first.pointee
        let fd = socket(info.ai_family, self.streamType, 0)
        guard fd >= 0 else { throw .socketFailed(operation: "socket", code: errno) }
        self.setCloseOnExec(fd)
        self.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
        guard bind(fd, info.ai_addr, info.ai_addrlen) == 0 else {
            let code = errno
            self.closeDescriptor(fd)
            if code == EADDRINUSE { throw .addressInUse(host: host, port: port) }
            if code == EADDRNOTAVAIL { throw .invalidHost(host: host, reason: self.describe(code)) }
            throw .socketFailed(operation: "bind", code: code)
        }
        return fd
    }

    private static func boundPort(_ fd: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
            }
        default:
            return nil
        }
    }
}

// `listen` is shadowed by `POSIXSocket.listen(host:port:)` inside the extension.
private func listenOnSocket(_ fd: Int32, _ backlog: Int32) -> Int32 {
    listen(fd, backlog)
}

/// The C library's `accept`, which `POSIXSocket.accept` hides inside the type.
private func systemAccept(_ listener: Int32) -> Int32 { accept(listener, nil, nil) }
