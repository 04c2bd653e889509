import Foundation
import PlatformSupport
import PubNubLegacy

// The commands, each written as a 3.x app calls the facade: static `PubNub` methods with completion blocks that
// print `[block]` lines and open the latch the input thread waits on.

extension ConsoleSession {
    func perform(_ command: ConsoleCommand) {
        let out = self.output
        switch command {
        case .help(let topic):
            out.lines(ConsoleCommand.helpText(topic: topic))
        case .quit:
            break
        case .status:
            out.line(Self.statusLine(self.state))
        case .configShow:
            out.line("config \(self.settings.description) uuid=\(PubNub.clientIdentifier() ?? "-")")
        case .configOrigin, .configKeys, .configCipher, .configAuth, .configTLS:
            self.configure(command)
        case .configUUID(let identifier):
            self.setIdentifier(identifier)
        case .delegate(let on):
            PubNub.setDelegate(on ? self.printer : nil)
            self.delegateEnabled = on
            out.line("delegate \(on ? "on" : "off")")
        case .reset:
            PubNub.resetClient()
            self.state.setConnection("not connected")
            PubNub.setupWithConfiguration(
                self.settings.configuration(deliveringOn: self.queue),
                andDelegate: self.delegateEnabled ? self.printer : nil
            )
            out.line("reset: a new shared client with the same configuration")
        case .connect:
            self.awaitBlock("connect") { latch in
                PubNub.connectWithSuccessBlock(
                    { origin in
                        out.line("[block] connect success origin=\(origin)")
                        latch.open()
                    },
                    errorBlock: { error in
                        out.line("[block] connect failure \(ConsoleFormat.error(error))")
                        latch.open()
                    }
                )
            }
        case .disconnect:
            if !self.disconnect() {
                out.line("disconnect: not connected, nothing to end")
            }
        case .subscribe(let names, let presenceEvent):
            self.awaitBlock("subscribe") { latch in
                PubNub.subscribeOnChannels(PNChannel.channelsWithNames(names), withPresenceEvent: presenceEvent) {
                    state,
                    channels,
                    error in
                    out.line(
                        "[block] subscribe state=\(ConsoleFormat.state(state)) channels=\(ConsoleFormat.channels(channels))"
                            + " \(ConsoleFormat.error(error))"
                    )
                    latch.open()
                }
            }
        case .unsubscribe(let names, let presenceEvent):
            self.awaitBlock("unsubscribe") { latch in
                PubNub.unsubscribeFromChannels(PNChannel.channelsWithNames(names), withPresenceEvent: presenceEvent) {
                    channels,
                    error in
                    out.line(
                        "[block] unsubscribe channels=\(ConsoleFormat.channels(channels)) \(ConsoleFormat.error(error))"
                    )
                    latch.open()
                }
            }
        case .subscribed(let names):
            if names.isEmpty {
                out.line("subscribed channels=\(ConsoleFormat.channels(PubNub.subscribedChannels()))")
            } else {
                let answers = names.map { "\($0)=\(PubNub.isSubscribedOnChannel(PNChannel.channelWithName($0)))" }
                out.line("subscribed " + answers.joined(separator: " "))
            }
        case .presence(let enable, let names):
            self.observePresence(enable, PNChannel.channelsWithNames(names))
        case .presenceStatus(let names):
            let answers = names.map {
                "\($0)=\(PubNub.isPresenceObservationEnabledForChannel(PNChannel.channelWithName($0)))"
            }
            out.line("presence " + answers.joined(separator: " "))
        case .publish(let channel, let payload):
            self.publish(payload, to: PNChannel.channelWithName(channel))
        case .resend:
            self.resend()
        case .history(let channel, let query):
            self.history(PNChannel.channelWithName(channel), query)
        case .hereNow(let channel):
            self.awaitBlock("herenow") { latch in
                PubNub.requestParticipantsListForChannel(PNChannel.channelWithName(channel)) { uuids, channel, error in
                    out.line(
                        "[block] herenow \(ConsoleFormat.participants(uuids, channel)) \(ConsoleFormat.error(error))"
                    )
                    latch.open()
                }
            }
        case .time:
            self.awaitBlock("time") { latch in
                PubNub.requestServerTimeTokenWithCompletionBlock { token, error in
                    out.line(
                        "[block] time token=\(token.map { String($0.uint64Value) } ?? "-") \(ConsoleFormat.error(error))"
                    )
                    latch.open()
                }
            }
        case .pushEnable, .pushDisable, .pushList, .pushRemove:
            self.push(command)
        case .wait(let kind, let seconds):
            let timeout = seconds ?? 10
            let signal: ConsoleState.Signal = kind == .message ? .message : .presence
            let asked = Date()
            if let arrival = self.state.take(signal, timeout: timeout) {
                out.line("wait \(kind.rawValue): \(arrival.detail) (\(Self.when(arrival.at, asked: asked)))")
            } else {
                out.line("timeout wait \(kind.rawValue): none arrived in \(Self.seconds(timeout))")
            }
        }
    }

