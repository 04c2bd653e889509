import Foundation
import PlatformSupport

@testable import LocalOrigin

/// An `HTTPResponseSink` that records what the handler did, for tests that call `handle(_:sink:)` directly.
final class FakeSink: HTTPResponseSink, Sendable {
    private struct Record {
        var answer: HTTPResponse?
        var closed = false
        var closeHandlers: [@Sendable () -> Void] = []
        var answers = 0
    }

    private let record = Monitor(Record())

    func respond(_ response: HTTPResponse) {
        self.record.withLock { record in
            record.answers += 1
            guard record.answer == nil, !record.closed else { return }
            record.answer = response
            self.record.broadcast()
        }
    }

    func respondRaw(_ bytes: [UInt8], thenClose: Bool) {
        self.respond(HTTPResponse(status: 0, body: bytes))
        if thenClose { self.close() }
    }

    func close() {
        let handlers: [@Sendable () -> Void] = self.record.withLock { record in
            guard !record.closed else { return [] }
            record.closed = true
            self.record.broadcast()
            // Like the server: close handlers run only for a request that was never answered.
            defer { record.closeHandlers = [] }
            return record.answer == nil ? record.closeHandlers : []
        }
        for handler in handlers { handler() }
    }

    var isClosed: Bool { self.record.withLock { $0.closed } }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = self.record.withLock { record in
            if record.closed { return record.answer == nil }
            record.closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// The response, if one was written.
    var response: HTTPResponse? { self.record.withLock { $0.answer } }

    /// How many times `respond` was called (the handler must answer once).
    var respondCount: Int { self.record.withLock { $0.answers } }

    /// Waits up to `seconds` for a response.
    func waitForResponse(within seconds: Double) -> HTTPResponse? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return self.record.wait { record, wake in
            record.answer == nil && wake != .timedOut ? .waitUntil(deadline) : .done(record.answer)
        }
    }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let seconds: Locked<Double>

    init(_ seconds: Double = 1_700_000_000) {
        self.seconds = Locked(seconds)
    }

    var now: Double { self.seconds.current }

    func advance(by delta: Double) {
        self.seconds.withLock { $0 += delta }
    }
}
