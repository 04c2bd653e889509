import Foundation

// Non-subscribe requests (docs/BEHAVIOR.md §4): time, publish, history, here-now and push. Each runs as one operation
// with its own timer (started when the operation starts executing) and completes exactly once.

extension ClientEngine {
    /// Messages above this escaped size go in a POST body so the URL stays short.
    static let postThreshold = 8 * 1024
    /// docs/PROTOCOL.md §1.8: escaped channel plus message (GET: escaped; POST: body bytes).
    static let maximumMessageSize = 32 * 1024

    // MARK: - Request runner

    /// Runs `endpoint` for `operation` on `lane` (default: the service lane) and finishes the operation with exactly one of
    /// `success` / `failure`. Idempotent requests are re-sent after a malformed answer or a connection that failed
    /// without an answer, 3 attempts in total; publishes never are (docs/BEHAVIOR.md §4.3): the origin may have stored
    /// one whose answer was lost.
    func runRequest<Value>(
        _ operation: EngineOperation,
        endpoint: Endpoint,
        timeoutMessage: String,
        idempotent: Bool,
        lane: (any HTTPTransport)? = nil,
        associatedObject: Any? = nil,
        parse: @escaping (TransportResponse) -> Result<Value, ResponseFailure>,
        success: @escaping (Value) -> Void,
        failure: @escaping (PNError) -> Void
    ) {
        let timeout = self.settings?.nonSubscriptionRequestTimeout ?? 10
        operation.onAbort = { [unowned self] code in
            failure(PNError(code: code, category: .networkIssues))
            self.finish(operation)
        }
        operation.timers.append(
            self.schedule(after: timeout) { [unowned self] in
                guard !operation.finished else { return }
                operation.tasks.forEach { $0.cancel() }
                failure(PNError(message: timeoutMessage, code: kPNRequestExecutionFailedByTimeoutError))
                self.finish(operation)
            }
        )
        let lane = lane ?? self.serviceLane
        var attempts = 0
        func attempt() {
            attempts += 1
            let task = self.send(endpoint, lane: lane, timeout: timeout + 1) { [unowned self] result in
                guard !operation.finished else { return }
                switch result {
                case .failure(.cancelled):
                    return
                case .failure(let transportFailure)
                where idempotent && attempts < 3 && transportFailure.isLostConnection:
                    // docs/BEHAVIOR.md §4.3 write-failure retries, over HTTP: the connection failed without an answer.
                    // Re-sent while attempts remain; the probe this starts fails the request with 104 if the origin is
                    // gone.
                    self.transportFailed(transportFailure)
                    attempt()
                case .failure(let transportFailure):
                    failure(
                        PNError.fromTransport(
                            transportFailure,
                            networkCode: kPNRequestExecutionFailedOnInternetFailureError,
                            timeoutMessage: timeoutMessage
                        )
                    )
                    self.finish(operation)
                    self.transportFailed(transportFailure)
                case .success(let response):
                    switch parse(response) {
                    case .success(let value):
                        success(value)
                        self.finish(operation)
                    case .failure(.malformedJSON) where idempotent && attempts < 3,
                        .failure(.malformedField) where idempotent && attempts < 3,
                        .failure(.notUTF8) where idempotent && attempts < 3:
                        attempt()
                    case .failure(let responseFailure):
                        failure(PNError.fromResponse(responseFailure, associatedObject: associatedObject))
                        self.finish(operation)
                    }
                }
            }
            if let task { operation.tasks.append(task) }
        }
        attempt()
    }

    // MARK: - Time

