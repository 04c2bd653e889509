import Foundation
import PlatformSupport

/// The PubNub 3.4 client: the facade that ported code calls as `PubNub.connect()`,
/// `PubNub.sendMessage(_:toChannel:)` and so on, plus instances for several clients in one process (docs/DESIGN.md §3).
///
/// Every static method forwards to `sharedInstance()`; the same method on an instance drives that instance.
/// Calls may be made from any thread. They never call back before returning: every outcome — delegate call,
/// observation-center observers, notification and completion block, in that order — arrives asynchronously on the
/// delivery queue (`PNConfiguration.deliveryQueue`, `DispatchQueue.main` by default). Operations run one at a time
/// in call order (3.4's operation lock); calls made while connecting wait and run once connected.
///
/// An `NSObject`, as in 3.4: `isEqual(_:)` and `hash` are identity's, `description` `NSObject`'s.
public final class PubNub: NSObject, @unchecked Sendable {
    // @unchecked: the stored properties are `engine`, whose state is confined to its queue and lock boxes, and
    // `statusAdapter`, a lock box.

    let engine: ClientEngine
    /// Derives the 4.x statuses; last in the notification slot.
    let statusAdapter = StatusAdapter()

    /// The most calls one client holds waiting for their turn: a call made while this many wait fails at once with
    /// `kPNRequestQueueFullError` (202) on every channel its failure has, instead of being queued (docs/BEHAVIOR.md
    /// §1.2). Calls never wait longer than their timeouts anyway; this bounds the memory of calls made faster than
    /// the origin answers (a storm of 16 unpaced threads queued millions).
    public static let maximumWaitingCalls = 10_000

    /// The shared client and the sinks every shared client gets (`PNObservationCenter.defaultCenter()`'s adapter).
    private static let shared = Locked(SharedState())

    private struct SharedState {
        var client: PubNub?
        var sinks: [any ClientEventSink] = []
        /// The engine timings of the next shared client (tests choose them through `resetClient(nextTimings:)`).
        var timings = EngineTimings.standard
    }

    // MARK: - Instances

    /// A client without configuration or delegate; call `setConfiguration(_:)` (or
    /// `setupWithConfiguration(_:andDelegate:)`) before `connect()`.
    public override convenience init() {
        self.init(configuration: nil, delegate: nil)
    }

    /// A client with `configuration` and `delegate` already applied, as `setupWithConfiguration(_:andDelegate:)`
    /// would. An invalid configuration is reported to the delegate (`pubnubClient(_:error:)`, code 100) and not
    /// applied.
    public convenience init(configuration: PNConfiguration?, delegate: (any PNDelegate)? = nil) {
        self.init(configuration: configuration, delegate: delegate, eventSinks: [])
    }

    /// Internal designated initializer: `eventSinks` join the observation-center slot (tests use recorders); tests
    /// may also choose the lanes, the engine's `timings` and the `clock` its timers run on.
    init(
        configuration: PNConfiguration?,
        delegate: (any PNDelegate)?,
        eventSinks: [any ClientEventSink],
        serviceLane: (any HTTPTransport)? = nil,
        longPollLane: (any HTTPTransport)? = nil,
        pipelineLane: (any HTTPTransport)? = nil,
        timings: EngineTimings = .standard,
        clock: any EngineClock = DispatchClock()
    ) {
        self.engine = ClientEngine(
            deliveryQueue: configuration?.deliveryQueue ?? DispatchQueue.main,
            serviceLane: serviceLane ?? RoutingTransport(maximumConnections: 4, label: "service"),
            // The long-poll lane gives every request a connection of its own: its answers are held by the origin, so
            // one unrequested answer on a reused connection would shift every later one (SocketTransport).
            longPollLane: longPollLane
                ?? RoutingTransport(maximumConnections: 2, label: "long-poll", reusesConnections: false),
            pipelineLane: pipelineLane ?? PipelinedTransport(label: "publish"),
            timings: timings,
            clock: clock
        )
        super.init()
        self.engine.dispatcher.attach(client: self)
        for sink in eventSinks {
            self.engine.dispatcher.addSink(sink, to: .observationCenter)
        }
        self.engine.dispatcher.addSink(NotificationAdapter(), to: .notifications)
        self.engine.dispatcher.addSink(self.statusAdapter, to: .notifications)
        if let configuration {
            self.setupWithConfiguration(configuration, andDelegate: delegate)
        } else {
            self.setDelegate(delegate)
        }
    }

