import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// The one runner of request-shaped operations (`ClientEngine.run(_:)`, docs/BEHAVIOR.md §1.2, §4.3): one outcome
/// per operation, reported once, whatever the transport does; requests re-sent only when idempotent.
@Suite struct RequestRunnerTests {
    static func answer(_ status: Int, _ body: String) -> Result<TransportResponse, TransportFailure> {
        .success(TransportResponse(status: status, body: Data(body.utf8)))
    }

    @Test func successReportsTheParsedValueOnce() async throws {
        let harness = RunnerHarness()
        defer { harness.engine.shutdown() }
        harness.lane.answer { _, answer in answer(Self.answer(200, "[42]")) }
        harness.runTime(idempotent: true)
        try await harness.outcomes.wait(for: "success 42")
        let reported = try await harness.settled()
        #expect(reported == ["success 42"])
        #expect(harness.lane.sent.count == 1)
    }

    /// An announcement (a publish's will-send) is queued before its request is sent, and its delivery queue is asked
    /// for it once the request is on its way: inside the lane's `send`, a block on the delivery queue runs before the
    /// announcement's calls. Delivered in order all the same.
    @Test func anAnnouncementsDeliveryIsAskedForOnceItsRequestIsSent() async throws {
        let harness = RunnerHarness()
        defer { harness.engine.shutdown() }
        let announcedAtSend = Locked<[String]?>(nil)
        harness.lane.answer { _, answer in
            harness.delivery.sync {}  // after any drain asked for before it
            announcedAtSend.set(harness.outcomes.entries)
            answer(Self.answer(200, "[42]"))
        }
        harness.runTime(idempotent: true, announcing: "announced")
        try await harness.outcomes.wait(for: "success 42")
        #expect(announcedAtSend.current == [])
        #expect(try await harness.settled() == ["announced", "success 42"])
    }

    @Test func failureReportsTheResponseErrorOnce() async throws {
        let harness = RunnerHarness()
        defer { harness.engine.shutdown() }
        harness.lane.answer { _, answer in answer(Self.answer(403, "{\"error\":true,\"message\":\"Forbidden\"}")) }
        harness.runTime(idempotent: true)
        try await harness.outcomes.wait(for: "failure \(kPNAPIAccessForbiddenError)")
        let reported = try await harness.settled()
        #expect(reported == ["failure \(kPNAPIAccessForbiddenError)"])
        #expect(harness.lane.sent.count == 1)
    }

    @Test func aPreflightErrorFailsWithoutARequest() async throws {
        let harness = RunnerHarness()
        defer { harness.engine.shutdown() }
        let code = kPNClientConnectionClosedOnInternetFailureError
        harness.runTime(idempotent: true, preflight: .fail(code: code))
        try await harness.outcomes.wait(for: "failure \(code)")
        let reported = try await harness.settled()
        #expect(reported == ["failure \(code)"])
        #expect(harness.lane.sent.isEmpty)
    }

    @Test func aPreflightWithNothingToDoSucceedsWithoutARequest() async throws {
        let harness = RunnerHarness()
        defer { harness.engine.shutdown() }
        harness.runTime(idempotent: true, preflight: .succeed(7))
        try await harness.outcomes.wait(for: "success 7")
        let reported = try await harness.settled()
        #expect(reported == ["success 7"])
        #expect(harness.lane.sent.isEmpty)
    }

    @Test func aRequestAnsweredThreeTimesIsReportedOnce() async throws {
        let harness = RunnerHarness()
        defer { harness.engine.shutdown() }
        harness.lane.answer { _, answer in
            answer(Self.answer(200, "[1]"))
            answer(Self.answer(200, "[2]"))
            answer(.failure(.network(code: -1005, description: "network connection lost")))
            // The three answers are on the client queue now: whatever they cause is reported before the mark.
            harness.settle()
        }
        harness.runTime(idempotent: true)
        let reported = try await harness.outcomes.beforeSettledMark()
        #expect(reported == ["success 1"])
    }

    @Test func aRequestNeverAnsweredTimesOutOnceAndItsLateAnswerIsIgnored() async throws {
        let harness = RunnerHarness(timeout: 0.2)
        defer { harness.engine.shutdown() }
        harness.runTime(idempotent: true)
        let timedOut = "failure \(kPNRequestExecutionFailedByTimeoutError)"
        try await harness.outcomes.wait(for: timedOut)
        #expect(harness.lane.sent.count == 1)
        harness.lane.answerHeld(Self.answer(200, "[3]"))
        let reported = try await harness.settled()
        #expect(reported == [timedOut])
    }

