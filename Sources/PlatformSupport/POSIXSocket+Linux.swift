// Everywhere but Apple platforms (Linux with Glibc or Musl, Android): how a write to a connection the peer reset
// is kept from raising SIGPIPE — `send` takes `MSG_NOSIGNAL`; OpenSSL writes with `write`, which takes no flags, so
// the threads that drive TLS block the signal — and how a socket is made non-blocking and close-on-exec (in the
// `socket` call itself). The counterpart of `POSIXSocket+Darwin.swift`.

#if !canImport(Darwin)
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
    /// Flags for `send`: `MSG_NOSIGNAL`, so a write to a reset socket fails with EPIPE instead of raising SIGPIPE.
    static let sendFlags = Int32(MSG_NOSIGNAL)

    /// Flags `open` passes to `socket` with the type: non-blocking and close-on-exec from the start, in the one
    /// system call where `fcntl` would take four more.
    static let socketCreationFlags = POSIXSocket.constant(SOCK_NONBLOCK) | POSIXSocket.constant(SOCK_CLOEXEC)

    /// Nothing to set per socket: `sendFlags` and `blockBrokenPipeSignal` cover the writes.
    static func configureBrokenPipe(_ fd: Int32) {}

    /// Blocks SIGPIPE for the calling thread, so a write to a connection the peer reset fails with EPIPE instead of
    /// ending the process. OpenSSL writes with `write`, where no `MSG_NOSIGNAL` flag can be passed; the signal a
    /// blocked write raises stays pending on this thread and is dropped when the thread ends.
    package static func blockBrokenPipeSignal() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGPIPE)
        _ = pthread_sigmask(SIG_BLOCK, &set, nil)
    }
}
#endif
