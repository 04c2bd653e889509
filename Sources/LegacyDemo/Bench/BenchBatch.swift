import Dispatch
import Foundation
import LocalOrigin
import PNObservation
import PlatformSupport
import PubNubLegacy

/// Workload 7 of `LegacyDemo bench`: one subscribe answer carrying `count` messages (a catch-up after a long outage
/// on a busy channel), delivered to a `PNDelegate`, a `PNObservationCenter` message observer and a
/// `NotificationCenter` observer — every channel a received message goes through (it has no completion block).
///
/// The answer comes from a small origin of its own (`BatchOrigin`), because a PubNub origin never puts more than
/// 100 messages in one answer. Rate: `count` over the time from the origin starting to send the answer until the
/// notification of the last message. Memory: resident memory before the origin builds the answer, the peak while it
/// is built, sent, read and delivered (Linux: the kernel's high-water mark, reset just before), and the resident
/// memory a second after. Origin and client share the process, so the peak includes the origin's copy of the answer
/// (about 13 MB for 100,000 messages), which it releases once sent.
enum BenchBatch {
    struct Figures {
        var rate: Double
        var startKiB: Int
        var peakKiB: Int
        var afterKiB: Int
    }

    private static let timeout = 120.0

    static func measure(count: Int) throws -> Figures {
        // Before the origin builds the answer: the figures then include whatever the origin's side keeps too.
        guard let start = BenchMemory.residentKiB() else { throw BenchError("batch: resident memory unreadable") }
        let channel = "bench-batch-\(String(UInt32.random(in: 0...UInt32.max), radix: 36))"
        let origin = BatchOrigin(channel: channel, count: count)
        let server = HTTPServer(handler: origin)
        try server.start()
        defer {
            origin.releaseParked()
            server.stop()
        }
        let client = BenchClient(
            name: "batch",
            address: "127.0.0.1:\(server.port)",
            publishKey: "demo",
            subscribeKey: "demo"
        )
        let listener = BatchListener(target: count)
        client.handle((sent: nil, received: { _ in listener.delegateCalls += 1 }, failed: { listener.fail($0) }))
        let center = PNObservationCenter(client: client.client)
        center.addMessageReceiveObserver(listener) { _ in listener.observed += 1 }
        let token = NotificationCenter.default.addObserver(
            forName: kPNClientDidReceiveMessageNotification,
            object: client.client,
            queue: nil
        ) { _ in listener.notified() }
        defer {
            NotificationCenter.default.removeObserver(token)
            center.stopObserving(client.client)
            client.disconnect(timeout: 5)
        }
        try client.connect(timeout: 15)
        let resetPeak = BenchMemory.resetPeak()
        let sampler = PeakSampler()
        if !resetPeak { sampler.start() }
        // The handshake answers at once; the long-poll that follows gets the whole batch.
        try client.subscribe([PNChannel.channelWithName(channel)], timeout: 15)
        guard listener.done.wait(timeout: deadline(in: Self.timeout)) == .success else {
            let delivered = client.queue.sync { listener.notifiedCount }
            throw BenchError("batch: \(delivered) of \(count) messages delivered in \(Int(Self.timeout)) s")
        }
        sampler.stop()
        let counts = client.queue.sync { (listener.delegateCalls, listener.observed, listener.notifiedCount) }
        guard counts == (count, count, count), let sent = origin.sentAt.current else {
            throw BenchError(
                "batch: expected \(count) calls of each listener, got delegate \(counts.0), observer \(counts.1),"
                    + " notification \(counts.2)"
            )
        }
        if let failure = listener.failure.current { throw BenchError("batch: \(failure)") }
        let peak = (resetPeak ? BenchMemory.peakKiB() : nil) ?? sampler.peakKiB
        // The answer's memory is released when its delivery ends; give the allocator a moment to return it.
        Thread.sleep(forTimeInterval: 1)
        let after = BenchMemory.residentKiB() ?? 0
        let seconds = max(Double(listener.finishedAt.current &- sent) / 1e9, 1e-9)
        return Figures(rate: Double(count) / seconds, startKiB: start, peakKiB: max(peak, start), afterKiB: after)
    }
}

