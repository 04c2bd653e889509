import Dispatch
import Foundation
import PlatformSupport
import PubNubLegacy

/// Workloads 1–3 of `LegacyDemo bench`: three clients of one origin — `publisher`, `pipelinedPublisher` (the same
/// with pipelined publishes) and `subscriber` — used through the public API and their delegates, as an app would.
///
/// Every wait has a deadline, so a broken origin or client ends the run with a `BenchError` instead of hanging.
/// Times come from one monotonic clock: both clients live in this process, so a message can carry its own send
/// time and the subscriber's delegate computes the latency on arrival.
final class BenchWorkloads {
    private let publisher: BenchClient
    /// A second publisher with `publishPipelineDepth` = `pipelineDepth`, for the pipelined rows.
    private let pipelinedPublisher: BenchClient
    private let subscriber: BenchClient
    /// Publishes the pipelined publisher writes before their answers arrive.
    static let pipelineDepth = 32
    private let latencyChannel: PNChannel
    private let deliveryChannel: PNChannel
    private let pipelinedDeliveryChannel: PNChannel
    private let throughputChannel: PNChannel
    /// Seconds allowed per message beyond a fixed allowance, for the deadlines below: generous, because only a
    /// broken run should ever reach them.
    private static let secondsPerMessage = 0.02
    private static let setupTimeout = 15.0
    private static let drainTimeout = 5.0

    init(address: String, publishKey: String, subscribeKey: String, secure: Bool = false, caFile: String? = nil) {
        let run = String(UInt32.random(in: 0...UInt32.max), radix: 36)
        self.publisher = BenchClient(
            name: "publisher",
            address: address,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secure: secure,
            caFile: caFile
        )
        self.pipelinedPublisher = BenchClient(
            name: "pipelined-publisher",
            address: address,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secure: secure,
            caFile: caFile,
            pipelineDepth: Self.pipelineDepth
        )
        self.subscriber = BenchClient(
            name: "subscriber",
            address: address,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secure: secure,
            caFile: caFile
        )
        self.throughputChannel = PNChannel.channelWithName("bench-\(run)-publish")
        self.latencyChannel = PNChannel.channelWithName("bench-\(run)-latency")
        self.deliveryChannel = PNChannel.channelWithName("bench-\(run)-delivery")
        self.pipelinedDeliveryChannel = PNChannel.channelWithName("bench-\(run)-delivery-pipelined")
    }

    /// Connects both clients and subscribes the subscriber to the latency and delivery channels.
    func start() throws {
        try self.publisher.connect(timeout: Self.setupTimeout)
        try self.pipelinedPublisher.connect(timeout: Self.setupTimeout)
        try self.subscriber.connect(timeout: Self.setupTimeout)
        try self.subscriber.subscribe(
            [self.latencyChannel, self.deliveryChannel, self.pipelinedDeliveryChannel],
            timeout: Self.setupTimeout
        )
    }

    /// The publishing client, for the `PubNubAsync` publish figures (`BenchAsyncPublish`).
    var publisherClient: PubNub { self.publisher.client }

    /// The publish-throughput channel's name.
    var throughputChannelName: String { self.throughputChannel.name }

    /// Disconnects both clients.
    func stop() {
        self.publisher.disconnect(timeout: 5)
        self.pipelinedPublisher.disconnect(timeout: 5)
        self.subscriber.disconnect(timeout: 5)
    }

    // MARK: - 1. Publish throughput

    /// Publishes `count` messages on one channel with calls made back to back (the client queues them and sends
    /// them in call order, one at a time — or, `pipelined`, up to `pipelineDepth` on the wire at once) and returns
    /// acknowledged messages per second: `count` over the time from the first call to the last `didSendMessage:`.
    /// Throws when a publish fails or is acknowledged out of order.
    func publishThroughput(count: Int, pipelined: Bool = false) throws -> Double {
        let acknowledged = BenchCounter()
        let publisher = pipelined ? self.pipelinedPublisher : self.publisher
        publisher.handle(
            (
                sent: { message in
                    if let number = Self.number(inSent: message, key: "n") { acknowledged.record(number) }
                },
                received: nil,
                failed: { acknowledged.fail($0) }
            )
        )
        let started = nowNanos()
        for number in 0..<count {
            guard publisher.client.sendMessage(["n": number], toChannel: self.throughputChannel) != nil else {
                throw BenchError("publish throughput: message \(number) was refused before sending")
            }
        }
        try acknowledged.wait(
            for: count,
            until: deadline(in: Self.setupTimeout + Double(count) * Self.secondsPerMessage),
            what: "publish throughput"
        )
        guard acknowledged.reorderedCount == 0 else {
            throw BenchError("publish throughput: \(acknowledged.reorderedCount) acknowledgements out of call order")
        }
        return Double(count) / Self.seconds(from: started, to: acknowledged.lastArrival)
    }

    // MARK: - 2. Latency

