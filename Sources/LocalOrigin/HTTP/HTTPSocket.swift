// Thin wrappers over the POSIX socket calls the server needs, so the rest of the HTTP code has no `#if`.
// Glibc and Darwin import the same C functions with slightly different Swift types (enum-typed constants on Glibc,
// `Int32` on Darwin); every difference is absorbed here.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// POSIX socket helpers. Every function returns `errno`-style failures instead of throwing, so the event loops can
/// decide per call whether a failure is fatal for a connection or just "try again later".
enum HTTPSocket {
    // MARK: - Constants

    static let streamType: Int32 = {
        #if canImport(Glibc)
        return Int32(SOCK_STREAM.rawValue)
        #else
        return SOCK_STREAM
        #endif
    }()

    /// Flags for `send`: on Linux `MSG_NOSIGNAL` keeps a write to a reset socket from raising SIGPIPE; Darwin uses
    /// the per-socket `SO_NOSIGPIPE` option instead (set in `configureAccepted`).
    static let sendFlags: Int32 = {
        #if canImport(Glibc)
        return Int32(MSG_NOSIGNAL)
        #else
        return 0
        #endif
    }()

    static let pollIn = Int16(POLLIN)
    static let pollOut = Int16(POLLOUT)
    static let pollError = Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)

    // MARK: - Descriptors

    static var lastError: Int32 { errno }

    /// The `strerror` text for `code`, e.g. "Address already in use".
    static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    static func closeDescriptor(_ fd: Int32) {
        // A failed close (EINTR included) still releases the descriptor on Linux and Darwin; retrying could close a
        // descriptor another thread just received.
        _ = close(fd)
    }

    @discardableResult
    static func setNonBlocking(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL, 0)
        guard flags >= 0 else { return false }
        return fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0
    }

    @discardableResult
    static func setCloseOnExec(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFD, 0)
        guard flags >= 0 else { return false }
        return fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0
    }

    static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) -> Bool {
        var value = value
        return setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// Prepares an accepted connection: non-blocking, no Nagle delay (answers are small and latency-bound), and on
    /// Darwin no SIGPIPE.
    static func configureAccepted(_ fd: Int32) {
        self.setNonBlocking(fd)
        self.setCloseOnExec(fd)
        _ = self.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
        #if canImport(Darwin)
        _ = self.setOption(fd, level: SOL_SOCKET, name: SO_NOSIGPIPE, value: 1)
        #endif
    }

    // MARK: - I/O

    /// `send` that never raises SIGPIPE. Returns the byte count, or -1 with `errno` set.
    static func send(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        return Glibc.send(fd, pointer, count, self.sendFlags)
        #else
        return Darwin.send(fd, pointer, count, self.sendFlags)
        #endif
    }

    /// `recv` into `buffer`. Returns the byte count, 0 at end of stream, or -1 with `errno` set.
    static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        #if canImport(Glibc)
        return Glibc.recv(fd, buffer.baseAddress, buffer.count, 0)
        #else
        return Darwin.recv(fd, buffer.baseAddress, buffer.count, 0)
        #endif
    }

    static func shutdownWrite(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
        #else
        _ = Darwin.shutdown(fd, SHUT_WR)
        #endif
    }

    static func isTransient(_ code: Int32) -> Bool {
        code == EAGAIN || code == EWOULDBLOCK || code == EINTR
    }

    /// `poll` over `fds`; retries on EINTR. `timeout` is in milliseconds, -1 for none.
    static func poll(_ fds: inout [pollfd], timeout: Int32) -> Int32 {
        while true {
            let result = fds.withUnsafeMutableBufferPointer { buffer in
                #if canImport(Glibc)
                return Glibc.poll(buffer.baseAddress, nfds_t(buffer.count), timeout)
                #else
                return Darwin.poll(buffer.baseAddress, nfds_t(buffer.count), timeout)
                #endif
            }
            if result >= 0 || errno != EINTR { return result }
        }
    }

    // MARK: - Accepting

    /// Accepts one pending connection and configures it (`configureAccepted`). Returns -1 with `errno` set when none is pending or on
    /// failure.
    static func accept(_ listener: Int32) -> Int32 {
        #if canImport(Glibc)
        let fd = Glibc.accept(listener, nil, nil)
        #else
        let fd = Darwin.accept(listener, nil, nil)
        #endif
        if fd >= 0 { self.configureAccepted(fd) }
        return fd
    }

    /// Raises the soft open-files limit to the hard limit, so a thousand parked long-polls (two descriptors each
    /// when the clients are in-process) fit. Failure is ignored: the server still works with fewer connections.
    static func raiseOpenFileLimit() {
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
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
        _ = self.setOption(fd, level: SOL_SOCKET, name: SO_REUSEADDR, value: 1)
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

// `listen` is shadowed by `HTTPSocket.listen(host:port:)` inside the enum.
private func listenOnSocket(_ fd: Int32, _ backlog: Int32) -> Int32 {
    listen(fd, backlog)
}