/// The listeners of the batch workload: each only counts its calls, on the client's delivery queue.
private final class BatchListener: @unchecked Sendable {
    // @unchecked: the counters are touched only on the batch client's delivery queue (every listener runs there)
    // and read with `queue.sync`; `done`, `finishedAt` and `failure` are thread-safe.
    var delegateCalls = 0
    var observed = 0
    private(set) var notifiedCount = 0
    let target: Int
    let done = DispatchSemaphore(value: 0)
    let finishedAt = Locked<UInt64>(0)
    let failure = Locked<String?>(nil)

    init(target: Int) {
        self.target = target
    }

    func notified() {
        self.notifiedCount += 1
        if self.notifiedCount == self.target {
            self.finishedAt.set(nowNanos())
            self.done.signal()
        }
    }

    func fail(_ reason: String) {
        self.failure.set(reason)
    }
}

/// Samples resident memory every few milliseconds, where the kernel's high-water mark cannot be reset.
private final class PeakSampler: @unchecked Sendable {
    // @unchecked: `state` is a lock box; the thread only reads and writes through it.
    private let state = Locked((running: false, peak: 0))

    var peakKiB: Int { self.state.current.peak }

    func start() {
        self.state.withLock { $0.running = true }
        Thread {
            while self.state.current.running {
                let now = BenchMemory.residentKiB() ?? 0
                self.state.withLock { $0.peak = max($0.peak, now) }
                Thread.sleep(forTimeInterval: 0.005)
            }
        }.start()
    }

    func stop() {
        self.state.withLock { $0.running = false }
    }
}

/// The origin of the batch workload: time, a handshake, then one long-poll answer with every message; later
/// long-polls are held until the workload ends; leaves and anything else get a plain acknowledgement.
private final class BatchOrigin: HTTPHandler, @unchecked Sendable {
    // @unchecked: the mutable state is in lock boxes.
    /// The answer, released once it has been handed to the server.
    private let body: Locked<[UInt8]?>
    private let parked = Locked<[any HTTPResponseSink]>([])
    private let served = Locked(false)
    /// When the origin started sending the batch (`nowNanos()`).
    let sentAt = Locked<UInt64?>(nil)
    private static let handshakeToken: UInt64 = 17_000_000_000_000_000

    init(channel: String, count: Int) {
        var body = Array(#"{"t":{"t":"\#(Self.handshakeToken + UInt64(count))","r":1},"m":["#.utf8)
        body.reserveCapacity(count * 128)
        for index in 0..<count {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            let token = Self.handshakeToken + UInt64(index) + 1
            body += Array(
                #"{"a":"1","f":0,"p":{"t":"\#(token)","r":1},"k":"demo","c":"\#(channel)","#.utf8
            )
            body += Array(#""d":{"n":\#(index),"text":"a message of the batch"},"b":"\#(channel)"}"#.utf8)
        }
        body += Array("]}".utf8)
        self.body = Locked(body)
    }

    func handle(_ request: HTTPRequest, sink: any HTTPResponseSink) {
        let target = request.target
        if target.hasPrefix("/time/") {
            sink.respond(Self.json("[\(Self.handshakeToken)]"))
        } else if target.hasPrefix("/v2/subscribe/") {
            if target.contains("tt=0&") || target.hasSuffix("tt=0") {
                sink.respond(Self.json(#"{"t":{"t":"\#(Self.handshakeToken)","r":1},"m":[]}"#))
            } else if self.served.withLock({ served -> Bool in
                defer { served = true }
                return !served
            }) {
                let body = self.body.withLock { body -> [UInt8] in
                    defer { body = nil }
                    return body ?? []
                }
                self.sentAt.set(nowNanos())
                sink.respond(HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: body))
            } else {
                self.parked.withLock { $0.append(sink) }
            }
        } else {
            sink.respond(Self.json(#"{"status":200,"message":"OK","action":"leave","service":"Presence"}"#))
        }
    }

    /// Closes the held long-polls, so the server can stop at once.
    func releaseParked() {
        for sink in self.parked.withLock({ parked -> [any HTTPResponseSink] in
            defer { parked = [] }
            return parked
        }) {
            sink.close()
        }
    }

    private static func json(_ text: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array(text.utf8))
    }
}
