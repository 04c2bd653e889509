import Foundation

// The one runner of request-shaped operations (docs/BEHAVIOR.md §1.2, §4): each `RequestOperation` waits for its
// turn, runs its preflight, sends its request and reports exactly one outcome — success, failure, timeout or abort —
// before the next operation starts. Its timeout counts from the call, the wait for its turn included: a request
// still waiting when it passes leaves the queue and fails with 106 (docs/BEHAVIOR.md §1.2).

/// Where a request is on its way: its id while it waits, its operation once it started. Queue-confined.
private final class RequestTurn {
    var id: Int?
    var operation: EngineOperation?
}

extension ClientEngine {
    /// Queues `request` behind the operations called before it and executes it when its turn comes; its timeout
    /// (`nonSubscriptionRequestTimeout`) counts from the facade call that made it (`callTime`), or from now. Call on
    /// `queue`.
    func run<Value>(_ request: RequestOperation<Value>) {
        let turn = RequestTurn()
        let waited = self.callTime.map { max(0, self.clock.now - $0) } ?? 0
        let deadline = self.schedule(after: (self.settings?.nonSubscriptionRequestTimeout ?? 10) - waited) {
            self.deadlinePassed(request, turn)
        }
        turn.id = self.submit(
            request.name,
            pipelinable: request.pipelinable,
            timers: [deadline],
            refusal: { error in
                let failure = request.failed(error)
                return Refusal(event: failure.event, block: failure.completion)
            }
        ) { [unowned self] operation in
            turn.operation = operation
            self.start(request, as: operation)
        }
    }

    /// The request's timeout passed: a running request is cancelled, a waiting one leaves the queue; either fails with
    /// 106 on every channel it reports to. A request written whose answer may be waiting unread on its socket worker
    /// (which was making the listener calls of an earlier answer) is left to that worker: its answer, if it has come,
    /// completes it; without one it fails with 106 when the worker looks (`SocketTask.expire()`). So a request the
    /// origin answered in time is never reported as timed out, and an app that retries on 106 never sends twice what
    /// the origin took in time.
    private func deadlinePassed<Value>(_ request: RequestOperation<Value>, _ turn: RequestTurn) {
        if let operation = turn.operation {
            guard !operation.finished else { return }
            let cancelled = operation.tasks.map { $0.expire() }
            guard cancelled.allSatisfy({ $0 }) else {
                operation.deadlinePassed = true
                return
            }
            self.report(request.failed(Self.timeoutError(of: request)), of: operation)
            self.finish(operation)
        } else if let id = turn.id, self.withdraw(id) != nil {
            self.emit(request.failed(Self.timeoutError(of: request)))
        }
    }

    /// What a request whose timeout passed fails with.
    private static func timeoutError<Value>(of request: RequestOperation<Value>) -> PNError {
        PNError(message: request.timeoutMessage, code: kPNRequestExecutionFailedByTimeoutError)
    }

    private func start<Value>(_ request: RequestOperation<Value>, as operation: EngineOperation) {
        // docs/BEHAVIOR.md §1.2: a publish is chained (ClientEngine.swift) unless the pipelined lane takes it; chained,
        // what it reports waits for the outcome of the chained publish before it, so it joins the chain before its
        // preflight can report.
        let way = request.pipelinable ? self.publishWay : (depth: 1, chained: false)
        let pipelining = way.depth > 1
        let chaining = way.chained
        if chaining { self.joinChain(operation) }
        switch request.preflight() {
        case .fail(let error):
            self.report(request.failed(error), of: operation)
            self.finish(operation)
        case .succeed(let value):
            for emission in request.succeeded(value) { self.report(emission, of: operation) }
            self.finish(operation)
        case .send(let endpoint, let announcing, let draft):
            // The announcement (will-send) is queued first, but its delivery queue's thread is woken once the request
            // is on its way, not before: woken first, it would take this core and hold the request back.
            DeliveryLane.holdingWakes {
                if let announcing { self.report(announcing, of: operation) }
                // docs/BEHAVIOR.md §1.2: written on the pipelined lane (`publishPipelineDepth` above 1) or handed to
                // the service lane chained, a publish lets the next one start before its answer arrives.
                self.exchange(
                    request,
                    endpoint: endpoint,
                    draft: draft,
                    as: operation,
                    on: pipelining ? self.pipelineLane : nil,
                    chained: chaining
                )
                if (pipelining || chaining) && !operation.finished {
                    self.release(operation)
                }
            }
        }
    }

