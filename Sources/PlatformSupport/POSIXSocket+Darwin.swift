// Apple platforms only: how a write to a connection the peer reset is kept from raising SIGPIPE — Darwin has no
// `MSG_NOSIGNAL` for `send`, but a per-socket option that covers every write to the socket, OpenSSL's too — and how
// a socket is made non-blocking and close-on-exec (with `fcntl`: Darwin's `socket` takes no such flags).
// `Scripts/check-apple-branches.py` type-checks this file on Linux against `Tests/AppleStandIns/Darwin.swift`;
// `POSIXSocket+Linux.swift` is its counterpart.

#if canImport(Darwin)
import Darwin

extension POSIXSocket {
    /// Flags for `send`: none needed, `configureBrokenPipe` set `SO_NOSIGPIPE` on the socket.
    static let sendFlags: Int32 = 0

    /// None: Darwin's `socket` takes no flags with the type, so `open` sets close-on-exec and non-blocking with
    /// `fcntl` after it.
    static let socketCreationFlags: Int32 = 0

    /// Sets `SO_NOSIGPIPE` on `fd`: writes to a reset connection fail with EPIPE instead of raising SIGPIPE.
    static func configureBrokenPipe(_ fd: Int32) {
        self.setOption(fd, level: SOL_SOCKET, name: SO_NOSIGPIPE, value: 1)
    }

    /// Nothing to do on Darwin: `SO_NOSIGPIPE` (`configureStream`) covers every write to the socket, OpenSSL's too.
    package static func blockBrokenPipeSignal() {}
}
#endif
