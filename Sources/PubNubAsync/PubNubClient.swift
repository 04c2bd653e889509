import Foundation
import PlatformSupport
import PubNubLegacy

/// The `async`/`await` face of a PubNub 3.4 client, for code being modernised file by file (MIGRATION.md
/// "Modernising a ported app").
///
/// It drives a `PubNub` — one it creates, or one the app already uses (`init(wrapping:)`) — through the 3.4 API, so
/// calls made through both run on one connection in one call order, and every event still reaches the 3.4 delegate,
/// `PNObservationCenter` observers, notifications and blocks as before. The calls resume from the 3.4 completion
/// blocks, which run on the configuration's `deliveryQueue` (`DispatchQueue.main` by default): that queue must be
/// serviced (an app's run loop, `dispatchMain()`, or an `async` `main`), or choose another one.
///
/// Errors thrown are `PNError`s with the 3.4 codes (`kPN…Error`), except `CancellationError` when the calling task
/// is cancelled. A cancelled call returns at once. If it was still waiting for its turn behind earlier calls, it
/// leaves the queue and never runs: the 3.4 side — delegate, observers, notifications — never hears of it. If it
/// had started, it runs to its end, and the 3.4 side sees it complete exactly once. A call made from an
/// already-cancelled task throws `CancellationError` without starting.
///
/// Timeouts count from the call: `time()`, `publish`, `history` and `hereNow` throw 106 once
/// `nonSubscriptionRequestTimeout` has passed since the call, however long they waited for their turn
/// (docs/BEHAVIOR.md §1.2). After `PubNub.resetClient()` stopped the shared client this object wraps, or when its
/// `PubNub` is otherwise stopped, every call in flight and every call made later throws 105 instead of waiting.
public final class PubNubClient: Sendable {
    /// The default bound of `messages(on:bufferingNewest:)` and `presence(on:bufferingNewest:)`: 1,000 elements.
    public static let defaultBufferLimit = 1_000

    /// The bound of each `statuses` stream: 100 statuses.
    public static let statusBufferLimit = 100

    /// The 3.4 client this one drives; hand it to code that still uses the 3.4 API.
    public let legacy: PubNub

    private let hub = StreamHub()
    private let statusListener: Int
    /// How many times each 3.4 block the overlay passed ran, by call name (tests check exactly-once).
    let blockRuns = Locked<[String: Int]>([:])

    /// A new client with `configuration` (copied), without a delegate; `connect()` next.
    public convenience init(configuration: PNConfiguration) {
        self.init(wrapping: PubNub(configuration: configuration))
    }

    /// A client that drives `client` — the shared client or an instance — on its connection, beside its 3.4 users.
    /// Statuses and streams start with the events emitted after this call. Keep the shared client alive while this
    /// object lives: `PubNub.resetClient()` stops the client it wraps, and from then on every call throws 105.
    public init(wrapping client: PubNub) {
        self.legacy = client
        client.addEventSink(self.hub, toNotificationSlot: true)
        self.statusListener = client.addStatusListener { [hub] status in
            hub.statusReceived(status)
        }
    }

    deinit {
        self.legacy.removeStatusListener(self.statusListener)
        self.legacy.removeEventSink(self.hub)
        self.hub.finishAll()
    }

    // MARK: - Connection

    /// Connects to the configured origin (3.4 `connectWithSuccessBlock:errorBlock:`). Returns at once when already
    /// connected. Throws 100 without a valid configuration, 102 when the origin cannot be reached after the
    /// retries, the TLS error, or 105 when a `disconnect` ended the attempt.
    public func connect() async throws {
        guard !self.legacy.isConnected() else { return }
        let runs = self.blockRuns
        try await OneShot<Void>.run { shot in
            self.legacy.connectWithSuccessBlock(
                { _ in
                    Self.count("connect", in: runs)
                    shot.resume(.success(()))
                },
                errorBlock: { error in
                    Self.count("connect", in: runs)
                    if error?.code == kPNClientTriedConnectWhileConnectedError {
                        shot.resume(.success(()))
                    } else {
                        shot.resume(.failure(error ?? PNError(code: kPNRequestExecutionFailedClientNotReadyError)))
                    }
                }
            )
        }
    }