    /// `requestServerTimeTokenWithCompletionBlock:`.
    func requestTime(block: UserBlock<PNClientTimeTokenReceivingCompleteBlock>?) {
        self.submit("time token") { operation in
            let fail: (PNError) -> Void = { [unowned self] error in
                self.emit(
                    .timeTokenReceiveDidFail(error),
                    completion: block.map { box in DeliveryBlock { box.block(nil, error) } }
                )
            }
            if let error = self.preflightError(associatedObject: nil) {
                fail(error)
                self.finish(operation)
                return
            }
            self.runRequest(
                operation,
                endpoint: .time,
                timeoutMessage: "Time token request failed by timeout",
                idempotent: true,
                parse: ResponseParser.time,
                success: { [unowned self] token in
                    self.emit(
                        .didReceiveTimeToken(token),
                        completion: block.map { box in DeliveryBlock { box.block(NSNumber(value: token), nil) } }
                    )
                },
                failure: fail
            )
        }
    }

    // MARK: - Publish

    /// `sendMessage:toChannel:withCompletionBlock:` after the message was built. `buildError` is the payload or
    /// channel error found while building it (122, 121, 123, 111); it is reported in call order.
    /// `sentTimeToken` (the `PubNubAsync` overlay) gets the publish time token on the delivery queue, right before
    /// the block's `PNMessageSent` call.
    func publish(
        _ message: PNMessage?,
        buildError: PNError?,
        block: UserBlock<PNClientMessageProcessingBlock>?,
        sentTimeToken: (@Sendable (UInt64?) -> Void)? = nil
    ) {
        self.submit("publish", pipelinable: true) { operation in
            let fail: (PNError) -> Void = { [unowned self] error in
                if let message { error.setAssociatedObject(message) }
                self.emit(
                    .messageSendDidFail(message, error),
                    completion: block.map { box in DeliveryBlock { box.block(.PNMessageSendingError, error) } }
                )
            }
            guard let message, let channel = message.channel, let text = message.message as? String,
                buildError == nil
            else {
                fail(buildError ?? PNError(code: kPNMessageObjectError))
                self.finish(operation)
                return
            }
            if let error = self.preflightError(associatedObject: message) {
                fail(error)
                self.finish(operation)
                return
            }
            let wire: String
            switch self.encodeOutgoingPayload(text) {
            case .success(let encoded): wire = encoded
            case .failure(let error):
                fail(error)
                self.finish(operation)
                return
            }
            let escaped = PercentEncoding.escape(wire)
            let method: Endpoint.PublishMethod = escaped.utf8.count > Self.postThreshold ? .post : .get
            let size =
                PercentEncoding.escape(channel.name).utf8.count
                + (method == .get ? escaped.utf8.count : wire.utf8.count)
            if size > Self.maximumMessageSize {
                fail(PNError(code: kPNTooLongMessageError))
                self.finish(operation)
                return
            }
            self.emit(
                .willSendMessage(message),
                completion: block.map { box in DeliveryBlock { box.block(.PNMessageSending, message) } }
            )
            // docs/BEHAVIOR.md §1.2, with `publishPipelineDepth` above 1: written on the pipelined lane, the publish
            // lets the next one start before its answer arrives.
            let pipelining = self.pipelineDepth > 1
            self.runRequest(
                operation,
                endpoint: .publish(channel: channel.name, message: wire, method: method),
                timeoutMessage: "Message sending failed by timeout",
                idempotent: false,
                lane: pipelining ? self.pipelineLane : nil,
                associatedObject: message,
                parse: ResponseParser.publish,
                success: { [unowned self] token in
                    let completion: DeliveryBlock? =
                        block == nil && sentTimeToken == nil
                        ? nil
                        : DeliveryBlock {
                            sentTimeToken?(token)
                            block?.block(.PNMessageSent, message)
                        }
                    self.emit(.didSendMessage(message), completion: completion)
                },
                failure: fail
            )
            if pipelining && !operation.finished {
                self.release(operation)
            }
        }
    }

    // MARK: - History