    deinit {
        self.engine.shutdown()
    }

    /// Adds `sink` to a delivery slot: `PNObservationCenter` and the notification adapter plug in here.
    package func addEventSink(_ sink: any ClientEventSink, toNotificationSlot: Bool) {
        self.engine.dispatcher.addSink(sink, to: toNotificationSlot ? .notifications : .observationCenter)
    }

    /// Removes a sink added with `addEventSink(_:toNotificationSlot:)`.
    package func removeEventSink(_ sink: any ClientEventSink) {
        self.engine.dispatcher.removeSink(sink)
    }

    /// Adds `sink` to the observation-center slot of the current shared client and of every shared client created
    /// after a `resetClient()`: how `PNObservationCenter.defaultCenter()` follows the shared instance.
    ///
    /// The caller adds a given sink once. Without a shared client yet, the sink waits for the one `sharedInstance()`
    /// creates next.
    package static func addSharedInstanceSink(_ sink: any ClientEventSink) {
        self.shared.withLock { shared in
            shared.sinks.append(sink)
            shared.client?.engine.dispatcher.addSink(sink, to: .observationCenter)
        }
    }

    /// The origin of the applied configuration, nil before one was applied: what the connection-state observers
    /// receive with connection failures, which carry no origin of their own.
    package var configuredOrigin: String? {
        self.engine.snapshot.current.origin
    }

    // MARK: - Shared instance (`+sharedInstance`, `+resetClient`)

    /// The process-wide client the static methods drive, created on first use without configuration.
    public static func sharedInstance() -> PubNub {
        self.shared.withLock { shared in
            if let client = shared.client {
                return client
            }
            let client = PubNub(configuration: nil, delegate: nil, eventSinks: [], timings: shared.timings)
            client.engine.queue.async {
                client.engine.purgesChannelCacheOnDisconnect = true
            }
            for sink in shared.sinks {
                client.engine.dispatcher.addSink(sink, to: .observationCenter)
            }
            shared.client = client
            return client
        }
    }

    /// Tears the shared client down (3.4 `+resetClient`): requests are cancelled, the channel cache is purged, and
    /// the next `sharedInstance()` is a new client without configuration, delegate or identifier. The delegate, the
    /// observers and the notifications hear nothing of it, as in 3.4; but where 3.4 dropped the pending blocks, every
    /// call the old client accepted and had not completed — and every call still made on it, through a reference
    /// kept (a `PubNubClient` wrapping it) — completes once with 105 through its block alone, on the delivery
    /// queue. A `PubNub` instance the app releases does the same.
    public static func resetClient() {
        self.resetClient(nextTimings: .standard)
    }

    /// `resetClient()`, after which the next shared client runs its engine with `nextTimings`.
    static func resetClient(nextTimings: EngineTimings) {
        let client = self.shared.withLock { shared -> PubNub? in
            defer { shared.client = nil }
            shared.timings = nextTimings
            // The default observation center follows the shared instance: events of the old client still waiting
            // on its delivery queue must not reach the observers of the next one.
            for sink in shared.sinks {
                shared.client?.engine.dispatcher.removeSink(sink)
            }
            return shared.client
        }
        client?.engine.shutdown()
        PNChannel.purgeChannelsCache()
    }

    // MARK: - Lifecycle (`+connect` … `+clientIdentifier`, `-isConnected`)

    /// Connects to the configured origin (3.4 `+connect`); same as `connectWithSuccessBlock(nil, errorBlock: nil)`.
    public static func connect() {
        self.sharedInstance().connect()
    }

    /// Connects this client to its configured origin; see `connectWithSuccessBlock(_:errorBlock:)`.
    public func connect() {
        self.connectWithSuccessBlock(nil, errorBlock: nil)
    }

    /// Connects the shared client; see the instance method.
    public static func connectWithSuccessBlock(
        _ success: PNClientConnectionSuccessBlock?,
        errorBlock: PNClientConnectionFailureBlock?
    ) {
        self.sharedInstance().connectWithSuccessBlock(success, errorBlock: errorBlock)
    }

