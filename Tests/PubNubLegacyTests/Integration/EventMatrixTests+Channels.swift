import Foundation
import PNObservation
import Testing

@testable import PubNubLegacy

// Rows of the subscription and presence-observation operations, and of what arrives on subscribed channels
// (messages, presence events).

extension EventMatrixTests {
    static let channelCases: [MatrixCase] = [
        MatrixCase(
            name: "subscribed",
            setup: { try await $0.connect() },
            trigger: {
                $0.client.subscribeOnChannels(
                    [$0.channel],
                    withPresenceEvent: false,
                    andCompletionHandlingBlock: $0.recorder.subscribeBlock
                )
            },
            rows: [
                Row(
                    event: "subscribed",
                    delegate: "didSubscribe",
                    observer: "subscription:1",
                    notification: kPNClientSubscriptionDidCompleteNotification,
                    block: "subscribe:1"
                )
            ]
        ),
        MatrixCase(
            name: "subscribe failed",
            origin: .fake,
            setup: { harness in
                try await harness.connect()
                harness.fail("/v2/subscribe/")
            },
            trigger: {
                $0.client.subscribeOnChannels(
                    [$0.channel],
                    withPresenceEvent: false,
                    andCompletionHandlingBlock: $0.recorder.subscribeBlock
                )
            },
            rows: [
                Row(
                    event: "subscribe failed",
                    delegate: "subscriptionDidFail",
                    observer: "subscription:0",
                    notification: kPNClientSubscriptionDidFailNotification,
                    block: "subscribe:0"
                )
            ]
        ),
        MatrixCase(
            name: "unsubscribed",
            setup: { harness in
                try await harness.connect()
                try await harness.subscribe()
            },
            trigger: {
                $0.client.unsubscribeFromChannels(
                    [$0.channel],
                    withPresenceEvent: false,
                    andCompletionHandlingBlock: $0.recorder.channelsBlock("unsubscribe")
                )
            },
            rows: [
                Row(
                    event: "unsubscribed",
                    delegate: "didUnsubscribe",
                    observer: "unsubscription",
                    notification: kPNClientUnsubscriptionDidCompleteNotification,
                    block: "unsubscribe"
                )
            ]
        ),
        MatrixCase(
            name: "unsubscribe failed (refused channel name)",
            setup: { try await $0.connect() },
            trigger: {
                $0.client.unsubscribeFromChannels(
                    [PNChannel.channelWithName("bad,name")],
                    withPresenceEvent: false,
                    andCompletionHandlingBlock: $0.recorder.channelsBlock("unsubscribe")
                )
            },
            rows: [
                Row(
                    event: "unsubscribe failed",
                    delegate: "unsubscriptionDidFail",
                    observer: "unsubscription:error",
                    notification: kPNClientUnsubscriptionDidFailNotification,
                    block: "unsubscribe"
                )
            ]
        ),
        MatrixCase(
            name: "presence enabled",
            setup: { harness in
                try await harness.connect()
                try await harness.subscribe()
            },
            trigger: {
                $0.client.enablePresenceObservationForChannels(
                    [$0.channel],
                    withCompletionHandlingBlock: $0.recorder.channelsBlock("presenceEnable")
                )
            },
            rows: [
                Row(
                    event: "presence enabled",
                    delegate: "didEnablePresenceObservation",
                    observer: "presenceEnable",
                    notification: kPNClientPresenceEnablingDidCompleteNotification,
                    block: "presenceEnable"
                )
            ],
            // The client's own join on the newly observed channel may arrive: not part of this row.
            ignoring: { $0.key.hasPrefix("presence(") }
        ),
        MatrixCase(
            name: "presence enable failed (refused channel name)",
            setup: { try await $0.connect() },
            trigger: {
                $0.client.enablePresenceObservationForChannels(
                    [PNChannel.channelWithName("bad,name")],
                    withCompletionHandlingBlock: $0.recorder.channelsBlock("presenceEnable")
                )
            },
            rows: [
                Row(
                    event: "presence enable failed",
                    delegate: "presenceObservationEnablingDidFail",
                    observer: "presenceEnable:error",
                    notification: kPNClientPresenceEnablingDidFailNotification,
                    block: "presenceEnable"
                )
            ]
        ),
        MatrixCase(
            name: "presence disabled",
            setup: { harness in
                try await harness.connect()
                try await harness.subscribe(presence: true)
            },
            trigger: {
                $0.client.disablePresenceObservationForChannels(
                    [$0.channel],
                    withCompletionHandlingBlock: $0.recorder.channelsBlock("presenceDisable")
                )
            },
            rows: [
                Row(
                    event: "presence disabled",
                    delegate: "didDisablePresenceObservation",
                    observer: "presenceDisable",
                    notification: kPNClientPresenceDisablingDidCompleteNotification,
                    block: "presenceDisable"
                )
            ],
            // The client's own join on the observed channel may arrive late: not part of this row.
            ignoring: { $0.key.hasPrefix("presence(") }
        ),
        MatrixCase(
            name: "presence disable failed (refused channel name)",
            setup: { try await $0.connect() },
            trigger: {
                $0.client.disablePresenceObservationForChannels(
                    [PNChannel.channelWithName("bad/name")],
                    withCompletionHandlingBlock: $0.recorder.channelsBlock("presenceDisable")
                )
            },
            rows: [
                Row(
                    event: "presence disable failed",
                    delegate: "presenceObservationDisablingDidFail",
                    observer: "presenceDisable:error",
                    notification: kPNClientPresenceDisablingDidFailNotification,
                    block: "presenceDisable"
                )
            ]
        ),
        MatrixCase(
            name: "message received",
            setup: { harness in
                try await harness.connect()
                try await harness.subscribe()
            },
            trigger: { harness in
                let peer = try await harness.peer(uuid: "peer-sender")
                peer.connect()
                peer.sendMessage("hello", toChannel: PNChannel.channelWithName(harness.channel.name))
            },
            rows: [
                Row(
                    event: "message received",
                    delegate: "didReceiveMessage",
                    observer: "messageReceive",
                    notification: kPNClientDidReceiveMessageNotification
                )
            ]
        ),
        MatrixCase(
            name: "presence event received",
            setup: { harness in
                try await harness.connect()
                try await harness.subscribe(presence: true)
            },
            trigger: { harness in
                let peer = try await harness.peer(uuid: "peer-joiner")
                peer.connect()
                peer.subscribeOnChannels([PNChannel.channelWithName(harness.channel.name)], withPresenceEvent: false)
            },
            rows: [
                Row(
                    event: "presence event",
                    delegate: "didReceivePresenceEvent",
                    observer: "presenceEvent",
                    notification: kPNClientDidReceivePresenceEventNotification
                )
            ],
            // The client's own join may or may not arrive, depending on timing; only the peer's join is checked.
            ignoring: { $0.key.hasPrefix("presence(") && !$0.key.hasPrefix("presence(peer-joiner)") }
        ),
    ]
}