    // MARK: - Configuration

    private func configure(_ command: ConsoleCommand) {
        var next = self.settings
        let what: String
        switch command {
        case .configOrigin(let origin):
            (next.origin, next.embedded, what) = (origin, false, "origin \(origin)")
        case .configKeys(let publish, let subscribe, let secret):
            (next.publishKey, next.subscribeKey, next.secretKey, what) = (publish, subscribe, secret, "keys")
        case .configCipher(let key):
            (next.cipherKey, what) = (key, "cipher \(key == nil ? "off" : "on")")
        case .configAuth(let key):
            (next.authorizationKey, what) = (key, "auth \(key == nil ? "off" : "on")")
        case .configTLS(let on):
            (next.secure, what) = (on, "tls \(on ? "on" : "off")")
        default:
            return
        }
        let configuration = next.configuration(deliveringOn: self.queue)
        if configuration.validationError() != nil {
            // Applied anyway, as an app would: the client refuses it through `pubnubClient(_:error:)`.
            let baseline = self.baseline([.configurationError])
            PubNub.setConfiguration(configuration)
            self.awaitSignal("config \(what)", [.configurationError], after: baseline)
            self.output.line("config \(what) refused; still \(self.settings.description)")
            return
        }
        let resets =
            PubNub.sharedInstance().isConnected()
            && (next.origin != self.settings.origin || next.secure != self.settings.secure
                || next.authorizationKey != self.settings.authorizationKey)
        let baseline = self.baseline([.connected, .connectionFailed])
        PubNub.setConfiguration(configuration)
        self.settings = next
        self.output.line("config \(what) applied\(resets ? "; reconnecting (hard reset)" : "")")
        if resets {
            self.awaitSignal("config \(what)", [.connected, .connectionFailed], after: baseline)
        }
    }

    private func setIdentifier(_ identifier: String?) {
        let softReset = PubNub.sharedInstance().isConnected() && !PubNub.subscribedChannels().isEmpty
        let previous = PubNub.clientIdentifier()
        let baseline = self.baseline([.subscribed, .configurationError])
        PubNub.setClientIdentifier(identifier)
        // The getter shows an identifier the client took as soon as the setter returns; one it refused (empty, too
        // long) leaves it as it was and is reported through `pubnubClient(_:error:)`.
        if let identifier, identifier != previous, PubNub.clientIdentifier() == previous {
            self.awaitSignal("config uuid", [.configurationError], after: baseline)
            self.output.line("config uuid refused; still \(previous ?? "-")")
            return
        }
        if softReset && identifier != previous {
            // Soft reset: a leave with the old identifier, then the same channels again with the new one.
            self.awaitSignal("config uuid", [.subscribed], after: baseline)
        }
        self.output.line("config uuid \(PubNub.clientIdentifier() ?? "-")")
    }

    // MARK: - Presence, messages, history, push

