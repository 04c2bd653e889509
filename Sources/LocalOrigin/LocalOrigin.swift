import Foundation
import PlatformSupport

/// An embedded PubNub-compatible origin: an HTTP/1.1 server on a loopback port that answers the PubNub REST
/// protocol (docs/PROTOCOL.md §3) for the 3.4 forms (v1 subscribe, JSONP callbacks) and the current SDKs' forms alike.
///
/// Start one with `LocalOrigin.start()`, point a client's `origin` setting at `address`, and `stop()` it when done.
/// Everything lives in memory and is bounded by the configuration; nothing is ever pushed to a device.
///
/// Faults can be injected to test a client against bad networks and bad servers (`inject(_:on:count:)`,
/// `restart(keepingStore:)`, see `LocalOrigin+Faults.swift`). Every method may be called from any thread.
public final class LocalOrigin: @unchecked Sendable {
    // @unchecked: the server, the handler and the life-cycle phase live in `control`, and the request observers in
    // `observers`, both `Locked` boxes; every other stored property is an immutable `let` of a thread-safe type.

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
        /// Seconds between presence-timeout checks; 0 or less turns them off (no `timeout` or `interval` events
        /// then).
        public var presenceSweepInterval: TimeInterval = 1
        /// The occupancy above which a channel's presence goes into interval mode, as the service's "announce max":
        /// no more `join`/`leave`/`timeout` events, one `interval` event every `presenceInterval` seconds with the
        /// occupancy and the uuids that joined, left or timed out meanwhile. Negative counts as 0.
        public var presenceAnnounceMax = 20
        /// Seconds between a channel's `interval` events, checked at each presence sweep. Zero, negative or not
        /// finite: the default, 10.
        public var presenceInterval: TimeInterval = 10
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
        /// The key set's secret key. When set (and not empty), every request must carry `timestamp` and a valid
        /// `signature` as current SDKs send them (v2 for every request; v1 accepted for POST publish, as the Python
        /// SDK signs it), with a timestamp within 300 s of the origin's clock; anything else is answered 403
        /// `{"message":"Signature does not match"|"Invalid timestamp","error":true,"service":"Access Manager",
        /// "status":403}`. The signed publish key is the one in a publish path, else one of `publishKeys`: set those
        /// too, or only publishes can be verified. `nil` (the default): signatures are ignored.
        public var secretKey: String? = nil
        /// Entries kept in `requestLog`.
        public var requestLogLimit = 1_000
        /// The HTTP server's parsing limits and thread count.
        public var limits = HTTPServerLimits()