    /// Sends `endpoint` (a publish's with the escapes of its `draft`) for `operation` on `lane` (default: the service
    /// lane; `chained`: after the chained request before it, `TransportRequest.chained`) and finishes the operation
    /// with exactly one outcome. Idempotent requests are re-sent after a malformed answer or a connection that failed
    /// without an answer, 3 attempts in total; the others never are (docs/BEHAVIOR.md §4.3).
    private func exchange<Value>(
        _ request: RequestOperation<Value>,
        endpoint: Endpoint,
        draft: PublishDraft?,
        as operation: EngineOperation,
        on lane: (any HTTPTransport)?,
        chained: Bool = false
    ) {
        let timeout = self.settings?.nonSubscriptionRequestTimeout ?? 10
        let fail: (PNError) -> Void = { [unowned self] error in
            self.report(request.failed(error), of: operation)
            self.finish(operation)
        }
        operation.onAbort = { code in fail(PNError(code: code, category: .networkIssues)) }
        let lane = lane ?? self.serviceLane
        var attempts = 0
        func attempt() {
            attempts += 1
            let retryable = request.idempotent && attempts < 3
            let task = self.send(endpoint, draft: draft, lane: lane, timeout: timeout + 1, chained: chained) {
                [unowned self] result in
                guard !operation.finished else { return }
                switch result {
                case .failure(.cancelled):
                    return
                case .failure where operation.deadlinePassed:
                    // Left to the socket worker at the deadline, and no answer had come when it looked: what the
                    // deadline would have reported then (a cancel, no probe).
                    fail(Self.timeoutError(of: request))
                case .failure(let transportFailure) where retryable && transportFailure.isLostConnection:
                    // docs/BEHAVIOR.md §4.3 write-failure retries, over HTTP: the connection failed without an answer.
                    // Re-sent while attempts remain; the probe this starts fails the request with 104 if the origin is
                    // gone.
                    self.transportFailed(transportFailure)
                    attempt()
                case .failure(let transportFailure):
                    fail(
                        PNError.fromTransport(
                            transportFailure,
                            networkCode: kPNRequestExecutionFailedOnInternetFailureError,
                            timeoutMessage: request.timeoutMessage
                        )
                    )
                    self.transportFailed(transportFailure)
                case .success(let response):
                    switch request.parse(response) {
                    case .success(let value):
                        for emission in request.succeeded(value) { self.report(emission, of: operation) }
                        self.finish(operation)
                    case .failure(.malformedJSON) where retryable, .failure(.malformedField) where retryable,
                        .failure(.notUTF8) where retryable:
                        if operation.deadlinePassed {
                            // Taken by the socket worker after the deadline, which covers re-sends: none starts now.
                            fail(Self.timeoutError(of: request))
                        } else {
                            attempt()
                        }
                    case .failure(let responseFailure):
                        fail(PNError.fromResponse(responseFailure, associatedObject: request.associatedObject))
                    }
                }
            }
            if let task { operation.tasks.append(task) }
        }
        attempt()
    }
}

extension TransportFailure {
    /// A connection that failed or closed without an answer (not a timeout, a cancel or a TLS failure): the request
    /// may or may not have reached the origin.
    fileprivate var isLostConnection: Bool {
        switch self {
        case .network, .other: return true
        case .cancelled, .timedOut, .tls, .responseTooLarge: return false
        }
    }
}