    private func observePresence(_ enable: Bool, _ channels: [PNChannel]) {
        let out = self.output
        let name = enable ? "presence on" : "presence off"
        self.awaitBlock(name) { latch in
            let block = { (channels: [PNChannel], error: PNError?) in
                out.line("[block] \(name) channels=\(ConsoleFormat.channels(channels)) \(ConsoleFormat.error(error))")
                latch.open()
            }
            if enable {
                PubNub.enablePresenceObservationForChannels(channels, withCompletionHandlingBlock: block)
            } else {
                PubNub.disablePresenceObservationForChannels(channels, withCompletionHandlingBlock: block)
            }
        }
    }

    private func publish(_ payload: ConsoleCommand.Payload, to channel: PNChannel) {
        let object: Any
        switch payload {
        case .text(let text):
            object = text
        case .json(let text):
            // Checked while parsing; a 3.x app hands the decoded object to sendMessage.
            guard let value = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            else { return }
            object = value
        }
        self.awaitBlock("publish") { latch in
            let message = PubNub.sendMessage(object, toChannel: channel, withCompletionBlock: self.publishBlock(latch))
            if let message { self.lastMessage = message }
        }
    }

    private func resend() {
        guard let message = self.lastMessage else {
            self.output.line("error: nothing to resend: publish a message first")
            self.output.line("usage: \(ConsoleCommand.usage(of: "resend"))")
            return
        }
        self.awaitBlock("resend") { latch in
            PubNub.sendMessage(message, withCompletionBlock: self.publishBlock(latch))
        }
    }

    /// The publish block: prints every state, opens the latch on the final one (sent or failed).
    private func publishBlock(_ latch: Latch) -> PNClientMessageProcessingBlock {
        let out = self.output
        return { state, object in
            out.line("[block] publish \(ConsoleFormat.processing(state, object))")
            if state != .PNMessageSending { latch.open() }
        }
    }

    private func history(_ channel: PNChannel, _ query: ConsoleCommand.HistoryQuery) {
        let out = self.output
        self.awaitBlock("history") { latch in
            PubNub.requestHistoryForChannel(
                channel,
                from: query.from.map { PNDate(timeToken: $0) },
                to: query.to.map { PNDate(timeToken: $0) },
                limit: query.limit,
                reverseHistory: query.reverse
            ) { messages, channel, start, end, error in
                out.line(
                    "[block] history \(ConsoleFormat.history(messages, channel, start, end)) \(ConsoleFormat.error(error))"
                )
                latch.open()
            }
        }
    }

    private func push(_ command: ConsoleCommand) {
        let out = self.output
        let channelsBlock = { (name: String, latch: Latch) in
            { (channels: [PNChannel]?, error: PNError?) in
                out.line("[block] \(name) channels=\(ConsoleFormat.channels(channels)) \(ConsoleFormat.error(error))")
                latch.open()
            }
        }
        switch command {
        case .pushEnable(let names, let token):
            self.awaitBlock("push enable") { latch in
                let block = channelsBlock("push enable", latch)
                PubNub.enablePushNotificationsOnChannels(
                    PNChannel.channelsWithNames(names),
                    withDevicePushToken: token
                ) { block($0, $1) }
            }
        case .pushDisable(let names, let token):
            self.awaitBlock("push disable") { latch in
                let block = channelsBlock("push disable", latch)
                PubNub.disablePushNotificationsOnChannels(
                    PNChannel.channelsWithNames(names),
                    withDevicePushToken: token
                ) { block($0, $1) }
            }
        case .pushList(let token):
            self.awaitBlock("push list") { latch in
                let block = channelsBlock("push list", latch)
                PubNub.requestPushNotificationEnabledChannelsForDevicePushToken(token) { block($0, $1) }
            }
        case .pushRemove(let token):
            self.awaitBlock("push remove") { latch in
                PubNub.removeAllPushNotificationsForDevicePushToken(token) { error in
                    out.line("[block] push remove \(ConsoleFormat.error(error))")
                    latch.open()
                }
            }
        default:
            break
        }
    }
}
