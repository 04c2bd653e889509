import Foundation

// Non-subscribe requests (docs/BEHAVIOR.md §4): time, publish, history and here-now, each described as one
// `RequestOperation` and executed by `run(_:)` (ClientEngine+Runner.swift).

extension ClientEngine {
    /// Messages above this escaped size go in a POST body so the URL stays short.
    static let postThreshold = 8 * 1024
    /// docs/PROTOCOL.md §1.8: escaped channel plus message (GET: escaped; POST: body bytes).
    static let maximumMessageSize = 32 * 1024

    // MARK: - Time

    /// `requestServerTimeTokenWithCompletionBlock:`.
    func requestTime(block: UserBlock<PNClientTimeTokenReceivingCompleteBlock>?) {
        self.run(
            RequestOperation(
                name: "time token",
                idempotent: true,
                timeoutMessage: "Time token request failed by timeout",
                preflight: { [unowned self] in
                    if let error = self.preflightError(associatedObject: nil) { return .fail(error) }
                    return .send(.time, announcing: nil)
                },
                parse: ResponseParser.time,
                succeeded: { token in
                    [
                        Emission(
                            .didReceiveTimeToken(token),
                            completion: block.map { box in DeliveryBlock { box.block(NSNumber(value: token), nil) } }
                        )
                    ]
                },
                failed: { error in
                    Emission(
                        .timeTokenReceiveDidFail(error),
                        completion: block.map { box in DeliveryBlock { box.block(nil, error) } }
                    )
                }
            )
        )
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
        self.run(
            RequestOperation(
                name: "publish",
                idempotent: false,
                pipelinable: true,
                timeoutMessage: "Message sending failed by timeout",
                associatedObject: message,
                preflight: { [unowned self] in
                    self.publishPreflight(message, buildError: buildError, block: block)
                },
                parse: ResponseParser.publish,
                succeeded: { token in
                    guard let message else { preconditionFailure("a publish without a message was sent") }
                    let completion: DeliveryBlock? =
                        block == nil && sentTimeToken == nil
                        ? nil
                        : DeliveryBlock {
                            sentTimeToken?(token)
                            block?.block(.PNMessageSent, message)
                        }
                    return [Emission(.didSendMessage(message), completion: completion)]
                },
                failed: { error in
                    if let message { error.setAssociatedObject(message) }
                    return Emission(
                        .messageSendDidFail(message, error),
                        completion: block.map { box in DeliveryBlock { box.block(.PNMessageSendingError, error) } }
                    )
                }
            )
        )
    }

    /// A publish's checks in 3.4's order — the build error, the pre-flight error, encryption, the size limit — then
    /// its request, announced by `willSendMessage`. The message and the channel are escaped once, for the size
    /// check and the request (`PublishDraft`).
    private func publishPreflight(
        _ message: PNMessage?,
        buildError: PNError?,
        block: UserBlock<PNClientMessageProcessingBlock>?
    ) -> RequestStart<UInt64?> {
        guard let message, let channel = message.channel, let text = message.message as? String, buildError == nil
        else {
            return .fail(buildError ?? PNError(code: kPNMessageObjectError))
        }
        if let error = self.preflightError(associatedObject: message) { return .fail(error) }
        let wire: String
        switch self.encodeOutgoingPayload(text) {
        case .success(let encoded): wire = encoded
        case .failure(let error): return .fail(error)
        }
        let draft = PublishDraft(channel: channel.name, wire: wire)
        if draft.size > Self.maximumMessageSize { return .fail(PNError(code: kPNTooLongMessageError)) }
        return .send(
            .publish(channel: channel.name, message: wire, method: draft.method),
            announcing: Emission(
                .willSendMessage(message),
                completion: block.map { box in DeliveryBlock { box.block(.PNMessageSending, message) } }
            ),
            draft: draft
        )
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
        self.run(
            RequestOperation(
                name: "history",
                idempotent: true,
                timeoutMessage: "Channel history request failed by timeout",
                associatedObject: channel,
                preflight: { [unowned self] in
                    if let error = channel.validationError() ?? self.preflightError(associatedObject: channel) {
                        return .fail(error)
                    }
                    var start = from?.timeTokenValue
                    var end = to?.timeTokenValue
                    if let first = start, let last = end, last < first {
                        // 3.4 swaps bounds given in the wrong order.
                        start = last
                        end = first
                    }
                    let count = limit == 0 ? 100 : Int(min(limit, 100))
                    return .send(
                        .history(channel: channel.name, start: start, end: end, count: count, reverse: reverse),
                        announcing: nil
                    )
                },
                parse: ResponseParser.history,
                succeeded: { [unowned self] response in
                    self.historyReceived(response, channel: channel, block: block)
                },
                failed: { error in
                    error.setAssociatedObject(channel)
                    return Emission(
                        .historyDownloadDidFail(channel, error),
                        completion: block.map { box in DeliveryBlock { box.block(nil, channel, nil, nil, error) } }
                    )
                }
            )
        )
    }