    /// Publishes `count` messages, one every `interval` seconds — or, when the previous one is not acknowledged
    /// by then, as soon as it is, so the client's own publish queue never adds waiting time — and returns the
    /// 50th and 99th percentile of the time from the `sendMessage` call to the subscriber's `didReceiveMessage:`,
    /// in milliseconds. Throws when a message is not delivered in time.
    func latency(count: Int, interval: Double) throws -> (p50: Double, p99: Double, slipped: Int) {
        let acknowledged = BenchCounter()
        let arrived = BenchCounter()
        self.publisher.handle(
            (
                sent: { message in
                    if let number = Self.number(inSent: message, key: "seq") { acknowledged.record(number) }
                },
                received: nil,
                failed: { acknowledged.fail($0) }
            )
        )
        let channel = self.latencyChannel.name
        self.subscriber.handle(
            (
                sent: nil,
                received: { message in
                    let now = nowNanos()
                    guard message.channel?.name == channel, let fields = message.message as? [String: Any],
                        let number = jsonInteger(fields["seq"]), let sent = jsonInteger(fields["t"])
                    else { return }
                    arrived.record(number, sample: Double(now &- UInt64(sent)) / 1e6)
                },
                failed: { arrived.fail($0) }
            )
        )
        let started = nowNanos()
        var slipped = 0
        for number in 0..<count {
            let slot = started + UInt64(Double(number) * interval * 1e9)
            let now = nowNanos()
            if now < slot {
                // Pacing, not synchronisation: the next message is due at its slot.
                Thread.sleep(forTimeInterval: Double(slot - now) / 1e9)
            }
            if number > 0 {
                try acknowledged.wait(for: number, until: deadline(in: Self.setupTimeout), what: "latency: publish")
                if nowNanos() > slot + UInt64(interval * 1e9) { slipped += 1 }
            }
            let payload: [String: Any] = ["seq": number, "t": Int(nowNanos())]
            guard self.publisher.client.sendMessage(payload, toChannel: self.latencyChannel) != nil else {
                throw BenchError("latency: message \(number) was refused before sending")
            }
        }
        try arrived.wait(for: count, until: deadline(in: Self.setupTimeout), what: "latency: delivery")
        let samples = arrived.allSamples
        return (percentile(0.5, of: samples), percentile(0.99, of: samples), slipped)
    }

    // MARK: - 3. Delivery throughput

    /// Publishes `count` messages back to back while the subscriber receives them, and returns messages received
    /// per second (distinct messages over the time from the first publish call to the last arrival) and how many
    /// never arrived within a few seconds of the last acknowledgement; also the seconds from the first call to the
    /// last acknowledgement and to the last arrival.
    /// `pipelined`: published by the client with `publishPipelineDepth` = `pipelineDepth`.
    func delivery(
        count: Int,
        pipelined: Bool = false
    ) throws -> (rate: Double, lost: Int, duplicated: Int, published: Double, received: Double) {
        let acknowledged = BenchCounter()
        let arrived = BenchCounter()
        let publisher = pipelined ? self.pipelinedPublisher : self.publisher
        publisher.handle(
            (
                sent: { message in
                    if let number = Self.number(inSent: message, key: "n") { acknowledged.record(number) }
                },
                received: nil,
                failed: { acknowledged.fail($0) }
            )
        )
        let deliveryChannel = pipelined ? self.pipelinedDeliveryChannel : self.deliveryChannel
        let channel = deliveryChannel.name
        // How far the subscriber fell behind the acknowledged publishes: an origin keeps a bounded number of messages
        // per channel (LocalOrigin: `historyLimitPerChannel`, 1,000), and a subscriber further behind loses the oldest.
        let behind = Locked(0)
        self.subscriber.handle(
            (
                sent: nil,
                received: { message in
                    guard message.channel?.name == channel, let fields = message.message as? [String: Any],
                        let number = jsonInteger(fields["n"])
                    else { return }
                    arrived.record(number)
                    let lag = acknowledged.count - arrived.count
                    behind.withLock { $0 = max($0, lag) }
                },
                failed: { arrived.fail($0) }
            )
        )
        let started = nowNanos()
        for number in 0..<count {
            guard publisher.client.sendMessage(["n": number], toChannel: deliveryChannel) != nil else {
                throw BenchError("delivery: message \(number) was refused before sending")
            }
        }
        try acknowledged.wait(
            for: count,
            until: deadline(in: Self.setupTimeout + Double(count) * Self.secondsPerMessage),
            what: "delivery: publish"
        )
        // Lost messages are a figure of this workload, not a reason to stop: wait a little, then count.
        try? arrived.wait(for: count, until: deadline(in: Self.drainTimeout), what: "delivery")
        let received = arrived.count
        guard received > 0 else { throw BenchError("delivery: no message arrived") }
        if received < count {
            let ranges = arrived.missing(below: count).prefix(8).map { "\($0.lowerBound)...\($0.upperBound)" }
            complain(
                "bench: delivery: \(count - received) never arrived (\(ranges.joined(separator: ", "))); the"
                    + " subscriber was up to \(behind.current) messages behind the acknowledged publishes"
            )
        }
        let receiving = Self.seconds(from: started, to: arrived.lastArrival)
        let publishing = Self.seconds(from: started, to: acknowledged.lastArrival)
        return (Double(received) / receiving, count - received, arrived.duplicateCount, publishing, receiving)
    }

    // MARK: - Helpers

    /// The number under `key` in an acknowledged message (its `message` is the JSON text that was sent).
    private static func number(inSent message: PNMessage, key: String) -> Int? {
        guard let text = message.message as? String,
            let fields = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        else { return nil }
        return jsonInteger(fields[key])
    }

    private static func seconds(from start: UInt64, to end: UInt64) -> Double {
        max(Double(end &- start) / 1e9, 1e-9)
    }
}
