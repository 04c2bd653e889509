import Foundation
import LocalOrigin
import PNObservation
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// `PNConfiguration.publishPipelineDepth` (docs/BEHAVIOR.md §1.2, S-71): publishes of one client written on one
/// keep-alive connection before their answers arrive, their outcomes in call order on all four channels, and a
/// broken connection failing every unanswered publish once, without sending it again.
@Suite struct PipelinedPublishTests {
    typealias Client = LocalOriginClientTests
    static let sent = PNMessageState.PNMessageSent.rawValue
    static let sendingError = PNMessageState.PNMessageSendingError.rawValue
    static let sending = PNMessageState.PNMessageSending.rawValue

    /// An origin for the faults LocalOrigin does not script: time answers for connecting, publish answers from
    /// `publish` (which may block or hang up).
    static func origin(
        publish: @escaping @Sendable (RawHTTPServer.Request) -> RawHTTPServer.Reply
    ) throws -> RawHTTPServer {
        try RawHTTPServer { request in
            guard request.target.hasPrefix("/publish/") else {
                return .send(RawHTTPServer.ok("[17000000000000000]"), close: false)
            }
            return publish(request)
        }
    }

    static func published() -> RawHTTPServer.Reply {
        .send(RawHTTPServer.ok("[1,\"Sent\",\"17000000000000001\"]"), close: false)
    }

    /// The message text of a publish target (`/publish/pub/sub/0/channel/0/%22text%22…`).
    static func text(_ target: String) -> String {
        let path = target.split(separator: "?").first.map(String.init) ?? target
        let last = path.split(separator: "/").last.map(String.init) ?? ""
        return (last.removingPercentEncoding ?? last).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
    }

    static func connected(
        to address: String,
        depth: Int,
        recorder: EventRecorder,
        timeout: TimeInterval = 10
    ) async throws -> PubNub {
        let configuration = PNConfiguration.testing(origin: address)
        configuration.publishPipelineDepth = depth
        configuration.nonSubscriptionRequestTimeout = timeout
        let client = PubNub(
            configuration: configuration,
            delegate: recorder,
            eventSinks: [recorder],
            timings: .probing(every: 1_000)
        )
        client.connectWithSuccessBlock({ recorder.block("connect", $0) }, errorBlock: { recorder.block("error", $0) })
        try await recorder.next(.block, "connect", within: 10)
        return client
    }

    @Test func aDepthBelowOneMakesTheConfigurationInvalid() {
        let configuration = PNConfiguration.testing(origin: "127.0.0.1:1")
        #expect(configuration.publishPipelineDepth == 1)
        configuration.publishPipelineDepth = 0
        #expect(!configuration.isValid())
        #expect(configuration.validationError()?.code == kPNClientConfigurationError)
        configuration.publishPipelineDepth = 16
        #expect(configuration.isValid())
    }