    @Test(arguments: [true, false])
    func onlyAnIdempotentRequestIsSentAgainAfterAMalformedAnswer(idempotent: Bool) async throws {
        let harness = RunnerHarness()
        defer { harness.engine.shutdown() }
        harness.lane.answer { _, answer in answer(Self.answer(200, "[")) }
        harness.runTime(idempotent: idempotent)
        let failed = "failure \(kPNResponseMalformedJSONError)"
        try await harness.outcomes.wait(for: failed)
        let reported = try await harness.settled()
        #expect(reported == [failed])
        #expect(harness.lane.sent.count == (idempotent ? 3 : 1))
    }

    @Test(arguments: [true, false])
    func onlyAnIdempotentRequestIsSentAgainAfterALostConnection(idempotent: Bool) async throws {
        let harness = RunnerHarness()
        defer { harness.engine.shutdown() }
        // The reachability probe each loss starts (`/time/0`) is held: only the operation's own requests count.
        harness.lane.answer { request, answer in
            guard !request.url.path.hasPrefix("/time/") else { return }
            answer(.failure(.network(code: -1005, description: "network connection lost")))
        }
        harness.runHereNow(idempotent: idempotent)
        let failed = "failure \(kPNRequestExecutionFailedOnInternetFailureError)"
        try await harness.outcomes.wait(for: failed)
        let reported = try await harness.settled()
        #expect(reported == [failed])
        #expect(harness.lane.sent.filter { $0.url.path.hasPrefix("/v2/presence/") }.count == (idempotent ? 3 : 1))
    }

    @Test func operationsRunOneAtATimeInCallOrder() async throws {
        // The held request must not time out while a loaded machine delays the test's answer.
        let harness = RunnerHarness(timeout: 600)
        defer { harness.engine.shutdown() }
        harness.lane.answer { _, _ in harness.outcomes.add("sent") }
        harness.runTime(idempotent: true)
        harness.runTime(idempotent: true, preflight: .succeed(9))
        try await harness.outcomes.wait(for: "sent")
        harness.lane.answerHeld(Self.answer(200, "[8]"))
        try await harness.outcomes.wait(for: "success 9")
        let reported = try await harness.settled()
        #expect(reported == ["sent", "success 8", "success 9"])
    }
}

/// A client engine on one `ScriptedLane` (every lane) whose operations report to `outcomes`, without a connection:
/// the operations' preflights are the test's.
struct RunnerHarness: Sendable {
    let engine: ClientEngine
    let lane = ScriptedLane()
    let outcomes = Outcomes()
    /// The client's delivery queue.
    let delivery = DispatchQueue(label: "runner-delivery")

    init(timeout: TimeInterval = 10, clock: any EngineClock = DispatchClock()) {
        let engine = ClientEngine(
            deliveryQueue: self.delivery,
            serviceLane: self.lane,
            longPollLane: self.lane,
            pipelineLane: self.lane,
            clock: clock
        )
        var configured = ClientSettings(configuration: .testing(origin: "127.0.0.1:9"))
        configured.nonSubscriptionRequestTimeout = timeout
        let settings = configured
        engine.queue.async {
            // As the facade's `setConfiguration` and `setClientIdentifier` do.
            engine.applyConfiguration(settings)
            engine.setClientIdentifier("runner-test")
        }
        self.engine = engine
    }

    /// What the preflight of `runTime` decides.
    enum Preflight: Sendable {
        case send
        case fail(code: Int)
        case succeed(UInt64)
    }

    /// Runs a time-token operation whose preflight decides `preflight` (`send`: `/time/0`); its outcome is reported
    /// as "success T" / "failure CODE", after `label` and a space when one is given. Inside a `CallTicket`'s scope
    /// the operation belongs to that ticket, as a facade call made there does. With `announcing`, the preflight that
    /// sends announces it (as a publish's will-send), reported as that text.
    func runTime(idempotent: Bool, preflight: Preflight = .send, label: String? = nil, announcing: String? = nil) {
        let (engine, outcomes) = (self.engine, self.outcomes)
        let prefix = label.map { "\($0) " } ?? ""
        engine.enqueue {
            engine.run(
                RequestOperation(
                    name: "runner test",
                    idempotent: idempotent,
                    timeoutMessage: "runner test timed out",
                    preflight: {
                        switch preflight {
                        case .send:
                            .send(
                                .time,
                                announcing: announcing.map { text in
                                    Emission(.didReceiveTimeToken(0), completion: DeliveryBlock { outcomes.add(text) })
                                }
                            )
                        case .fail(let code): .fail(PNError(code: code))
                        case .succeed(let token): .succeed(token)
                        }
                    },
                    parse: ResponseParser.time,
                    succeeded: { token in
                        [
                            Emission(
                                .didReceiveTimeToken(token),
                                completion: DeliveryBlock { outcomes.add("\(prefix)success \(token)") }
                            )
                        ]
                    },
                    failed: { error in
                        Emission(
                            .timeTokenReceiveDidFail(error),
                            completion: DeliveryBlock { outcomes.add("\(prefix)failure \(error.code)") }
                        )
                    }
                )
            )
        }
    }