        /// The defaults: 127.0.0.1, a kernel-chosen port, PubNub's timeouts, any keys.
        public init() {}
    }

    /// A snapshot of what the origin has done (see `OriginCounters`).
    public typealias Counters = OriginCounters

    /// Where the origin is in its life. A restart replaces the server (and, when it starts empty, the handler).
    enum Phase {
        case running
        /// A restart could not listen again: nothing accepts connections until the next restart.
        case down
        /// A restart is under way; `done` opens when it ends. `stopWhenDone`: `stop()` was called meanwhile on a
        /// server thread, which cannot wait, so the restart stops the origin when it ends.
        case restarting(done: Latch, stopWhenDone: Bool)
        case stopped
    }

    /// The parts a restart replaces, and the phase.
    struct Control {
        var server: HTTPServer
        var handler: OriginHandler
        var phase: Phase
    }

    /// The origin's settings, for the handler a restart creates.
    let settings: OriginSettings
    /// The HTTP limits, for the server a restart creates.
    let limits: HTTPServerLimits
    /// The fault-injection layer: the `HTTPHandler` of every server this origin runs, in front of the PubNub logic.
    let faults: FaultInjector
    let control: Locked<Control>
    /// The request observers; every handler this origin runs relays to them.
    let observers = Locked<[@Sendable (RequestLogEntry) -> Void]>([])

    private init(settings: OriginSettings, limits: HTTPServerLimits, faults: FaultInjector, control: Control) {
        self.settings = settings
        self.limits = limits
        self.faults = faults
        self.control = Locked(control)
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
        settings.presenceAnnounceMax = configuration.presenceAnnounceMax
        settings.presenceInterval = configuration.presenceInterval
        settings.historyLimitPerChannel = configuration.historyLimitPerChannel
        settings.maxChannels = configuration.maxChannels
        settings.publishKeys = configuration.publishKeys
        settings.subscribeKeys = configuration.subscribeKeys
        settings.requestLogLimit = configuration.requestLogLimit
        settings.secretKey = configuration.secretKey
        let handler = OriginHandler(settings: settings)
        let faults = FaultInjector(origin: handler)
        let server = HTTPServer(
            host: configuration.host,
            port: configuration.port,
            limits: configuration.limits,
            handler: faults
        )
        do {
            try server.start()
        } catch {
            faults.stop()
            handler.stop()
            throw error
        }
        let origin = LocalOrigin(
            settings: settings,
            limits: configuration.limits,
            faults: faults,
            control: Control(server: server, handler: handler, phase: .running)
        )
        handler.addRequestObserver(origin.relayToObservers)
        return origin
    }

    /// The address listened on, as configured.
    public var host: String { self.control.withLock { $0.server }.host }

    /// The port listened on (the kernel-chosen one when configured with 0). A restart keeps it.
    public var port: UInt16 { self.control.withLock { $0.server }.port }

    /// `HOST:PORT` (`[HOST]:PORT` for IPv6), the form a client's `origin` setting takes. A restart keeps it.
    public var address: String {
        self.host.contains(":") ? "[\(self.host)]:\(self.port)" : "\(self.host):\(self.port)"
    }

    /// Stops listening, closes every connection (parked long-polls and requests held by faults get no answer),
    /// clears every fault, stops the timers, and returns once every server thread has ended. Idempotent. Called
    /// from a request observer (a server thread), it starts the stop and returns at once, as it cannot wait for its
    /// own thread. Waits for a restart under way to end first.
    public func stop() {
        enum Step {
            case wait(Latch)
            case stop(HTTPServer, OriginHandler)
            case nothing
        }
        while true {
            let step = self.control.withLock { control -> Step in
                switch control.phase {
                case .restarting(let done, _):
                    guard LocalOrigin.isServerThread else { return .wait(done) }
                    control.phase = .restarting(done: done, stopWhenDone: true)
                    return .nothing
                case .running, .down, .stopped:
                    control.phase = .stopped
                    return .stop(control.server, control.handler)
                }
            }
            switch step {
            case .wait(let done):
                done.wait()
            case .stop(let server, let handler):
                // Each of these is idempotent and waits for a stop already under way, so a second caller returns
                // only once everything has ended too.
                server.stop()
                self.faults.stop()
                handler.stop()
                return
            case .nothing:
                return
            }
        }
    }

    /// A snapshot of the counters. After a restart that starts empty they start again from zero.
    public var counters: Counters { self.control.withLock { $0.handler }.counters }

    /// The most recent requests (up to `Configuration.requestLogLimit`), oldest first, each logged when answered
    /// (a parked long-poll when its answer is sent, or with status 0 when its connection closed first). Requests a
    /// fault answered in the origin's place are not in it (see `OriginFault`). A restart that starts empty starts
    /// a new log.
    public var requestLog: [RequestLogEntry] { self.control.withLock { $0.handler }.requestLog }

    /// Adds `observer`, called once per answered (or dropped) request with its method, target and status — on a
    /// server thread; on the origin's timer queue for long-polls that expire; on the fault layer's timer queue, or
    /// the thread that cleared the fault, for subscribes a `stallSubscribe` fault released — after the answer was
    /// handed to the connection and never while the origin holds a lock. Observers cannot be removed; they live as long as
    /// the origin, across restarts.
    public func addRequestObserver(_ observer: @escaping @Sendable (RequestLogEntry) -> Void) {
        self.observers.withLock { $0.append(observer) }
    }

    /// The observer every handler of this origin gets: relays to `observers` without keeping the origin alive.
    var relayToObservers: @Sendable (RequestLogEntry) -> Void {
        { [observers = self.observers] entry in
            for observer in observers.withLock({ $0 }) { observer(entry) }
        }
    }

    /// True on the threads of the origin's HTTP servers (where request observers run), which a restart waits for.
    static var isServerThread: Bool {
        ServerThread.isCurrent
    }
}