    @Test func pipelinedPublishesKeepCallOrderOnTheWireAndOnAllFourChannels() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let configuration = PNConfiguration.testing(origin: origin.address)
        configuration.publishPipelineDepth = 8
        let client = PubNub(
            configuration: configuration,
            delegate: nil,
            eventSinks: [],
            timings: .probing(every: 1_000)
        )
        let center = PNObservationCenter(client: client)
        let recorder = FourChannelRecorder(client: client, center: center)
        defer { recorder.stop() }
        client.connectWithSuccessBlock(recorder.connectSuccess, errorBlock: recorder.connectFailure)
        try await eventually("recorder.entries.contains { $0.label == \"connect\" }") {
            recorder.entries.contains { $0.label == "connect" }
        }
        let channel = PNChannel.channelWithName(Client.unique("pipelined"))
        let count = 40
        var keys: [String] = []
        for index in 0..<count {
            let message = client.sendMessage("m\(index)", toChannel: channel, withCompletionBlock: recorder.sendBlock)
            keys.append(FourChannelRecorder.key(message))
        }
        // A call that is not a publish waits for the pipeline to drain, then runs.
        client.requestServerTimeTokenWithCompletionBlock(recorder.timeBlock)
        try await eventually("the time block", within: 20) {
            recorder.entries.contains { $0.channel == .block && $0.label == "time" }
        }
        let entries = recorder.entries
        let sentLabels: [FourChannelRecorder.Channel: String] = [
            .delegate: "didSendMessage", .observer: "messageProcessing:\(Self.sent)",
            .notification: kPNClientDidSendMessageNotification.rawValue, .block: "send:\(Self.sent)",
        ]
        for (channelKind, label) in sentLabels {
            let seen = entries.filter { $0.channel == channelKind && $0.label == label }.map(\.key)
            #expect(seen == keys, "\(channelKind): sent in another order")
        }
        #expect(!entries.contains { $0.label.contains("Fail") || $0.label == "send:\(Self.sendingError)" })
        // Every publish answered before the time call's answer.
        let lastSent = entries.lastIndex { $0.label == "send:\(Self.sent)" } ?? Int.max
        let time = entries.firstIndex { $0.channel == .block && $0.label == "time" } ?? -1
        #expect(lastSent < time)
        let wire = origin.requestLog.map(\.target).filter { $0.hasPrefix("/publish/") }.map(Self.text)
        #expect(wire == (0..<count).map { "m\($0)" })
        client.disconnect()
    }

    @Test func aPipelinedPublisherIsReceivedInOrderByASubscriber() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let listener = EventRecorder()
        let subscriber = try await NetworkFaultTests.connected(to: origin, recorder: listener, probeInterval: 1_000)
        let channel = PNChannel.channelWithName(Client.unique("pipelined-delivery"))
        subscriber.subscribeOnChannel(channel) { state, _, error in listener.block("subscribe.\(state.rawValue)", error)
        }
        try await eventually("origin.counters.parkedPolls >= 1") { origin.counters.parkedPolls >= 1 }
        let publisherLog = EventRecorder()
        let publisher = try await Self.connected(to: origin.address, depth: 16, recorder: publisherLog)
        let count = 100
        for index in 0..<count {
            publisher.sendMessage("d\(index)", toChannel: channel) { state, _ in
                publisherLog.block("publish.\(state.rawValue)")
            }
        }
        try await publisherLog.waitForCount(count, .block, "publish.\(Self.sent)", within: 30)
        try await listener.waitForCount(count, .delegate, "didReceiveMessage", within: 30)
        let received = listener.all(.delegate, "didReceiveMessage").compactMap { $0.message?.message as? String }
        #expect(received == (0..<count).map { "d\($0)" })
        publisher.disconnect()
        subscriber.disconnect()
    }

    @Test func aSlowAnswerAtTheHeadDelaysButDoesNotReorderTheOthers() async throws {
        let release = Locked(false)
        let server = try Self.origin { request in
            if Self.text(request.target) == "p0" {
                // Held until the test lets go; at the deadline the handler answers anyway.
                try? eventuallyBlocking("the test to release the head", within: 120) { release.current }
            }
            return Self.published()
        }
        defer {
            release.set(true)
            server.stop()
        }
        let recorder = EventRecorder()
        // The publishes' timeout (106) is pushed past the test's deadlines, so only the release ends the hold: a
        // loaded whole run starved the test past the 10 s default while the head was held.
        let client = try await Self.connected(
            to: "127.0.0.1:\(server.port)",
            depth: 4,
            recorder: recorder,
            timeout: 120
        )
        let channel = PNChannel.channelWithName(Client.unique("slow-head"))
        for index in 0..<4 {
            client.sendMessage("p\(index)", toChannel: channel) { state, _ in
                recorder.block("p\(index).\(state.rawValue)")
            }
        }
        // Pipelined: all four were sent (will-send) while the first answer is held; without pipelining the second
        // would wait for the first's answer.
        try await recorder.waitForCount(4, .delegate, "willSendMessage", within: 60)
        #expect(recorder.all(.delegate, "didSendMessage").isEmpty)
        release.set(true)
        try await recorder.waitForCount(4, .delegate, "didSendMessage", within: 60)
        // A sent message holds its JSON form.
        let sent = recorder.all(.delegate, "didSendMessage").compactMap { $0.message?.message as? String }
        #expect(sent == ["\"p0\"", "\"p1\"", "\"p2\"", "\"p3\""])
        let publishConnections = Set(server.requests.filter { $0.target.hasPrefix("/publish/") }.map(\.connection))
        #expect(publishConnections.count == 1)
        client.disconnect()
    }

    @Test func aListenerThatTakesLongHoldsNoAnswerBehindIt() async throws {
        // The pipelined reader hands each answer to the engine itself, but the listener calls run on the delivery
        // queue's own thread: while the first publish's block runs, the engine still takes the other answers, so
        // none of them waits for app code until its deadline.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        // A deadline far past the time the answers take, and short of the hold's own limit: were the answers held
        // behind the block, the publishes would fail with it.
        let client = try await Self.connected(to: origin.address, depth: 4, recorder: recorder, timeout: 30)
        let engine = client.engine
        let channel = PNChannel.channelWithName(Client.unique("slow-listener"))
        let count = 6
        let answeredWhileHeld = Locked<Bool?>(nil)
        for index in 0..<count {
            client.sendMessage("s\(index)", toChannel: channel) { state, _ in
                if index == 0 && state == .PNMessageSent {
                    let answered =
                        (try? eventuallyBlocking("every publish answered", within: 120) {
                            engine.queue.sync { engine.pipelined.isEmpty && engine.current == nil }
                        }) != nil
                    answeredWhileHeld.set(answered)
                }
                recorder.block("s\(index).\(state.rawValue)")
            }
        }
        // Every outcome, sent or failed, reached its block.
        let outcomes = {
            recorder.entries.filter {
                $0.source == .block && $0.name.hasPrefix("s") && !$0.name.hasSuffix(".\(Self.sending)")
            }
        }
        try await eventually("\(count) outcomes", within: 150) { outcomes().count >= count }
        #expect(answeredWhileHeld.current == true)
        #expect(outcomes().map(\.name) == (0..<count).map { "s\($0).\(Self.sent)" })
        client.disconnect()
    }

    @Test func aCutInTheMiddleFailsEveryUnansweredPublishOnceAndResendsNone() async throws {
        let server = try Self.origin { request in
            Self.text(request.target) == "c2" ? .hangUp : Self.published()
        }
        defer { server.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: "127.0.0.1:\(server.port)", depth: 5, recorder: recorder)
        let channel = PNChannel.channelWithName(Client.unique("cut"))
        for index in 0..<5 {
            client.sendMessage("c\(index)", toChannel: channel) { state, value in
                recorder.block("c\(index).\(state.rawValue)", value)
            }
        }
        var outcomes: [String: PNError?] = [:]
        for index in 0..<5 {
            let entry = try await recorder.next(
                .block,
                "c\(index).\(Self.sent)",
                within: 10,
                orFailure: "c\(index).\(Self.sendingError)"
            )
            outcomes["c\(index)"] = entry.error
        }
        #expect(outcomes["c0"] == .some(nil))
        #expect(outcomes["c1"] == .some(nil))
        #expect(outcomes["c2"]??.code == kPNRequestExecutionFailedOnInternetFailureError)
        // c3 and c4 were behind c2. Written on the cut connection before the cut, each failed exactly once (it may
        // have reached the origin); not yet written then, it went out on a new connection and was answered there.
        // Which one depends on how far the writer got before the server hung up (a loaded machine delays it).
        let publishes = server.requests.filter { $0.target.hasPrefix("/publish/") }
        let cutConnection = publishes.first { Self.text($0.target) == "c2" }?.connection
        var failures = 1
        for name in ["c3", "c4"] {
            let connections = publishes.filter { Self.text($0.target) == name }.map(\.connection)
            if connections.contains(where: { $0 != cutConnection }) {
                #expect(outcomes[name] == .some(nil), "\(name) went out on a new connection: \(connections)")
            } else {
                #expect(outcomes[name]??.code == kPNRequestExecutionFailedOnInternetFailureError, "\(name)")
                failures += 1
            }
        }
        #expect(recorder.all(.delegate, "messageSendDidFail").count == failures)
        #expect(recorder.all(.delegate, "didSendMessage").count == 5 - failures)
        // Let a later call run, so a re-send would have had its chance to reach the origin.
        client.requestServerTimeTokenWithCompletionBlock { _, error in recorder.block("time", error) }
        try await recorder.next(.block, "time", within: 10)
        let texts = server.requests.map(\.target).filter { $0.hasPrefix("/publish/") }.map(Self.text)
        #expect(texts.filter { $0 == "c2" }.count == 1)
        #expect(texts.count == Set(texts).count, "a publish was sent twice: \(texts)")
        client.disconnect()
    }

    @Test func anOriginThatClosesAfterKAnswersFailsTheRestAndLaterPublishesUseANewConnection() async throws {
        let server = try Self.origin { request in
            Self.text(request.target) == "k1"
                ? .send(
                    RawHTTPServer.ok("[1,\"Sent\",\"17000000000000001\"]", extraHeaders: "Connection: close\r\n"),
                    close: true
                )
                : Self.published()
        }
        defer { server.stop() }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: "127.0.0.1:\(server.port)", depth: 4, recorder: recorder)
        let channel = PNChannel.channelWithName(Client.unique("close-after-k"))
        for index in 0..<4 {
            client.sendMessage("k\(index)", toChannel: channel) { state, value in
                recorder.block("k\(index).\(state.rawValue)", value)
            }
        }
        try await recorder.waitForCount(4, .delegate, "willSendMessage", within: 10)
        let outcomes = try await (0..<4).asyncMap { index in
            try await recorder.next(
                .block,
                "k\(index).\(Self.sent)",
                within: 10,
                orFailure: "k\(index).\(Self.sendingError)"
            )
        }
        #expect(outcomes[0].error == nil)
        #expect(outcomes[1].error == nil)
        // k2 and k3 were behind the answer that closed the connection. Which of them had been written is a race;
        // either way each has one outcome, and one that failed was not sent again.
        for entry in outcomes[2...] where entry.error != nil {
            #expect(entry.error?.code == kPNRequestExecutionFailedOnInternetFailureError)
        }
        client.sendMessage("after", toChannel: channel) { state, _ in recorder.block("after.\(state.rawValue)") }
        try await recorder.next(.block, "after.\(Self.sent)", within: 10)
        let texts = server.requests.map(\.target).filter { $0.hasPrefix("/publish/") }.map(Self.text)
        #expect(texts.count == Set(texts).count, "a publish was sent twice: \(texts)")
        #expect(texts.first == "k0")
        #expect(texts.last == "after")
        client.disconnect()
    }
}