    /// Disconnects (3.4 `disconnect`): returns once the calls made before it completed and the disconnect ran
    /// (after `didDisconnectFromOrigin:` reached the 3.4 listeners). Returns at once when not connected.
    public func disconnect() async throws {
        try await OneShot<Void>.run { shot in
            self.legacy.disconnect { shot.resume(.success(())) }
        }
    }

    /// Forces a reconnect: closes the running long-poll and restores the subscription from its last time token, so
    /// a message published meanwhile is delivered once (an addition; 3.4 had no such call). The 3.4 delegate sees
    /// `willRestoreSubscriptionOnChannels:` and `didRestoreSubscriptionOnChannels:`, `statuses` a `reconnected`
    /// status. Returns when the restore ended (at most about 1 s when no message is waiting). Throws 105 when not
    /// connected; 104 while the network is down — the client then probes the origin at once and reconnects on its
    /// own when it answers (`reconnected` status); 103 when the network was lost during the restore.
    public func reconnect() async throws {
        try await OneShot<Void>.run { shot in
            self.legacy.forceReconnect { error in
                shot.resume(error.map { .failure($0) } ?? .success(()))
            }
        }
    }

    // MARK: - Subscription

    /// Subscribes to `channels` (3.4 `subscribeOnChannels:withPresenceEvent:andCompletionHandlingBlock:` with a
    /// presence event); `withPresence` also observes their presence (their `-pnpres` companions), for
    /// `presence(on:)`. Returns once the subscription includes them. Throws 104/105 when not connected, 111 for a
    /// refused name, 106 on timeout, 112/113 when access is denied.
    public func subscribe(to channels: [String], withPresence: Bool = false) async throws {
        let objects = channels.map { name in
            withPresence
                ? PNChannel.channelWithName(name, shouldObservePresence: true) : PNChannel.channelWithName(name)
        }
        let runs = self.blockRuns
        try await OneShot<Void>.run { shot in
            self.legacy.subscribeOnChannels(objects, withPresenceEvent: true) { state, _, error in
                Self.count("subscribe", in: runs)
                if state == .PNSubscriptionProcessSubscribedState {
                    shot.resume(.success(()))
                } else {
                    shot.resume(.failure(error ?? PNError(code: kPNUnknownError)))
                }
            }
        }
    }

    /// Unsubscribes from `channels` with a leave (3.4 `unsubscribeFromChannels:withPresenceEvent:…`). Throws 104/105
    /// when not connected, 111 for a refused name.
    public func unsubscribe(from channels: [String]) async throws {
        let objects = PNChannel.channelsWithNames(channels)
        let runs = self.blockRuns
        try await OneShot<Void>.run { shot in
            self.legacy.unsubscribeFromChannels(objects, withPresenceEvent: true) { _, error in
                Self.count("unsubscribe", in: runs)
                shot.resume(error.map { .failure($0) } ?? .success(()))
            }
        }
    }

    // MARK: - Requests

    /// Publishes `message` (any JSON value, as `sendMessage(_:toChannel:)` takes) to `channel` and returns the
    /// publish time token the origin answered with (0 if its answer carried none). Throws the 3.4 publish errors:
    /// 122 empty, 121 not JSON, 111 refused channel, 110 too large, 104/105 not connected, 106 timeout, ….
    @discardableResult
    public func publish(_ message: Any, to channel: String) async throws -> UInt64 {
        let runs = self.blockRuns
        let token = Locked<UInt64?>(nil)
        return try await OneShot<UInt64>.run { shot in
            self.legacy.sendMessage(
                message,
                toChannel: PNChannel.channelWithName(channel),
                withCompletionBlock: { state, value in
                    switch state {
                    case .PNMessageSending:
                        return
                    case .PNMessageSent:
                        Self.count("publish", in: runs)
                        shot.resume(.success(token.current ?? 0))
                    case .PNMessageSendingError:
                        Self.count("publish", in: runs)
                        shot.resume(.failure((value as? PNError) ?? PNError(code: kPNUnknownError)))
                    }
                },
                sentTimeToken: { token.set($0) }
            )
        }
    }