    /// Connects to the configured origin.
    ///
    /// `willConnectToOrigin:` and `didConnectToOrigin:` follow; `success` gets the origin after the latter. Without
    /// a valid configuration `errorBlock` gets 100 (also reported through `pubnubClient(_:error:)`); while
    /// connected or connecting, 101 goes to `connectionDidFailWithError:`, the connection observers, the
    /// notification and `errorBlock`, as in 3.4.2, and the connection in place is left alone. Calls run in call
    /// order, so a connect made while another runs is answered once that one finished. An attempt that fails after
    /// its retries (10 s each, 3 retries
    /// 2 s apart) reports `connectionDidFailWithError:` and `errorBlock` (102 when the origin cannot be reached, or
    /// the TLS error). While the origin is known to be unreachable, `errorBlock` gets 102 at once and the client
    /// connects on its own when a probe (every 10 s) finds the origin again. A `disconnect()` made while the connect
    /// is retrying ends it and calls `errorBlock(nil)`. Each block is called at most once, on the delivery queue.
    public func connectWithSuccessBlock(
        _ success: PNClientConnectionSuccessBlock?,
        errorBlock: PNClientConnectionFailureBlock?
    ) {
        let successBox = UserBlock(success)
        let failureBox = UserBlock(errorBlock)
        self.engine.enqueue {
            self.engine.connect(success: successBox, failure: failureBox)
        }
    }

    /// Disconnects the shared client; see the instance method.
    public static func disconnect() {
        self.sharedInstance().disconnect()
    }

    /// Closes the connection without sending leave requests (the origin times presence out).
    ///
    /// Runs in call order, as in 3.4.2: after every call made before it has completed, with all its callbacks
    /// (`connect(); subscribeOnChannels([a]); disconnect()` reports connect, subscribe, then disconnect). Then the
    /// subscription list is forgotten, `didDisconnectFromOrigin:` is delivered exactly once, and calls made after
    /// the disconnect fail with 105. A connect still retrying an origin that did not answer its first attempt is
    /// not waited for: it ends at once, its `errorBlock` getting nil. Does nothing when not connected.
    public func disconnect() {
        self.engine.enqueue {
            self.engine.requestDisconnect()
        }
    }

    /// Applies a configuration to the shared client; see the instance method.
    public static func setConfiguration(_ configuration: PNConfiguration) {
        self.sharedInstance().setConfiguration(configuration)
    }

    /// Applies `configuration`, keeping the current delegate.
    ///
    /// An invalid configuration (an empty key, a bad origin or timeout) is reported through
    /// `pubnubClient(_:error:)` with code 100 and not applied. While connected, a change of origin, TLS setting or
    /// auth key reconnects to the new origin and restores the subscription (hard reset, about 1 s); any other change
    /// applies to the next request. The configuration's values are copied: later changes to the object have no
    /// effect until it is applied again.
    public func setConfiguration(_ configuration: PNConfiguration) {
        // Not `setupWithConfiguration(_:andDelegate: delegate)`: writing back the delegate read here could undo a
        // `setDelegate` another thread makes meanwhile.
        self.apply(configuration)
    }

    /// Applies a configuration and delegate to the shared client; see the instance method.
    public static func setupWithConfiguration(_ configuration: PNConfiguration, andDelegate: (any PNDelegate)?) {
        self.sharedInstance().setupWithConfiguration(configuration, andDelegate: andDelegate)
    }

    /// Sets the delegate, then applies `configuration` as `setConfiguration(_:)` does. The delivery queue becomes
    /// the configuration's `deliveryQueue` for events emitted from now on. `configuration` (and, when the
    /// configuration names a `uuid`, `clientIdentifier()`) return the new values as soon as this returns.
    public func setupWithConfiguration(_ configuration: PNConfiguration, andDelegate: (any PNDelegate)?) {
        self.engine.dispatcher.delegate = andDelegate
        self.apply(configuration)
    }