    /// Queues an operation that never ends: everything queued after it waits.
    func holdTheQueue() {
        let engine = self.engine
        engine.queue.async {
            engine.submit("held") { _ in }
        }
    }

    /// Returns once the client queue went through everything handed to it so far.
    func drainClientQueue() {
        self.engine.queue.sync {}
    }

    /// Runs a here-now operation (a request the reachability probe, `/time/0`, does not share a path with).
    func runHereNow(idempotent: Bool) {
        let (engine, outcomes) = (self.engine, self.outcomes)
        let channel = PNChannel.channelWithName("runner")
        engine.queue.async {
            engine.run(
                RequestOperation(
                    name: "runner test",
                    idempotent: idempotent,
                    timeoutMessage: "runner test timed out",
                    preflight: { .send(.hereNow(channel: channel.name), announcing: nil) },
                    parse: ResponseParser.hereNow,
                    succeeded: { response in
                        let hereNow = PNHereNow(participants: response.uuids, participantsCount: 0, channel: channel)
                        return [
                            Emission(
                                .didReceiveParticipantsList(hereNow),
                                completion: DeliveryBlock { outcomes.add("success \(response.occupancy)") }
                            )
                        ]
                    },
                    failed: { error in
                        Emission(
                            .participantsListDownloadDidFail(channel, error),
                            completion: DeliveryBlock { outcomes.add("failure \(error.code)") }
                        )
                    }
                )
            )
        }
    }

    /// Adds the settled mark to the outcomes once the client queue and then the delivery queue went through
    /// everything handed to them so far: an outcome caused by anything that reached the client queue before this
    /// call is reported before the mark.
    func settle() {
        let (delivery, outcomes) = (self.delivery, self.outcomes)
        self.engine.queue.async {
            delivery.async { outcomes.add(Outcomes.settledMark) }
        }
    }

    /// `settle()`, then the outcomes reported before the mark.
    func settled() async throws -> [String] {
        self.settle()
        return try await self.outcomes.beforeSettledMark()
    }
}

/// What the operations (and lanes) reported, in order.
final class Outcomes: Sendable {
    static let settledMark = "settled"

    private let state = Locked<[String]>([])

    var entries: [String] { self.state.current }

    func add(_ entry: String) {
        self.state.withLock { $0.append(entry) }
    }

    /// Returns once `entry` was added; throws `EventuallyTimeout` when it was not within `seconds`.
    func wait(for entry: String, within seconds: Double = 30) async throws {
        try await eventually("\(entry) among \(self.entries)", within: seconds) { self.entries.contains(entry) }
    }

    /// Waits for the settled mark and returns the entries before it.
    func beforeSettledMark() async throws -> [String] {
        try await self.wait(for: Self.settledMark)
        return Array(self.entries.prefix { $0 != Self.settledMark })
    }
}

/// An `HTTPTransport` that records every request and hands it, with its completion, to the test's script (which
/// may answer any number of times, at once or later through `answerHeld`). Without a script it holds every request.
final class ScriptedLane: HTTPTransport, Sendable {
    typealias Answer = @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    typealias Script = @Sendable (TransportRequest, Answer) -> Void

    private struct State {
        var script: Script = { _, _ in }
        var requests: [TransportRequest] = []
        var held: [Answer] = []
        var leavesOutcomesAtDeadline = false
    }

    private let state = Locked(State())

    /// Sets how requests sent from now on are answered; called on the lane's calling thread, inside `send`.
    func answer(with script: @escaping Script) {
        self.state.withLock { $0.script = script }
    }

    /// Makes the requests sent from now on leave their outcome to the lane when their deadline passes, as a socket
    /// task whose answer waits unread does (`SocketTask.expire()`): the runner then waits for what the lane reports.
    func leaveOutcomesAtDeadline() {
        self.state.withLock { $0.leavesOutcomesAtDeadline = true }
    }

    /// Every request sent so far, in order.
    var sent: [TransportRequest] { self.state.current.requests }

    func send(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask {
        let (script, leaves) = self.state.withLock { state -> (Script, Bool) in
            state.requests.append(request)
            state.held.append(completion)
            return (state.script, state.leavesOutcomesAtDeadline)
        }
        script(request, completion)
        return ScriptedTask(leavesOutcomeAtDeadline: leaves)
    }

    /// Answers every request sent so far with `result`, on the calling thread (so an answer has reached the
    /// client queue when this returns).
    func answerHeld(_ result: Result<TransportResponse, TransportFailure>) {
        let answers = self.state.withLock { state -> [Answer] in
            defer { state.held.removeAll() }
            return state.held
        }
        answers.forEach { $0(result) }
    }

    func invalidate() {}
}

/// Cancelling does nothing: the runner must ignore whatever the request still answers.
private struct ScriptedTask: TransportTask {
    let leavesOutcomeAtDeadline: Bool

    func cancel() {}

    func expire() -> Bool {
        !self.leavesOutcomeAtDeadline
    }
}
