// Thin wrappers over the POSIX socket calls the client transport and LocalOrigin's server need, so the rest of the
// socket code has no `#if`. The C libraries import the same C functions with slightly different Swift types
// (enum-typed constants on Glibc, `Int32` on Musl, Android and Darwin: `constant(_:)` takes both); the one
// behaviour that differs, keeping a write to a reset connection from raising SIGPIPE, is in the seam files
// `POSIXSocket+Darwin.swift` and `POSIXSocket+Linux.swift`. Only system calls: no protocol, no parsing.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

/// POSIX socket helpers. Functions report failures as `errno` values instead of throwing, so each caller decides
/// whether a failure is fatal for its connection or just "try again later". Every function may be called from any
/// thread; none keeps state.
package enum POSIXSocket {
    // MARK: - Constants

    /// `SOCK_STREAM` as the `Int32` `socket` takes.
    package static let streamType = POSIXSocket.constant(SOCK_STREAM)

    /// A C constant as `Int32`, whether the C library imports it as an `Int32` (Musl, Android, Darwin) or as an
    /// enum case (Glibc's `__socket_type`, `__rlimit_resource`).
    package static func constant(_ value: Int32) -> Int32 { value }

    /// A C constant Glibc imports as an enum case, as `Int32`.
    package static func constant<Constant: RawRepresentable>(_ value: Constant) -> Int32
    where Constant.RawValue: BinaryInteger {
        Int32(value.rawValue)
    }

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

    /// Turns off the Nagle delay (requests and answers are small and latency-bound) and, where the platform does it
    /// per socket (Darwin), SIGPIPE for every write to `fd` (OpenSSL's too): `configureBrokenPipe`.
    package static func configureStream(_ fd: Int32) {
        self.setOption(fd, level: Int32(IPPROTO_TCP), name: TCP_NODELAY, value: 1)
        self.configureBrokenPipe(fd)
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
        _ = systemShutdown(fd, how)
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
        let fd = socket(address.family, self.streamType | self.socketCreationFlags, 0)
        guard fd >= 0 else { return -1 }
        if self.socketCreationFlags == 0 {
            self.setCloseOnExec(fd)
            guard self.setNonBlocking(fd) else {
                let code = errno
                self.closeDescriptor(fd)
                errno = code
                return -1
            }
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
        systemSend(fd, bytes.baseAddress, bytes.count, self.sendFlags)
    }

    /// `recv` into `buffer`. Returns the byte count, 0 at end of stream, or -1 with `errno` set.
    package static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
        systemReceive(fd, buffer.baseAddress, buffer.count, 0)
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
            let result = systemPoll(&entry, 1, milliseconds)
            if result > 0 { return Int32(entry.revents) }
            if result == 0 { return 0 }
            if errno != EINTR { return -1 }
        }
    }

    /// `poll` over `fds`; retries on EINTR. `timeout` is in milliseconds, -1 for none. Returns what `poll` returned.
    package static func poll(_ fds: inout [pollfd], timeout: Int32) -> Int32 {
        while true {
            let result = fds.withUnsafeMutableBufferPointer { buffer in
                systemPoll(buffer.baseAddress, nfds_t(buffer.count), timeout)
            }
            if result >= 0 || errno != EINTR { return result }
        }
    }
}

// The C library's calls that `POSIXSocket` has members of the same name for: at file scope the names are the C
// library's, whichever module provides them.
private func systemShutdown(_ fd: Int32, _ how: Int32) -> Int32 { shutdown(fd, how) }
private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(fd, bytes, count, flags)
}
private func systemReceive(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    recv(fd, buffer, count, flags)
}
private func systemPoll(_ fds: UnsafeMutablePointer<pollfd>?, _ count: nfds_t, _ timeout: Int32) -> Int32 {
    poll(fds, count, timeout)
}
