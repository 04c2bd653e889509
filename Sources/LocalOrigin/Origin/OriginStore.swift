import Foundation

// The origin's whole state. Not thread-safe by itself: `OriginHandler` owns one and touches it only while holding
// its lock. Operations never call a sink or an observer; they queue what must happen into `effects`, which the
// handler carries out after unlocking.

/// Limits and timeouts of the origin emulator.
struct OriginSettings: Sendable {
    /// Seconds a subscribe long-poll is held before it is answered empty.
    var longPollTimeout: Double = 280
    /// Seconds without subscribe or heartbeat before a uuid times out, unless its requests carry `heartbeat=`.
    var defaultPresenceTimeout: Double = 300
    /// Seconds between presence-timeout sweeps; 0 or less: no automatic sweeps (tests call `sweepPresence`).
    var presenceSweepInterval: Double = 1
    /// The occupancy above which a channel's presence goes into interval mode (`OriginStore+PresenceInterval.swift`).
    var presenceAnnounceMax = 20
    /// Seconds between a channel's `interval` events in interval mode (checked at each presence sweep).
    var presenceInterval: Double = 10
    /// Messages kept per channel for history and for subscribe catch-up; values below 100 count as 100.
    var historyLimitPerChannel = 1_000
    /// Channels kept; past it the least recently used one is forgotten. Values below 1 count as 1.
    var maxChannels = 100_000
    /// Channel groups kept; adding channels to a new group past it is refused.
    var maxChannelGroups = 10_000
    /// Channels per group (PubNub's own limit is 2,000).
    var maxChannelsPerGroup = 2_000
    /// Accepted publish keys; `nil`: any non-empty key.
    var publishKeys: Set<String>? = nil
    /// Accepted subscribe keys; `nil`: any non-empty key.
    var subscribeKeys: Set<String>? = nil
    /// Request log entries kept.
    var requestLogLimit = 1_000
    /// When set, every request must be signed with it (`OriginStore+Signature.swift`); otherwise signatures are
    /// ignored.
    var secretKey: String? = nil

    /// These settings with out-of-range values replaced, so no value a user configures can make the origin trap:
    /// timeouts not finite or negative fall back to the defaults, intervals are capped at a day, counts at their
    /// minimums.
    var sanitized: OriginSettings {
        var settings = self
        let day: Double = 86_400
        if !settings.longPollTimeout.isFinite || settings.longPollTimeout < 0 { settings.longPollTimeout = 280 }
        settings.longPollTimeout = min(settings.longPollTimeout, day)
        if !settings.defaultPresenceTimeout.isFinite || settings.defaultPresenceTimeout <= 0 {
            settings.defaultPresenceTimeout = 300
        }
        if !settings.presenceSweepInterval.isFinite { settings.presenceSweepInterval = 0 }
        if settings.presenceSweepInterval > 0 {
            settings.presenceSweepInterval = min(max(settings.presenceSweepInterval, 0.001), day)
        }
        settings.presenceAnnounceMax = max(0, settings.presenceAnnounceMax)
        if !settings.presenceInterval.isFinite || settings.presenceInterval <= 0 { settings.presenceInterval = 10 }
        settings.presenceInterval = min(settings.presenceInterval, day)
        settings.historyLimitPerChannel = max(100, settings.historyLimitPerChannel)
        settings.maxChannels = max(1, settings.maxChannels)
        settings.maxChannelGroups = max(0, settings.maxChannelGroups)
        settings.maxChannelsPerGroup = max(0, settings.maxChannelsPerGroup)
        settings.requestLogLimit = max(0, settings.requestLogLimit)
        return settings
    }
}

/// What one request is, for answering and logging.
struct Exchange: Sendable {
    /// The HTTP method.
    var method: String
    /// The raw request-target, for the log.
    var target: String
    /// Where the answer goes.
    var sink: any HTTPResponseSink
    /// The JSONP callback name, when the request carried one.
    var callback: String?
    /// The part of the service that answers it (its headers); set by the router.
    var service: OriginService = .edge
}

/// Work to do after the lock is released.
struct OriginEffects {
    /// Responses to write.
    var answers: [(sink: any HTTPResponseSink, response: HTTPResponse)] = []
    /// Log entries to hand to observers.
    var logged: [RequestLogEntry] = []
    /// Polls just parked: their sinks need an `onClose` hook.
    var parked: [(id: Int, sink: any HTTPResponseSink)] = []
}

/// The origin's state: channels, groups, push registrations, parked polls, counters and the request log.
final class OriginStore {
    let settings: OriginSettings
    /// The current Unix time; set by the handler on entry to every locked section.
    var now: Double = 0
    /// The current monotonic time in nanoseconds; set alongside `now` (long-poll deadlines use it).
    var uptime: UInt64 = 0
    var clock = TimetokenClock()
    private(set) var channels: [String: ChannelRecord] = [:]
    private weak var newest: ChannelRecord?
    private weak var oldest: ChannelRecord?
    /// Channels with at least one present uuid (what the presence sweep visits).
    var channelsWithMembers: Set<String> = []
    /// Channels in presence interval mode (what the sweep publishes `interval` events for).
    var intervalChannels: Set<String> = []
    /// Channel groups by name (`namespace:group` when created under a namespace).
    var groups: [String: OrderedNames] = [:]
    /// Push registrations by device.
    var pushDevices: [PushDevice: OrderedNames] = [:]
    var hub = SubscribeHub()
    var counters = OriginCounters()
    private var log: [RequestLogEntry] = []
    var effects = OriginEffects()

