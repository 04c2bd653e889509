import Foundation

@testable import LocalOrigin

/// An `HTTPResponseSink` that records what the handler did, for tests that call `handle(_:sink:)` directly.
final class FakeSink: HTTPResponseSink, @unchecked Sendable {
    // @unchecked: every `var` below is read and written only while holding `condition`.
    private let condition = NSCondition()
    private var answer: HTTPResponse?
    private var closed = false
    private var closeHandlers: [@Sendable () -> Void] = []
    private var answers = 0

    func respond(_ response: HTTPResponse) {
        self.condition.withLock {
            self.answers += 1
            guard self.answer == nil, !self.closed else { return }
            self.answer = response
            self.condition.broadcast()
        }
    }

    func respondRaw(_ bytes: [UInt8], thenClose: Bool) {
        self.respond(HTTPResponse(status: 0, body: bytes))
        if thenClose { self.close() }
    }

    func close() {
        let handlers: [@Sendable () -> Void] = self.condition.withLock {
            guard !self.closed else { return [] }
            self.closed = true
            self.condition.broadcast()
            // Like the server: close handlers run only for a request that was never answered.
            defer { self.closeHandlers = [] }
            return self.answer == nil ? self.closeHandlers : []
        }
        for handler in handlers { handler() }
    }

    var isClosed: Bool { self.condition.withLock { self.closed } }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        let runNow: Bool = self.condition.withLock {
            if self.closed { return self.answer == nil }
            self.closeHandlers.append(handler)
            return false
        }
        if runNow { handler() }
    }

    /// The response, if one was written.
    var response: HTTPResponse? { self.condition.withLock { self.answer } }

    /// How many times `respond` was called (the handler must answer once).
    var respondCount: Int { self.condition.withLock { self.answers } }

    /// Waits up to `seconds` for a response.
    func waitForResponse(within seconds: Double) -> HTTPResponse? {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return self.condition.withLock {
            while self.answer == nil, self.condition.wait(until: deadline) {}
            return self.answer
        }
    }
}

/// A clock the test moves by hand.
final class ManualClock: @unchecked Sendable {
    // @unchecked: `seconds` is read and written only while holding `lock`.
    private let lock = NSLock()
    private var seconds: Double

    init(_ seconds: Double = 1_700_000_000) {
        self.seconds = seconds
    }

    var now: Double { self.lock.withLock { self.seconds } }

    func advance(by delta: Double) {
        self.lock.withLock { self.seconds += delta }
    }
}
