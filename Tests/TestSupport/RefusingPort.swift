import Foundation

/// A port on 127.0.0.1 that refuses every connection for as long as this value lives: its socket is bound and never
/// listened on, so the kernel answers a connect with a reset and gives the port to nobody else.
///
/// Use it instead of stopping a server and reusing its address: while tests run side by side, a stopped server's
/// port can be handed to another test's server, which then accepts the connection meant to be refused.
public final class RefusingPort: Sendable {
    /// The refusing port.
    public let port: UInt16
    private let socket: FileHandle

    /// Binds a new socket to a port the kernel chooses; nil when the system gives no socket or port.
    public init?() {
        let descriptor = LoopbackSocket.tcp()
        guard descriptor >= 0 else { return nil }
        let socket = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        guard LoopbackSocket.bind(descriptor, port: 0) == 0, let port = LoopbackSocket.localPort(descriptor) else {
            return nil
        }
        self.socket = socket
        self.port = port
    }

    /// `127.0.0.1:PORT`, the form an origin setting takes.
    public var address: String { "127.0.0.1:\(self.port)" }

    deinit {
        try? self.socket.close()
    }
}
