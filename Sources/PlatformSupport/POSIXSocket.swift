// Thin wrappers over the POSIX socket calls the client transport and LocalOrigin's server need, so the rest of the
// socket code has no `#if`. Glibc and Darwin import the same C functions with slightly different Swift types
// (enum-typed constants on Glibc, `Int32` on Darwin); every difference is absorbed here. Only system calls: no
// protocol, no parsing.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// POSIX socket helpers. Functions report failures as `errno` values instead of throwing, so each caller decides
/// whether a failure is fatal for its connection or just "try again later". Every function may be called from any
/// thread; none keeps state.
package enum POSIXSocket {
    // MARK: - Constants

    /// `SOCK_STREAM` as the `Int32` `socket` takes.
    package static let streamType: Int32 = {
        #if canImport(Glibc)
        return Int32(SOCK_STREAM.rawValue)
        #else
        return SOCK_STREAM
        #endif
    }()

    /// Flags for `send`: on Linux `MSG_NOSIGNAL` keeps a write to a reset socket from raising SIGPIPE; Darwin uses
    /// the per-socket `SO_NOSIGPIPE` option instead (set in `configureStream`).
    private static let sendFlags: Int32 = {
        #if canImport(Glibc)
        return Int32(MSG_NOSIGNAL)
        #else
        return 0
        #endif
    }()

    /// `POLLIN` as a `pollfd` event.
    package static let pollIn = Int16(POLLIN)
    /// `POLLOUT` as a `pollfd` event.
    package static let pollOut = Int16(POLLOUT)
    /// The events `poll` reports for a broken descriptor: error, hang-up, invalid.
    package static let pollError = Int16(POLLERR) | Int16(POLLHUP) | Int16(POLLNVAL)

    /// One resolved address, copied out of the `addrinfo` list so the list can be freed at once.
    package struct Address: Sendable {
        package var family: Int32
        package var storage: sockaddr_storage
        package var length: socklen_t
    }

    // MARK: - Descriptors

    /// The calling thread's `errno`.
    package static var lastError: Int32 { errno }

    /// The `strerror` text for `code`, e.g. "Address already in use".
    package static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// Closes `fd` once.
    package static func closeDescriptor(_ fd: Int32) {
        // A failed close (EINTR included) still releases the descriptor on Linux and Darwin; retrying could close a
        // descriptor another thread just received.
        _ = close(fd)
    }

    /// Makes `fd` non-blocking; false when `fcntl` failed (`errno` set).
    @discardableResult
    package static func setNonBlocking(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL, 0)
        guard flags >= 0 else { return false }
        return fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0
    }

    /// Keeps `fd` out of child processes; false when `fcntl` failed (`errno` set).
    @discardableResult
    package static func setCloseOnExec(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFD, 0)
        guard flags >= 0 else { return false }
        return fcntl(fd, F_SETFD, flags | FD_CLOEXEC) == 0
    }

    /// `setsockopt` with an `Int32` value; false when it failed (`errno` set).
    @discardableResult
    package static func setOption(_ fd: Int32, level: Int32, name: Int32, value: Int32) -> Bool {
        var value = value
        return setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }

    /// Turns off the Nagle delay (requests and answers are small and latency-bound) and, on Darwin, SIGPIPE for every
    /// write to `fd` (OpenSSL's too).
    package static func configureStream(_ fd: Int32) {
        self.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
        #if canImport(Darwin)
        self.setOption(fd, level: SOL_SOCKET, name: SO_NOSIGPIPE, value: 1)
        #endif
    }

    /// Wakes whatever thread waits in `poll` on `fd` (it sees end of stream) without releasing the descriptor, so
    /// the descriptor number cannot be reused while its owner still holds it.
    package static func shutdownBoth(_ fd: Int32) {
        self.shutdown(fd, how: Int32(SHUT_RDWR))
    }

    /// Sends end of stream to the peer while what it sends can still be read.
    package static func shutdownWrite(_ fd: Int32) {
        self.shutdown(fd, how: Int32(SHUT_WR))
    }

    private static func shutdown(_ fd: Int32, how: Int32) {
        #if canImport(Glibc)
        _ = Glibc.shutdown(fd, how)
        #else
        _ = Darwin.shutdown(fd, how)
        #endif
    }

    /// Blocks SIGPIPE for the calling thread, so a write to a connection the peer reset fails with EPIPE instead of
    /// ending the process. OpenSSL writes with `write`, where no `MSG_NOSIGNAL` flag can be passed; the signal a
    /// blocked write raises stays pending on this thread and is dropped when the thread ends.
    package static func blockBrokenPipeSignal() {
        #if canImport(Glibc)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        _ = pthread_sigmask(SIG_BLOCK, &set, nil)
        #endif
        // Darwin: `SO_NOSIGPIPE` (set in `configureStream`) covers every write to the socket, OpenSSL's too.
    }

    // MARK: - Name resolution

    /// The addresses of `host`:`port` (IPv4 and IPv6, in the resolver's order), or the `getaddrinfo` error text.
    package static func resolve(host: String, port: UInt16) -> Result<[Address], ResolveError> {
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
    package struct ResolveError: Error {
        /// The resolver's text, or "no address" when it found no IPv4/IPv6 address.
        package var reason: String
    }

    // MARK: - Connecting

    /// A non-blocking stream socket for `address` (close-on-exec, `configureStream`), or -1 with `errno` set.
    package static func open(_ address: Address) -> Int32 {
        let fd = socket(address.family, self.streamType, 0)
        guard fd >= 0 else { return -1 }
        self.setCloseOnExec(fd)
        guard self.setNonBlocking(fd) else {
            let code = errno
            self.closeDescriptor(fd)
            errno = code
            return -1
        }
        self.configureStream(fd)
        return fd
    }

    /// Starts connecting `fd` to `address`: 0 when connected already, `EINPROGRESS` while under way, otherwise the
    /// `errno` of the failure.
    package static func startConnect(_ fd: Int32, to address: Address) -> Int32 {
        var storage = address.storage
        let result = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, address.length) }
        }
        if result == 0 { return 0 }
        let code = errno
        return code == EINTR ? EINPROGRESS : code
    }

    /// The pending error of a connect that `poll` reported done: 0 when it succeeded.
    package static func connectError(_ fd: Int32) -> Int32 {
        var code: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length) == 0 else { return errno }
        return code
    }

    // MARK: - I/O

    /// `send` that never raises SIGPIPE. Returns the byte count, or -1 with `errno` set.
    package static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
        #if canImport(Glibc)
        return Glibc.send(fd, bytes.baseAddress, bytes.count, self.sendFlags)
        #else
        return Darwin.send(fd, bytes.baseAddress, bytes.count, self.sendFlags)
        #endif
    }

    /// `recv` into `buffer`. Returns the byte count, 0 at end of stream, or -1 with `errno` set.
    package static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        #if canImport(Glibc)
        return Glibc.recv(fd, buffer.baseAddress, buffer.count, 0)
        #else
        return Darwin.recv(fd, buffer.baseAddress, buffer.count, 0)
        #endif
    }

    /// True for the `errno` values that mean "not now, try again": EAGAIN, EWOULDBLOCK, EINTR.
    package static func isTransient(_ code: Int32) -> Bool {
        code == EAGAIN || code == EWOULDBLOCK || code == EINTR
    }

    /// Waits up to `milliseconds` (-1: forever) for `events` on `fd`; returns the events seen (error and hang-up
    /// included), 0 on timeout, or -1 with `errno` set. Retries on EINTR.
    package static func wait(_ fd: Int32, for events: Int16, milliseconds: Int32) -> Int32 {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        while true {
            #if canImport(Glibc)
            let result = Glibc.poll(&entry, 1, milliseconds)
            #else
            let result = Darwin.poll(&entry, 1, milliseconds)
            #endif
            if result > 0 { return Int32(entry.revents) }
            if result == 0 { return 0 }
            if errno != EINTR { return -1 }
        }
    }

    /// `poll` over `fds`; retries on EINTR. `timeout` is in milliseconds, -1 for none. Returns what `poll` returned.
    package static func poll(_ fds: inout [pollfd], timeout: Int32) -> Int32 {
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
}