extension EventRecorder {
    /// The next block entry named `name` or `failure`, whichever comes first.
    fileprivate func next(
        _ source: Source,
        _ name: String,
        within seconds: Double,
        orFailure failure: String
    ) async throws -> Entry {
        var found: Entry?
        try await eventually(
            "\(source.rawValue):\(name) or \(failure); seen: \(self.entries.map(\.description))",
            within: seconds
        ) {
            found = self.entries.first { $0.source == source && ($0.name == name || $0.name == failure) }
            return found != nil
        }
        guard let found else { preconditionFailure("eventually returned without a match") }
        return found
    }
}

extension Range where Bound == Int {
    fileprivate func asyncMap<T>(_ transform: (Int) async throws -> T) async throws -> [T] {
        var results: [T] = []
        for index in self { results.append(try await transform(index)) }
        return results
    }
}

extension PipelinedPublishTests {
    @Test func pipelinedTimeoutsAreIndependent() async throws {
        // S-71 with the pipelining mode: the head is answered late (within its timeout), the second never; only the
        // second times out, once, and the first is never reported as timed out.
        let stopped = Locked(false)
        let server = try Self.origin { request in
            let text = Self.text(request.target)
            let wait: TimeInterval = text == "t0" ? 1 : 30
            let deadline = Date().addingTimeInterval(wait)
            while !stopped.current && Date() < deadline { usleep(2_000) }
            return text == "t0" ? Self.published() : .hangUp
        }
        defer {
            stopped.set(true)
            server.stop()
        }
        let recorder = EventRecorder()
        let client = try await Self.connected(to: "127.0.0.1:\(server.port)", depth: 2, recorder: recorder, timeout: 3)
        let channel = PNChannel.channelWithName(Client.unique("timeouts"))
        let started = Date()
        for index in 0..<2 {
            client.sendMessage("t\(index)", toChannel: channel) { state, value in
                recorder.block("t\(index).\(state.rawValue)", value)
            }
        }
        try await recorder.next(.block, "t0.\(Self.sent)", within: 10)
        let failed = try await recorder.next(.block, "t1.\(Self.sendingError)", within: 10)
        #expect(Date().timeIntervalSince(started) >= 3)
        #expect(failed.error?.code == kPNRequestExecutionFailedByTimeoutError)
        #expect(failed.error?.localizedDescription == "Message sending failed by timeout")
        #expect(recorder.all(.block, "t0.\(Self.sendingError)").isEmpty)
        #expect(recorder.all(.delegate, "messageSendDidFail").count == 1)
        client.disconnect()
    }
}
