import Foundation
import PlatformSupport
import TestSupport

@testable import PubNubLegacy

/// An in-memory `HTTPTransport`: records every request and answers through a test-provided rule, or holds the
/// request until the test answers it. Used where a test needs an answer LocalOrigin would not give (a hung
/// handshake, a 403, a malformed body).
final class FakeTransport: HTTPTransport, @unchecked Sendable {
    // @unchecked: all mutable state is in `state`, a `Locked` box; completions are called outside the lock.

    /// What to do with a request.
    enum Reply: Sendable {
        case respond(Int, String)
        case fail(TransportFailure)
        case hold
    }

    private struct Pending {
        let id: Int
        let request: TransportRequest
        let completion: @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    }

    private struct State {
        var networkDown = false
        var requests: [TransportRequest] = []
        var held: [Pending] = []
        var nextID = 0
    }

    private let state = Locked(State())
    private let rule: @Sendable (TransportRequest) -> Reply
    private let queue = DispatchQueue(label: "fake-transport")

    /// Whether the engine may ask this transport for relaxed certificate validation (the TLS ladder's middle rung,
    /// docs/BEHAVIOR.md §2.8): as the default lanes when true, as a transport without TLS to relax when false.
    let canRelaxCertificateValidation: Bool

    init(canRelaxCertificateValidation: Bool = false, rule: @escaping @Sendable (TransportRequest) -> Reply) {
        self.canRelaxCertificateValidation = canRelaxCertificateValidation
        self.rule = rule
    }

    /// Every request sent so far, in order.
    var requests: [TransportRequest] { self.state.current.requests }

    /// Paths-and-queries of the requests sent so far, as sent (still percent-escaped).
    var targets: [String] {
        self.requests.map { request in
            let text = request.url.absoluteString
            guard let scheme = text.range(of: "://"), let slash = text[scheme.upperBound...].firstIndex(of: "/")
            else { return text }
            return String(text[slash...])
        }
    }

    /// Waits until `count` requests whose target contains `fragment` were sent; returns the last of them.
    @discardableResult
    func waitForRequest(containing fragment: String, count: Int = 1, within seconds: Double = 5) async throws -> String
    {
        var last: String?
        try await eventually("\(count)× request with \(fragment); seen: \(self.targets)", within: seconds) {
            let matching = self.targets.filter { $0.contains(fragment) }
            last = matching.count >= count ? matching.last : nil
            return last != nil
        }
        guard let last else { preconditionFailure("eventually returned without a match") }
        return last
    }

    /// Waits until a held request contains `fragment`, then answers it.
    func answerWhenHeld(
        containing fragment: String,
        status: Int = 200,
        body: String,
        within seconds: Double = 5
    )
        async throws
    {
        try await eventually("held request with \(fragment); seen: \(self.targets)", within: seconds) {
            self.answerHeld(containing: fragment, status: status, body: body)
        }
    }

    /// While down, every request fails at once with a network-class error and held requests fail too.
    func setNetworkDown(_ down: Bool) {
        let held = self.state.withLock { state -> [Pending] in
            state.networkDown = down
            guard down else { return [] }
            defer { state.held.removeAll() }
            return state.held
        }
        for pending in held {
            pending.completion(.failure(.network(code: -1005, description: "network connection lost")))
        }
    }

    @discardableResult
    func send(
        _ request: TransportRequest,
        completion: @escaping @Sendable (Result<TransportResponse, TransportFailure>) -> Void
    ) -> TransportTask {
        let down = self.state.withLock { $0.networkDown }
        let reply = down ? .fail(.network(code: -1009, description: "offline")) : self.rule(request)
        let id = self.state.withLock { state -> Int in
            state.nextID += 1
            state.requests.append(request)
            if case .hold = reply {
                state.held.append(Pending(id: state.nextID, request: request, completion: completion))
            }
            return state.nextID
        }
        switch reply {
        case .respond(let status, let body):
            self.queue.async { completion(.success(TransportResponse(status: status, body: Data(body.utf8)))) }
        case .fail(let failure):
            self.queue.async { completion(.failure(failure)) }
        case .hold:
            break
        }
        return FakeTask { [weak self] in self?.cancel(id) }
    }

    /// Answers the oldest held request whose URL contains `fragment`; returns false when there is none.
    @discardableResult
    func answerHeld(containing fragment: String, status: Int, body: String) -> Bool {
        self.completeHeld(
            containing: fragment,
            with: .success(TransportResponse(status: status, body: Data(body.utf8)))
        )
    }

    /// Fails the oldest held request whose URL contains `fragment` with `failure`; returns false when there is none.
    @discardableResult
    func failHeld(containing fragment: String, with failure: TransportFailure) -> Bool {
        self.completeHeld(containing: fragment, with: .failure(failure))
    }

