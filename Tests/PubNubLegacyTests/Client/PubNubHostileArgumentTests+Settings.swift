import Foundation
import LocalOrigin
import PNObservation
import TestSupport
import Testing

@testable import PubNubLegacy

// The rows of PubNubHostileArgumentTests that give hostile identifiers and settings (UUID, keys, origin, cipher
// key, timeouts), empty channel lists and nil dates; and the rows at the edge that must go out intact.

extension PubNubHostileArgumentTests {
    /// A plain-HTTP configuration built through 3.4's constructor, for the settings that have no setter.
    static func configuration(origin: String, publishKey: String = "pub-c-test") -> PNConfiguration {
        let configuration = PNConfiguration(
            origin: origin,
            publishKey: publishKey,
            subscribeKey: "sub-c-test",
            secretKey: nil,
            cipherKey: nil
        )
        configuration.useSecureConnection = false
        return configuration
    }

    /// Changes the configuration and hands it to the client.
    static func configured(_ change: @escaping @Sendable (PNConfiguration) -> Void) -> Call {
        { client, _, configuration in
            change(configuration)
            client.setConfiguration(configuration)
        }
    }

    static var settingRows: [Row] {
        let refused = Expectation.refused(code: kPNClientConfigurationError, on: errorEvent)
        return [
            Row(description: "uuid: empty", expectation: refused) { client, _, _ in client.setClientIdentifier("") },
            Row(description: "uuid: 93 characters", expectation: refused) { client, _, _ in
                client.setClientIdentifier(String(repeating: "u", count: PNConfiguration.maximumUUIDLength + 1))
            },
            Row(description: "uuid: 10 MB", expectation: refused) { client, _, _ in
                client.setClientIdentifier(String(repeating: "u", count: tenMegabytes))
            },
            Row(description: "configuration: empty uuid", expectation: refused, call: configured { $0.uuid = "" }),
            Row(
                description: "configuration: 10 MB auth key",
                expectation: refused,
                call: configured { $0.authorizationKey = String(repeating: "k", count: tenMegabytes) }
            ),
            Row(description: "configuration: 5,000-byte publish key", expectation: refused) {
                client,
                _,
                configuration in
                client.setConfiguration(
                    Self.configuration(origin: configuration.origin, publishKey: String(repeating: "é", count: 2_500))
                )
            },
            Row(description: "configuration: NUL in the origin", expectation: refused) { client, _, configuration in
                client.setConfiguration(Self.configuration(origin: configuration.origin + "\u{0}"))
            },
            Row(
                description: "configuration: NaN timeout",
                expectation: refused,
                call: configured { $0.nonSubscriptionRequestTimeout = .nan }
            ),
            // Issue 31: durations no clock can hold.
            Row(
                description: "configuration: infinite subscribe timeout",
                expectation: refused,
                call: configured { $0.subscriptionRequestTimeout = .infinity }
            ),
            Row(
                description: "configuration: negative idle time",
                expectation: refused,
                call: configured { $0.subscribeMaximumIdleTime = -1 }
            ),
            Row(
                description: "configuration: zero request timeout",
                expectation: refused,
                call: configured { $0.nonSubscriptionRequestTimeout = 0 }
            ),
            Row(description: "configuration: nil keys", expectation: refused) { client, _, _ in
                client.setConfiguration(
                    PNConfiguration(origin: nil, publishKey: nil, subscribeKey: nil, secretKey: nil, cipherKey: nil)
                )
            },
            // Empty channel lists.
            Row(description: "subscribe: no channels", expectation: .completesLocally) { client, four, _ in
                client.subscribeOnChannels([], withCompletionHandlingBlock: four.subscribeBlock)
            },
            Row(description: "unsubscribe: no channels", expectation: .completesLocally) {
                client,
                four,
                _ in
                client.unsubscribeFromChannels([], withCompletionHandlingBlock: four.channelsBlock("unsubscribe"))
            },
            Row(description: "presence on: no channels", expectation: .completesLocally) {
                client,
                four,
                _ in
                client.enablePresenceObservationForChannels([], withCompletionHandlingBlock: four.channelsBlock("p"))
            },
            Row(description: "push on: no channels", expectation: .completesLocally) { client, four, _ in
                client.enablePushNotificationsOnChannels(
                    [],
                    withDevicePushToken: token,
                    andCompletionHandlingBlock: four.channelsBlock("pushOn")
                )
            },
            Row(description: "push off: no channels", expectation: .completesLocally) { client, four, _ in
                client.disablePushNotificationsOnChannels(
                    [],
                    withDevicePushToken: token,
                    andCompletionHandlingBlock: four.channelsBlock("pushOff")
                )
            },
            // Accepted values: they reach the origin as they should.
            Row(
                description: "history: nil dates",
                expectation: .succeeds(block: "history", sends: "/v2/history/", never: "start=")
            ) { client, four, _ in
                client.requestHistoryForChannel(
                    PNChannel.channelWithName("fine"),
                    from: nil,
                    to: nil,
                    limit: 0,
                    reverseHistory: false,
                    withCompletionBlock: four.historyBlock
                )
            },
            Row(
                description: "uuid: control character and non-ASCII, escaped",
                expectation: .succeeds(block: "time", sends: "uuid=%C3%BC%01x", never: nil)
            ) { client, four, _ in
                client.setClientIdentifier("ü\u{1}x")
                client.requestServerTimeTokenWithCompletionBlock(four.timeBlock)
            },
            Row(
                description: "uuid: 92 characters",
                expectation: .succeeds(block: "time", sends: "uuid=" + String(repeating: "u", count: 92), never: nil)
            ) { client, four, _ in
                client.setClientIdentifier(String(repeating: "u", count: PNConfiguration.maximumUUIDLength))
                client.requestServerTimeTokenWithCompletionBlock(four.timeBlock)
            },
            Row(
                description: "configuration: empty auth key sends no auth",
                expectation: .succeeds(block: "time", sends: "/time/0", never: "auth=")
            ) { client, four, configuration in
                Self.configured { $0.authorizationKey = "" }(client, four, configuration)
                client.requestServerTimeTokenWithCompletionBlock(four.timeBlock)
            },
            Row(
                description: "configuration: 1 MB cipher key encrypts",
                expectation: .succeeds(
                    block: "send:\(PNMessageState.PNMessageSent.rawValue)",
                    sends: "/publish/",
                    never: "secret"
                )
            ) { client, four, configuration in
                Self.configured { $0.cipherKey = String(repeating: "k", count: 1_000_000) }(client, four, configuration)
                client.sendMessage(
                    "secret",
                    toChannel: PNChannel.channelWithName("fine"),
                    withCompletionBlock: four.sendBlock
                )
            },
            Row(
                description: "configuration: huge timeouts and heartbeat interval",
                expectation: .succeeds(block: "time", sends: "/time/0", never: nil)
            ) { client, four, configuration in
                Self.configured {
                    $0.nonSubscriptionRequestTimeout = 1e300
                    $0.presenceHeartbeatInterval = .max
                    $0.presenceHeartbeatValue = .max
                }(client, four, configuration)
                client.requestServerTimeTokenWithCompletionBlock(four.timeBlock)
            },
            Row(
                description: "configuration: 1e10 s subscribe timeout and idle time",
                expectation: .succeeds(
                    block: "subscribe:\(PNSubscriptionProcessState.PNSubscriptionProcessSubscribedState.rawValue)",
                    sends: "/v2/subscribe/sub-c-test/far/",
                    never: nil
                )
            ) { client, four, configuration in
                Self.configured {
                    $0.subscriptionRequestTimeout = 1e10
                    $0.subscribeMaximumIdleTime = .greatestFiniteMagnitude
                }(client, four, configuration)
                client.subscribeOnChannels(
                    [PNChannel.channelWithName("far")],
                    withCompletionHandlingBlock: four.subscribeBlock
                )
            },
            Row(
                description: "subscribe: a 2,048-character name",
                expectation: .succeeds(
                    block: "subscribe:\(PNSubscriptionProcessState.PNSubscriptionProcessSubscribedState.rawValue)",
                    // The origin's log keeps the first 2 KiB of a target.
                    sends: "/v2/subscribe/sub-c-test/" + String(repeating: "s", count: 1_000),
                    never: nil
                )
            ) { client, four, _ in
                let name = String(repeating: "s", count: PNChannel.maximumNameLength)
                client.subscribeOnChannels(
                    [PNChannel.channelWithName(name)],
                    withCompletionHandlingBlock: four.subscribeBlock
                )
            },
        ]
    }
}