    /// Applies `configuration` (or reports why it is invalid) for both setters.
    private func apply(_ configuration: PNConfiguration) {
        let settings = ClientSettings(configuration: configuration)
        if let error = configuration.validationError() {
            self.engine.enqueue {
                self.engine.emit(.error(error))
            }
            return
        }
        let applied = configuration.copied()
        // The getters' snapshot and the change handed to the queue in one step: concurrent setters then reach the
        // queue in the order they wrote the snapshot, so the last one written is the last one applied.
        self.engine.snapshot.withLock { snapshot in
            snapshot.configuration = applied
            if let uuid = settings.uuid {
                snapshot.requestedUUID = uuid
            }
            self.engine.dispatcher.setQueue(configuration.deliveryQueue)
            self.engine.enqueue {
                self.engine.applyConfiguration(settings)
                if let uuid = settings.uuid {
                    self.engine.setClientIdentifier(uuid)
                }
            }
        }
    }

    /// Sets the shared client's delegate; see the instance method.
    public static func setDelegate(_ delegate: (any PNDelegate)?) {
        self.sharedInstance().setDelegate(delegate)
    }

    /// Replaces the delegate (held weakly, as in 3.4); nil removes it. Events already on their way to the
    /// delivery queue go to the delegate set when they are delivered.
    public func setDelegate(_ delegate: (any PNDelegate)?) {
        self.engine.dispatcher.delegate = delegate
    }

    /// Sets the shared client's identifier; see the instance method.
    public static func setClientIdentifier(_ identifier: String?) {
        self.sharedInstance().setClientIdentifier(identifier)
    }

    /// Sets the identifier (`uuid`) the client presents; nil generates a new random one.
    ///
    /// `clientIdentifier()` returns the new value as soon as this returns. Not connected, or connected without
    /// channels: that is all, no traffic. Connected with channels: a soft reset follows — a leave for every channel
    /// with the old identifier (best effort, at most 10 s), then `didUnsubscribeOnChannels:`, then a subscribe to
    /// the same channels with the new identifier and `didSubscribeOnChannels:`; calls made meanwhile wait. Any
    /// characters are accepted (percent-escaped on the wire), but an empty identifier or one longer than
    /// `PNConfiguration.maximumUUIDLength` UTF-16 code units (the limit PubNub documents) is refused: the identifier
    /// stays as it was and `pubnubClient(_:error:)` (and `kPNClientErrorNotification`) reports a 100 error whose
    /// failure reason says why, on the delivery queue. Setting the current value again does nothing.
    public func setClientIdentifier(_ identifier: String?) {
        if let identifier, let problem = PNConfiguration.uuidProblem(identifier) {
            let error = PNError(
                domain: nil,
                code: kPNClientConfigurationError,
                message: nil,
                failureReason: "The client identifier was not changed: \(problem).",
                category: nil,
                associatedObject: nil,
                underlyingError: nil
            )
            self.engine.enqueue {
                self.engine.emit(.error(error))
            }
            return
        }
        let new = identifier ?? PNUniqueIdentifier()
        // One step, as in `setupWithConfiguration`: the identifier the getter shows last is the one applied last.
        self.engine.snapshot.withLock { snapshot in
            snapshot.requestedUUID = new
            self.engine.enqueue {
                self.engine.setClientIdentifier(new)
            }
        }
    }

    /// The shared client's identifier; see the instance method.
    public static func clientIdentifier() -> String? {
        self.sharedInstance().clientIdentifier()
    }

    /// The identifier the client presents: nil until the first `connect` unless one was set; generated once and
    /// kept across connects (3.5.1 rule). Right after `setClientIdentifier(_:)` it is the new value, also while the
    /// soft reset that applies it is still running.
    public func clientIdentifier() -> String? {
        self.engine.snapshot.withLock { $0.requestedUUID ?? $0.uuid }
    }

    /// 3.4's protected `configuration` property: a copy of the configuration applied last with
    /// `setConfiguration(_:)` or `setupWithConfiguration(_:andDelegate:)` (an invalid one is not applied), nil
    /// before the first. It has the new values as soon as the setter returns, although the client may still be
    /// switching to them (a hard reset reconnects about 1 s later). Changing the copy changes nothing: apply it
    /// again to use it.
    public var configuration: PNConfiguration? {
        self.engine.snapshot.withLock { $0.configuration }?.copied()
    }

    /// True only while the client is connected (not while connecting or recovering from a network loss).
    public func isConnected() -> Bool {
        self.engine.snapshot.current.connected
    }
}