    /// Takes the oldest held request whose URL contains `fragment` out of the held ones and completes it with
    /// `result`, outside the lock; false when there is none.
    private func completeHeld(
        containing fragment: String,
        with result: Result<TransportResponse, TransportFailure>
    ) -> Bool {
        let pending = self.state.withLock { state -> Pending? in
            guard let index = state.held.firstIndex(where: { $0.request.url.absoluteString.contains(fragment) })
            else { return nil }
            return state.held.remove(at: index)
        }
        guard let pending else { return false }
        pending.completion(result)
        return true
    }

    func invalidate() {
        let held = self.state.withLock { state -> [Pending] in
            defer { state.held.removeAll() }
            return state.held
        }
        for pending in held { pending.completion(.failure(.cancelled)) }
    }

    private func cancel(_ id: Int) {
        let pending = self.state.withLock { state -> Pending? in
            guard let index = state.held.firstIndex(where: { $0.id == id }) else { return nil }
            return state.held.remove(at: index)
        }
        pending?.completion(.failure(.cancelled))
    }

    /// A minimal origin: time, handshakes, publish, leave, here-now, history and push answer at once; long-polls
    /// (`tt` other than 0) are held.
    static func origin(
        canRelaxCertificateValidation: Bool = false,
        overrides: @escaping @Sendable (TransportRequest) -> Reply? = { _ in nil }
    ) -> FakeTransport {
        FakeTransport(canRelaxCertificateValidation: canRelaxCertificateValidation) { request in
            if let reply = overrides(request) { return reply }
            let path = request.url.path
            let query = request.url.query ?? ""
            if path.hasPrefix("/time/") { return .respond(200, "[17000000000000000]") }
            if path.hasPrefix("/v2/subscribe/") {
                return query.contains("tt=0&") || query.hasPrefix("tt=0")
                    ? .respond(200, "{\"t\":{\"t\":\"17000000000000100\",\"r\":1},\"m\":[]}") : .hold
            }
            if path.hasPrefix("/publish/") { return .respond(200, "[1,\"Sent\",\"17000000000000200\"]") }
            if path.hasSuffix("/leave") { return .respond(200, "{\"status\":200,\"action\":\"leave\"}") }
            if path.hasPrefix("/v2/history/") {
                return .respond(200, "[[\"m1\",{\"k\":2}],17000000000000001,17000000000000002]")
            }
            if path.hasPrefix("/v1/push/") {
                return query.contains("add=") || query.contains("remove=")
                    ? .respond(200, "[1,\"Modified Channels\"]")
                    : path.hasSuffix("/remove") ? .respond(200, "[1,\"Removed Device\"]") : .respond(200, "[\"a\"]")
            }
            if path.hasPrefix("/v2/presence/") { return .respond(200, "{\"uuids\":[\"u1\",\"u2\"],\"occupancy\":2}") }
            return .respond(404, "{\"error\":true,\"message\":\"Not Found\"}")
        }
    }
}

private struct FakeTask: TransportTask {
    let onCancel: @Sendable () -> Void

    func cancel() {
        self.onCancel()
    }
}

extension PNConfiguration {
    /// A plain-HTTP configuration for `origin` (`127.0.0.1:PORT`) whose events are delivered on a private serial
    /// queue (the main queue does not run under `swift test` on Linux).
    static func testing(
        origin: String,
        publishKey: String = "pub-c-test",
        subscribeKey: String = "sub-c-test"
    )
        -> PNConfiguration
    {
        let configuration = PNConfiguration(
            origin: origin,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secretKey: nil,
            cipherKey: nil,
            authorizationKey: nil
        )
        configuration.useSecureConnection = false
        configuration.deliveryQueue = DispatchQueue(label: "test-delivery")
        return configuration
    }
}

extension EngineTimings {
    /// The documented intervals, but reachability probes every `seconds`.
    static func probing(every seconds: TimeInterval) -> EngineTimings {
        var timings = EngineTimings.standard
        timings.probeInterval = seconds
        return timings
    }

    /// The reachability probe (`/time/0` every 10 s once connected, docs/BEHAVIOR.md §2.2) an hour apart: for tests
    /// that count or order requests, which a loaded machine can stretch past 10 s.
    static let quietProbe = EngineTimings.probing(every: 3_600)

    /// These timings with connect attempts abandoned after `seconds`.
    func connectAttempts(timingOutAfter seconds: TimeInterval) -> EngineTimings {
        var timings = self
        timings.connectAttemptTimeout = seconds
        return timings
    }
}

extension PubNub {
    /// A client on `transport` (both lanes) that reports to `recorder` as delegate and sink, its engine running
    /// `timings` on `clock`.
    static func testing(
        configuration: PNConfiguration,
        recorder: EventRecorder,
        transport: FakeTransport? = nil,
        timings: EngineTimings = .standard,
        clock: any EngineClock = DispatchClock()
    ) -> PubNub {
        PubNub(
            configuration: configuration,
            delegate: recorder,
            eventSinks: [recorder],
            serviceLane: transport,
            longPollLane: transport,
            timings: timings,
            clock: clock
        )
    }
}