    /// The history event and block, then one error per message that could not be decrypted (delivered in the history
    /// as `DECRYPTION_ERROR`, docs/BEHAVIOR.md §3.10, see `decryptionError(_:of:)`) and one per payload that could not
    /// be decoded (left out of the history, reported with its raw text, see `undecodableMessageError(_:of:)`).
    private func historyReceived(
        _ response: HistoryResponse,
        channel: PNChannel,
        block: UserBlock<PNClientHistoryLoadHandlingBlock>?
    ) -> [Emission] {
        var failures: [PNError] = []
        var undecodable: [PNError] = []
        var messages: [PNMessage] = []
        messages.reserveCapacity(response.messages.count)
        for payload in response.messages {
            switch payload {
            case .value(let value):
                let decoded = self.decodeReceivedPayload(value)
                let message = PNMessage(message: decoded.value, channel: channel, receiveDate: nil, timeToken: nil)
                if let failure = decoded.failure {
                    failures.append(Self.decryptionError(failure, of: message))
                }
                messages.append(message)
            case .undecodable(let text, let reason):
                let message = PNMessage(message: text, channel: channel, receiveDate: nil, timeToken: nil)
                undecodable.append(Self.undecodableMessageError(reason, of: message))
            }
        }
        let history = PNMessagesHistory(
            startDate: PNDate(timeToken: response.start),
            endDate: PNDate(timeToken: response.end),
            channel: channel,
            messages: messages
        )
        let received = Emission(
            .didReceiveMessageHistory(history),
            completion: block.map { box in
                DeliveryBlock { box.block(messages, channel, history.startDate, history.endDate, nil) }
            }
        )
        // The errors are gated like the messages: while the gate is closed the history reaches only the block, so
        // there is nothing to report.
        guard self.gateIsOpen else { return [received] }
        return [received] + (failures + undecodable).map { Emission(.error($0)) }
    }

    // MARK: - Here now

    /// `requestParticipantsListForChannel:withCompletionBlock:`.
    func requestParticipants(_ channel: PNChannel, block: UserBlock<PNClientParticipantsHandlingBlock>?) {
        self.run(
            RequestOperation(
                name: "here now",
                idempotent: true,
                timeoutMessage: "\"Here now\" request failed by timeout",
                associatedObject: channel,
                preflight: { [unowned self] in
                    if let error = channel.validationError() ?? self.preflightError(associatedObject: channel) {
                        return .fail(error)
                    }
                    return .send(.hereNow(channel: channel.name), announcing: nil)
                },
                parse: ResponseParser.hereNow,
                succeeded: { response in
                    let hereNow = PNHereNow(
                        participants: response.uuids,
                        participantsCount: UInt32(clamping: response.occupancy),
                        channel: channel
                    )
                    channel.updateWithParticipantsList(hereNow)
                    return [
                        Emission(
                            .didReceiveParticipantsList(hereNow),
                            completion: block.map { box in DeliveryBlock { box.block(response.uuids, channel, nil) } }
                        )
                    ]
                },
                failed: { error in
                    error.setAssociatedObject(channel)
                    return Emission(
                        .participantsListDownloadDidFail(channel, error),
                        completion: block.map { box in DeliveryBlock { box.block(nil, channel, error) } }
                    )
                }
            )
        )
    }
}
