import Foundation

/// An embedded PubNub-compatible origin: an HTTP/1.1 server on a loopback port that answers the PubNub REST
/// protocol (PROTOCOL.md §3) for the 3.4 forms (v1 subscribe, JSONP callbacks) and the current SDKs' forms alike.
///
/// Start one with `LocalOrigin.start()`, point a client's `origin` setting at `address`, and `stop()` it when done.
/// Everything lives in memory and is bounded by the configuration; nothing is ever pushed to a device.
public final class LocalOrigin: @unchecked Sendable {
    // @unchecked: every stored property is an immutable `let` of a thread-safe type (`HTTPServer` and
    // `OriginHandler` guard their own state with their locks).

    /// Where the origin listens and how it bounds time and memory.
    public struct Configuration: Sendable {
        /// The numeric address to listen on (IPv4 or IPv6 literal, or `localhost`). Loopback by default.
        public var host = "127.0.0.1"
        /// The port to listen on; 0 lets the kernel choose (read it from `LocalOrigin.port`).
        public var port: UInt16 = 0
        /// Seconds a subscribe long-poll is held before it is answered empty with a fresh cursor. Must stay below the
        /// clients' 310 s read timeouts. Negative or not finite: the default, 280.
        public var longPollTimeout: TimeInterval = 280
        /// Seconds without subscribe or heartbeat after which a uuid times out of a channel, unless its requests
        /// carry `heartbeat=`. Zero, negative or not finite: the default, 300.
        public var defaultPresenceTimeout: TimeInterval = 300
        /// Seconds between presence-timeout checks; 0 or less turns them off (no `timeout` events then).
        public var presenceSweepInterval: TimeInterval = 1
        /// Messages kept per channel, for history and for subscribe catch-up; at least 100.
        public var historyLimitPerChannel = 1_000
        /// Channels kept (messages, presence and state); past it the least recently used one is forgotten.
        public var maxChannels = 100_000
        /// Accepted publish keys; `nil` accepts any non-empty key. A publish with another key gets
        /// 400 `[0,"Invalid Key","tt"]`.
        public var publishKeys: Set<String>? = nil
        /// Accepted subscribe keys; `nil` accepts any non-empty key. A request with another key gets
        /// 400 `{"message":"Invalid Subscribe Key","error":true,"service":"Access Manager","status":400}`.
        public var subscribeKeys: Set<String>? = nil
        /// Entries kept in `requestLog`.
        public var requestLogLimit = 1_000
        /// The HTTP server's parsing limits and thread count.
        public var limits = HTTPServerLimits()

        /// The defaults: 127.0.0.1, a kernel-chosen port, PubNub's timeouts, any keys.
        public init() {}
    }

    /// A snapshot of what the origin has done (see `OriginCounters`).
    public typealias Counters = OriginCounters

    /// The PubNub logic; internal so a fault-injection layer can reach it.
    let handler: OriginHandler
    /// The socket server in front of `handler`.
    let server: HTTPServer

    private init(handler: OriginHandler, server: HTTPServer) {
        self.handler = handler
        self.server = server
    }

    deinit {
        self.stop()
    }

    /// Starts an origin with `configuration` and returns once it accepts connections.
    ///
    /// - Throws: `HTTPServerError` when the address cannot be listened on (`.addressInUse`, `.invalidHost`,
    ///   `.socketFailed`).
    public static func start(_ configuration: Configuration = Configuration()) throws(HTTPServerError) -> LocalOrigin {
        var settings = OriginSettings()
        settings.longPollTimeout = configuration.longPollTimeout
        settings.defaultPresenceTimeout = configuration.defaultPresenceTimeout
        settings.presenceSweepInterval = configuration.presenceSweepInterval
        settings.historyLimitPerChannel = configuration.historyLimitPerChannel
        settings.maxChannels = configuration.maxChannels
        settings.publishKeys = configuration.publishKeys
        settings.subscribeKeys = configuration.subscribeKeys
        settings.requestLogLimit = configuration.requestLogLimit
        let handler = OriginHandler(settings: settings)
        let server = HTTPServer(
            host: configuration.host,
            port: configuration.port,
            limits: configuration.limits,
            handler: handler
        )
        do {
            try server.start()
        } catch {
            handler.stop()
            throw error
        }
        return LocalOrigin(handler: handler, server: server)
    }

    /// The address listened on, as configured.
    public var host: String { self.server.host }

    /// The port listened on (the kernel-chosen one when configured with 0).
    public var port: UInt16 { self.server.port }

    /// `HOST:PORT` (`[HOST]:PORT` for IPv6), the form a client's `origin` setting takes.
    public var address: String {
        self.host.contains(":") ? "[\(self.host)]:\(self.port)" : "\(self.host):\(self.port)"
    }

    /// Stops listening, closes every connection (parked long-polls get no answer), stops the timers, and returns
    /// once every server thread has ended. Idempotent. Called from a request observer (a server thread), it starts
    /// the stop and returns at once, as it cannot wait for its own thread.
    public func stop() {
        self.server.stop()
        self.handler.stop()
    }

    /// A snapshot of the counters.
    public var counters: Counters { self.handler.counters }

    /// The most recent requests (up to `Configuration.requestLogLimit`), oldest first, each logged when answered
    /// (a parked long-poll when its answer is sent, or with status 0 when its connection closed first).
    public var requestLog: [RequestLogEntry] { self.handler.requestLog }

    /// Adds `observer`, called once per answered (or dropped) request with its method, target and status — on a
    /// server thread, or on the origin's timer queue for long-polls that expire — after the answer was handed to
    /// the connection and never while the origin holds a lock. Observers cannot be removed; they live as long as
    /// the origin.
    public func addRequestObserver(_ observer: @escaping @Sendable (RequestLogEntry) -> Void) {
        self.handler.addRequestObserver(observer)
    }
}