    /// The stored messages of `channel` (3.4 `requestHistoryForChannel:from:to:limit:reverseHistory:…`): the newest
    /// `limit` (1…100; clamped), oldest first, or the oldest `limit` with `reverse`. Throws 104/105, 111, 106,
    /// 112/113.
    public func history(of channel: String, limit: Int = 100, reverse: Bool = false) async throws -> [PNMessage] {
        let runs = self.blockRuns
        let count = UInt(min(max(limit, 1), 100))
        return try await OneShot<[PNMessage]>.run { shot in
            self.legacy.requestHistoryForChannel(
                PNChannel.channelWithName(channel),
                from: nil,
                to: nil,
                limit: count,
                reverseHistory: reverse
            ) { messages, _, _, _, error in
                Self.count("history", in: runs)
                if let error {
                    shot.resume(.failure(error))
                } else {
                    shot.resume(.success(messages ?? []))
                }
            }
        }
    }

    /// The uuids on `channel` now (3.4 `requestParticipantsListForChannel:withCompletionBlock:`). Throws 104/105,
    /// 111, 106, 107 (presence not enabled), 112/113.
    public func hereNow(_ channel: String) async throws -> [String] {
        let runs = self.blockRuns
        return try await OneShot<[String]>.run { shot in
            self.legacy.requestParticipantsListForChannel(PNChannel.channelWithName(channel)) { uuids, _, error in
                Self.count("hereNow", in: runs)
                if let error {
                    shot.resume(.failure(error))
                } else {
                    shot.resume(.success(uuids ?? []))
                }
            }
        }
    }

    /// The origin's time token, 100 ns units (3.4 `requestServerTimeTokenWithCompletionBlock:`). Throws 104/105,
    /// 106.
    public func time() async throws -> UInt64 {
        let runs = self.blockRuns
        return try await OneShot<UInt64>.run { shot in
            self.legacy.requestServerTimeTokenWithCompletionBlock { token, error in
                Self.count("time", in: runs)
                if let token, error == nil {
                    shot.resume(.success(token.uint64Value))
                } else {
                    shot.resume(.failure(error ?? PNError(code: kPNUnknownError)))
                }
            }
        }
    }

    // MARK: - Streams

    /// Messages received on `channel` (every subscribed channel when nil) from now on, in delivery order, after the
    /// 3.4 listeners got them. Subscribing is separate (`subscribe(to:)`). Holds up to `limit` messages its consumer
    /// has not read; beyond that the oldest is dropped and `statuses` reports it (`bufferOverflow`, with the
    /// channel and the count). Ends when this client is deallocated.
    public func messages(
        on channel: String? = nil,
        bufferingNewest limit: Int = defaultBufferLimit
    )
        -> AsyncStream<PNMessage>
    {
        self.hub.messages(on: channel, bufferingNewest: max(limit, 1))
    }

    /// Presence events (join, leave, timeout) of `channel` (every observed channel when nil) from now on; presence
    /// is observed for channels subscribed `withPresence`. Buffering and end as `messages(on:bufferingNewest:)`.
    public func presence(
        on channel: String? = nil,
        bufferingNewest limit: Int = defaultBufferLimit
    )
        -> AsyncStream<PNPresenceEvent>
    {
        self.hub.presence(on: channel, bufferingNewest: max(limit, 1))
    }

    /// A new stream of the 4.x statuses from now on — the ones `PNDelegate.pubnubClient(_:didReceiveStatus:)` gets,
    /// plus `bufferOverflow` reports of this client's streams. Each access makes a new stream. Holds up to
    /// `statusBufferLimit` unread statuses; beyond that the oldest is dropped, and a `bufferOverflow` status with the
    /// count follows once the consumer caught up. Ends when this client is deallocated.
    public var statuses: AsyncStream<PNStatus> {
        self.hub.statuses(bufferingNewest: Self.statusBufferLimit)
    }

    // MARK: - Helpers

    private static func count(_ call: String, in runs: Locked<[String: Int]>) {
        runs.withLock { $0[call, default: 0] += 1 }
    }
}