    /// `requestHistoryForChannel:from:to:limit:reverseHistory:withCompletionBlock:`.
    func requestHistory(
        _ channel: PNChannel,
        from: PNDate?,
        to: PNDate?,
        limit: UInt,
        reverse: Bool,
        block: UserBlock<PNClientHistoryLoadHandlingBlock>?
    ) {
        self.submit("history") { operation in
            let fail: (PNError) -> Void = { [unowned self] error in
                error.setAssociatedObject(channel)
                self.emit(
                    .historyDownloadDidFail(channel, error),
                    completion: block.map { box in DeliveryBlock { box.block(nil, channel, nil, nil, error) } }
                )
            }
            if let error = channel.validationError() ?? self.preflightError(associatedObject: channel) {
                fail(error)
                self.finish(operation)
                return
            }
            var start = from?.timeTokenValue
            var end = to?.timeTokenValue
            if let first = start, let last = end, last < first {
                // 3.4 swaps bounds given in the wrong order.
                start = last
                end = first
            }
            let count = limit == 0 ? 100 : Int(min(limit, 100))
            self.runRequest(
                operation,
                endpoint: .history(channel: channel.name, start: start, end: end, count: count, reverse: reverse),
                timeoutMessage: "Channel history request failed by timeout",
                idempotent: true,
                associatedObject: channel,
                parse: ResponseParser.history,
                success: { [unowned self] response in
                    // Undecodable payloads are left out of the history and reported after it, one error each
                    // with the raw text (see `undecodableMessageError`), as undecryptable ones are reported.
                    var failures: [(CryptoError, PNMessage)] = []
                    var undecodable: [(UndecodableReason, PNMessage)] = []
                    var messages: [PNMessage] = []
                    messages.reserveCapacity(response.messages.count)
                    for payload in response.messages {
                        switch payload {
                        case .value(let value):
                            let decoded = self.decodeReceivedPayload(value)
                            let message = PNMessage(
                                message: decoded.value,
                                channel: channel,
                                receiveDate: nil,
                                timeToken: nil
                            )
                            if let failure = decoded.failure {
                                failures.append((failure, message))
                            }
                            messages.append(message)
                        case .undecodable(let text, let reason):
                            let message = PNMessage(message: text, channel: channel, receiveDate: nil, timeToken: nil)
                            undecodable.append((reason, message))
                        }
                    }
                    let history = PNMessagesHistory(
                        startDate: PNDate(timeToken: response.start),
                        endDate: PNDate(timeToken: response.end),
                        channel: channel,
                        messages: messages
                    )
                    self.emit(
                        .didReceiveMessageHistory(history),
                        completion: block.map { box in
                            DeliveryBlock { box.block(messages, channel, history.startDate, history.endDate, nil) }
                        }
                    )
                    for (failure, message) in failures {
                        self.reportDecryptionFailure(failure, of: message)
                    }
                    for (reason, message) in undecodable {
                        self.reportUndecodableMessage(reason, of: message)
                    }
                },
                failure: fail
            )
        }
    }

    // MARK: - Here now

    /// `requestParticipantsListForChannel:withCompletionBlock:`.
    func requestParticipants(_ channel: PNChannel, block: UserBlock<PNClientParticipantsHandlingBlock>?) {
        self.submit("here now") { operation in
            let fail: (PNError) -> Void = { [unowned self] error in
                error.setAssociatedObject(channel)
                self.emit(
                    .participantsListDownloadDidFail(channel, error),
                    completion: block.map { box in DeliveryBlock { box.block(nil, channel, error) } }
                )
            }
            if let error = channel.validationError() ?? self.preflightError(associatedObject: channel) {
                fail(error)
                self.finish(operation)
                return
            }
            self.runRequest(
                operation,
                endpoint: .hereNow(channel: channel.name),
                timeoutMessage: "\"Here now\" request failed by timeout",
                idempotent: true,
                associatedObject: channel,
                parse: ResponseParser.hereNow,
                success: { [unowned self] response in
                    let hereNow = PNHereNow(
                        participants: response.uuids,
                        participantsCount: UInt32(clamping: response.occupancy),
                        channel: channel
                    )
                    channel.updateWithParticipantsList(hereNow)
                    self.emit(
                        .didReceiveParticipantsList(hereNow),
                        completion: block.map { box in DeliveryBlock { box.block(response.uuids, channel, nil) } }
                    )
                },
                failure: fail
            )
        }
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
