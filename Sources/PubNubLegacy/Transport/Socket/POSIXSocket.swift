// Thin wrappers over the POSIX calls the client transport needs, so the rest of the socket code has no `#if`.
// Glibc and Darwin import the same C functions with slightly different Swift types; every difference is absorbed
// here.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// POSIX socket helpers for `SocketTransport`. Functions report failures as `errno` values instead of throwing, so
/// the callers decide which failure class each one is.
enum POSIXSocket {
    // MARK: - Constants

    static let streamType: Int32 = {
        #if canImport(Glibc)
        return Int32(SOCK_STREAM.rawValue)
        #else
        return SOCK_STREAM
        #endif
    }()

    /// Flags for `send`: on Linux `MSG_NOSIGNAL` keeps a write to a reset socket from raising SIGPIPE; Darwin uses
    /// the per-socket `SO_NOSIGPIPE` option instead (set in `open`).
    private static let sendFlags: Int32 = {
        #if canImport(Glibc)
        return Int32(MSG_NOSIGNAL)
        #else
        return 0
        #endif
    }()

    static let pollIn = Int16(POLLIN)
    static let pollOut = Int16(POLLOUT)

    /// One resolved address, copied out of the `addrinfo` list so the list can be freed at once.
    struct Address: Sendable {
        var family: Int32
        var storage: sockaddr_storage
        var length: socklen_t
    }

    // MARK: - Descriptors

    static var lastError: Int32 { errno }

    static func closeDescriptor(_ fd: Int32) {
        // A failed close (EINTR included) still releases the descriptor on Linux and Darwin; retrying could close a
        // descriptor another thread just received.
        _ = close(fd)
    }

    /// Wakes whatever thread waits in `poll` on `fd` (it sees end of stream) without releasing the descriptor, so
    /// the descriptor number cannot be reused while its owner still holds it.
    static func shutdownBoth(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
        #else
        _ = Darwin.shutdown(fd, SHUT_RDWR)
        #endif
    }

    /// Sends end of stream to the peer (no more requests) while answers can still be read.
    static func shutdownWrite(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
        #else
        _ = Darwin.shutdown(fd, SHUT_WR)
        #endif
    }

    /// Blocks SIGPIPE for the calling thread, so a write to a connection the peer reset fails with EPIPE instead of
    /// ending the process. OpenSSL writes with `write`, where no `MSG_NOSIGNAL` flag can be passed; the signal a
    /// blocked write raises stays pending on this thread and is dropped when the thread ends.
    static func blockBrokenPipeSignal() {
        #if canImport(Glibc)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        _ = pthread_sigmask(SIG_BLOCK, &set, nil)
        #endif
        // Darwin: `SO_NOSIGPIPE` (set in `open`) covers every write to the socket, OpenSSL's too.
    }

    private static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) {
        var value = value
        _ = setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    // MARK: - Name resolution

    /// The addresses of `host`:`port` (IPv4 and IPv6, in the resolver's order), or the `getaddrinfo` error text.
    static func resolve(host: String, port: UInt16) -> Result<[Address], ResolveError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = self.streamType
        hints.ai_flags = AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0 else {
            return .failure(ResolveError(reason: String(cString: gai_strerror(status))))
        }
        defer { freeaddrinfo(list) }
        var addresses: [Address] = []
        var next = list
        while let entry = next {
            let info = entry.pointee
            if let address = info.ai_addr, info.ai_family == AF_INET || info.ai_family == AF_INET6 {
                var storage = sockaddr_storage()
                let length = min(Int(info.ai_addrlen), MemoryLayout<sockaddr_storage>.size)
                withUnsafeMutableBytes(of: &storage) { target in
                    target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: length))
                }
                addresses.append(Address(family: info.ai_family, storage: storage, length: socklen_t(length)))
            }
            next = info.ai_next
        }
        if addresses.isEmpty { return .failure(ResolveError(reason: "no address")) }
        return .success(addresses)
    }

    /// Why a name could not be resolved.
    struct ResolveError: Error {
        var reason: String
    }

    // MARK: - Connecting

    /// A non-blocking stream socket for `address` (close-on-exec, no Nagle delay, on Darwin no SIGPIPE), or -1 with
    /// `errno` set.
    static func open(_ address: Address) -> Int32 {
        let fd = socket(address.family, self.streamType, 0)
        guard fd >= 0 else { return -1 }
        let descriptorFlags = fcntl(fd, F_GETFD, 0)
        if descriptorFlags >= 0 { _ = fcntl(fd, F_SETFD, descriptorFlags | FD_CLOEXEC) }
        let statusFlags = fcntl(fd, F_GETFL, 0)
        guard statusFlags >= 0, fcntl(fd, F_SETFL, statusFlags | O_NONBLOCK) == 0 else {
            let code = errno
            self.closeDescriptor(fd)
            errno = code
            return -1
        }
        self.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
        #if canImport(Darwin)
        self.setOption(fd, level: SOL_SOCKET, name: SO_NOSIGPIPE, value: 1)
        #endif
        return fd
    }

    /// Starts connecting `fd` to `address`: 0 when connected already, `EINPROGRESS` while under way, otherwise the
    /// `errno` of the failure.
    static func startConnect(_ fd: Int32, to address: Address) -> Int32 {
        var storage = address.storage
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, address.length) }
        }
        if result == 0 { return 0 }
        let code = errno
        return code == EINTR ? EINPROGRESS : code
    }

    /// The pending error of a connect that `poll` reported done: 0 when it succeeded.
    static func connectError(_ fd: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    // MARK: - I/O

    /// `send` that never raises SIGPIPE. Returns the byte count, or -1 with `errno` set.
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
        return Glibc.send(fd, bytes.baseAddress, bytes.count, self.sendFlags)
        #else
        return Darwin.send(fd, bytes.baseAddress, bytes.count, self.sendFlags)
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

    static func isTransient(_ code: Int32) -> Bool {
        code == EAGAIN || code == EWOULDBLOCK || code == EINTR
    }

    /// Waits up to `milliseconds` (-1: forever) for `events` on `fd`; returns the events seen (error and hang-up
    /// included), 0 on timeout, or -1 with `errno` set. Retries on EINTR.
    static func wait(_ fd: Int32, for events: Int16, milliseconds: Int32) -> Int32 {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        while true {
            let result = poll(&entry, 1, milliseconds)
            if result > 0 { return Int32(entry.revents) }
            if result == 0 { return 0 }
            if errno != EINTR { return -1 }
        }
    }
}