    init(settings: OriginSettings) {
        self.settings = settings.sanitized
    }

    /// Returns the queued effects and clears them.
    func takeEffects() -> OriginEffects {
        defer { self.effects = OriginEffects() }
        return self.effects
    }

    // MARK: - Answers and the request log

    /// Queues `reply` as the answer to `exchange` and logs it.
    func answer(_ exchange: Exchange, _ reply: OriginReply) {
        let response = reply.httpResponse(callback: exchange.callback, service: exchange.service)
        self.effects.answers.append((exchange.sink, response))
        self.record(exchange, status: reply.status)
    }

    /// Targets longer than this are cut in the log (a publish URL can be 32 KiB; the log keeps 1,000 entries).
    static let loggedTargetLimit = 2_048

    /// Logs `exchange` with `status` (0: dropped without an answer).
    func record(_ exchange: Exchange, status: Int) {
        var target = exchange.target
        if target.utf8.count > OriginStore.loggedTargetLimit {
            target = String(decoding: target.utf8.prefix(OriginStore.loggedTargetLimit), as: UTF8.self) + "…"
        }
        let entry = RequestLogEntry(
            date: Date(timeIntervalSince1970: self.now),
            method: exchange.method,
            target: target,
            status: status
        )
        self.effects.logged.append(entry)
        guard self.settings.requestLogLimit > 0 else { return }
        self.log.append(entry)
        if self.log.count >= 2 * self.settings.requestLogLimit {
            self.log.removeFirst(self.log.count - self.settings.requestLogLimit)
        }
    }

    /// The most recent log entries, oldest first.
    var requestLog: [RequestLogEntry] { Array(self.log.suffix(self.settings.requestLogLimit)) }

    // MARK: - Channel records (least recently used first out)

    /// The record of `name` when the origin has one, marked as just used.
    func record(_ name: String) -> ChannelRecord? {
        guard let record = self.channels[name] else { return nil }
        self.touch(record)
        return record
    }

    /// The record of `name`, created when missing; creating one past `maxChannels` forgets the least recently used.
    func recordCreating(_ name: String) -> ChannelRecord {
        if let record = self.record(name) { return record }
        while self.channels.count >= self.settings.maxChannels, let victim = self.oldest {
            self.forget(victim)
        }
        let record = ChannelRecord(name: name, capacity: self.settings.historyLimitPerChannel)
        self.channels[name] = record
        self.linkAsNewest(record)
        self.counters.channels = self.channels.count
        return record
    }

    private func touch(_ record: ChannelRecord) {
        guard self.newest !== record else { return }
        self.unlink(record)
        self.linkAsNewest(record)
    }

    private func linkAsNewest(_ record: ChannelRecord) {
        record.older = self.newest
        record.newer = nil
        self.newest?.newer = record
        self.newest = record
        if self.oldest == nil { self.oldest = record }
    }

    private func unlink(_ record: ChannelRecord) {
        if let newer = record.newer { newer.older = record.older } else { self.newest = record.older }
        if let older = record.older { older.newer = record.newer } else { self.oldest = record.newer }
        record.older = nil
        record.newer = nil
    }

    /// Drops everything about `record`'s channel (messages, presence, state), without presence events.
    private func forget(_ record: ChannelRecord) {
        self.unlink(record)
        self.channels[record.name] = nil
        self.channelsWithMembers.remove(record.name)
        self.intervalChannels.remove(record.name)
        self.counters.channels = self.channels.count
    }

    // MARK: - Messages

    /// Stores a message on `channel` with a new timetoken, in history unless `store` is false, and answers every
    /// parked poll that waits for it. Returns the timetoken.
    @discardableResult
    func append(
        channel: String,
        payload: String,
        publisher: String?,
        meta: String?,
        extras: PublishExtras = PublishExtras(),
        store: Bool
    ) -> UInt64 {
        let timetoken = self.clock.next(at: self.now)
        let message = StoredMessage(
            timetoken: timetoken,
            channel: channel,
            payload: payload,
            publisher: publisher,
            meta: meta,
            extras: extras
        )
        let record = self.recordCreating(channel)
        record.feed.append(message)
        if store {
            record.history.append(message)
            self.counters.messagesStored += 1
        }
        self.wakePolls(watching: channel)
        return timetoken
    }

    /// A fresh timetoken for the current time (time requests, empty subscribe answers).
    func nextTimetoken() -> UInt64 {
        self.clock.next(at: self.now)
    }
}
