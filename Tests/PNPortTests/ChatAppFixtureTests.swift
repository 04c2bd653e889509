import Foundation
import Testing

@testable import PNPort

/// The assistant over the ChatApp fixture (Objective-C written for these tests in the 3.4 style): every use of the
/// 3.4 API it holds, with its Swift spelling, the edits flagged and the names not recognised. The fixture covers
/// each construct the assistant reads: multi-line sends with nested brackets and blocks, selectors split over lines,
/// `@selector`, `PNDelegate` implementations in every shape, constants, enum cases in switches with and without
/// `default`, notification names, `PNDefaultConfiguration.h` macros, block typedefs, `PNLog`, `pn_desired_weak`,
/// public, protected and private headers, a 3.5+ call and name, a misspelled delegate method.
@Suite struct ChatAppFixtureTests {
    /// `file:line kind: Swift` for every entry, in input order.
    static let expectedEntries = [
        "ChatAppDelegate.h:7 #import: import PubNubLegacy",
        "ChatAppDelegate.h:10 PNDelegate adoption: @MainActor class ChatAppDelegate: UIResponder, UIApplicationDelegate, @preconcurrency PNDelegate",
        "ChatAppDelegate.h:14 block type: PNClientConnectionSuccessBlock",
        "ChatAppDelegate.m:7 #import: (delete the line)",
        "ChatAppDelegate.m:8 #import: (not spelled)",
        "ChatAppDelegate.m:26 call: PubNub.setDelegate(self)",
        "ChatAppDelegate.m:27 call: PubNub.setConfiguration(PNConfiguration.configurationForOrigin(\"chat.example.com\", publishKey: \"pub-key\", subscribeKey: \"sub-key\", secretKey: nil))",
        "ChatAppDelegate.m:38 pn_desired_weak: weak var weakSelf = self",
        "ChatAppDelegate.m:39 call: PubNub.connectWithSuccessBlock({ origin in /* lines 39–61 */ }, errorBlock: { connectionError in /* lines 62–72 */ })",
        "ChatAppDelegate.m:41 PNLog: PNLog(PNLogGeneralLevel, weakSelf, \"{BLOCK} connected to: %@\", origin)",
        "ChatAppDelegate.m:42 call: PNChannel.channelWithName(\"lobby\", shouldObservePresence: true)",
        "ChatAppDelegate.m:43 call: PubNub.subscribeOnChannel((weakSelf?.lobby)!, withCompletionHandlingBlock: { state, channels, subscriptionError in /* lines 46–60 */ })",
        "ChatAppDelegate.m:49 case label: case .PNSubscriptionProcessNotSubscribedState:",
        "ChatAppDelegate.m:50 PNLog: PNLog(PNLogGeneralLevel, weakSelf, \"subscribe failed: %@\", subscriptionError?.localizedDescription)",
        "ChatAppDelegate.m:53 case label: case .PNSubscriptionProcessSubscribedState:",
        "ChatAppDelegate.m:54 call: PubNub.sendMessage(\"hello from 3.4\", toChannel: channels.last!)",
        "ChatAppDelegate.m:56 case label: case .PNSubscriptionProcessWillRestoreState:",
        "ChatAppDelegate.m:57 case label: case .PNSubscriptionProcessRestoredState:",
        "ChatAppDelegate.m:65 case label: case kPNClientConnectionFailedOnInternetFailureError:",
        "ChatAppDelegate.m:68 case label: case kPNClientTriedConnectWhileConnectedError:",
        "ChatAppDelegate.m:71 Foundation call on 3.4 values: NSLog(\"connection failed: %@\", String(describing: connectionError))",
        "ChatAppDelegate.m:74 Foundation call on 3.4 values: _ = NotificationCenter.default.addObserver(forName: kPNClientDidConnectToOriginNotification, object: nil, queue: .main) { [weak self] notification in MainActor.assumeIsolated { self?.clientDidConnect(notification) } }",
        "ChatAppDelegate.m:78 call: (not spelled)",
        "ChatAppDelegate.m:83 property: let origin = notification.pnPayload as! String",
        "ChatAppDelegate.m:84 PNLog: PNLog(PNLogGeneralLevel, self, \"notified of a connection to %@\", origin)",
        "ChatAppDelegate.m:90 delegate method: func pubnubClient(_ client: PubNub, error: PNError)",
        "ChatAppDelegate.m:92 PNLog: PNLog(PNLogGeneralLevel, self, \"PubNub reported an error: %@\", error)",
        "ChatAppDelegate.m:95 delegate method: func pubnubClient(_ client: PubNub, didConnectToOrigin origin: String)",
        "ChatAppDelegate.m:99 PNLog: PNLog(PNLogGeneralLevel, self, \"connection restored to %@ as %@\", origin, PubNub.clientIdentifier())",
        "ChatAppDelegate.m:103 delegate method: func pubnubClient(_ client: PubNub, subscriptionDidFailWithError error: NSError)",
        "ChatAppDelegate.m:105 PNLog: PNLog(PNLogGeneralLevel, self, \"subscription failed: %@\", error)",
        "ChatAppDelegate.m:108 delegate method: func pubnubClient(_ client: PubNub, didReceiveMessage message: PNMessage)",
        "ChatAppDelegate.m:110 PNLog: PNLog(PNLogGeneralLevel, self, \"%@ said %@\", message.channel?.name, message.message)",
        "ChatAppDelegate.m:113 delegate method: func pubnubClient(_ client: PubNub, didFailMessageSend message: PNMessage?, withError error: PNError)",
        "ChatAppDelegate.m:115 constant: kPNRequestExecutionFailedByTimeoutError",
        "ChatAppDelegate.m:117 call: PubNub.sendMessage(message!)",
        "ChatAppDelegate.m:121 delegate method: func pubnubClient(_ client: PubNub, didReceiveMessageHistory messages: [PNMessage], forChannel channel: PNChannel, startingFrom startDate: Date?, to endDate: Date?)",
        "ChatAppDelegate.m:127 PNLog: PNLog(PNLogGeneralLevel, self, \"%lu messages of %@\", UInt(messages.count), channel)",
        "ChatAppDelegate.m:130 delegate method: (not spelled)",
        "ChatAppDelegate.m:135 delegate method: func shouldReconnectPubNubClient(_ client: PubNub) -> NSNumber?",
        "ChatAppDelegate.m:140 delegate method: func shouldRestoreSubscriptionFromLastTimeToken() -> NSNumber?",
        "ChatViewController.h:6 #import: import PNObservation",
        "ChatViewController.h:7 #import: import PubNubLegacy",
        "ChatViewController.m:7 #import: (delete the line)",
        "ChatViewController.m:8 #import: import PubNubLegacy; import PNObservation",
        "ChatViewController.m:17 PNDelegate adoption: extension ChatViewController: @preconcurrency PNDelegate {}",
        "ChatViewController.m:20 block type: PNClientMessageProcessingBlock",
        "ChatViewController.m:31 call: PNObservationCenter.defaultCenter().addMessageReceiveObserver(self, withBlock: { message in /* lines 32–35 */ })",
        "ChatViewController.m:34 Foundation call on 3.4 values: String(format: \"%@: %@\", String(describing: message.channel), String(describing: message.message))",
        "ChatViewController.m:36 call: PNObservationCenter.defaultCenter().addPresenceEventObserver(self, withBlock: { event in /* lines 36–42 */ })",
        "ChatViewController.m:38 property: event.type",
        "ChatViewController.m:38 enum constant: PNPresenceEventJoin",
        "ChatViewController.m:40 property: event.uuid",
        "ChatViewController.m:43 call: PNObservationCenter.defaultCenter().addClientConnectionStateObserver(self, withCallbackBlock: { origin, connected, error in /* lines 45–50 */ })",
        "ChatViewController.m:46 constant: kPNClientConnectionClosedOnInternetFailureError",
        "ChatViewController.m:51 Foundation call on 3.4 values: _ = NotificationCenter.default.addObserver(forName: kPNClientDidReceiveMessageNotification, object: nil, queue: .main) { [weak self] notification in MainActor.assumeIsolated { self?.messageArrived(notification) } }",
        "ChatViewController.m:59 case label: case PNMessageSending:",
        "ChatViewController.m:61 case label: case PNMessageSent:",
        "ChatViewController.m:62 PNLog: PNLog(PNLogGeneralLevel, nil, \"sent %@\", data)",
        "ChatViewController.m:72 property: let message = notification.pnPayload as! PNMessage",
        "ChatViewController.m:73 property: message.message",
        "ChatViewController.m:78 call: let channel = PNChannel.channelWithName(name)",
        "ChatViewController.m:79 call: let channels = PNChannel.channelsWithNames([name, name + \"-archive\"])",
        "ChatViewController.m:80 call: PubNub.subscribeOnChannels(channels, withPresenceEvent: false)",
        "ChatViewController.m:81 call: PubNub.isSubscribedOnChannel(channel)",
        "ChatViewController.m:83 call: PubNub.unsubscribeFromChannel(self.currentChannel, withPresenceEvent: true, andCompletionHandlingBlock: { left, error in /* lines 84–87 */ })",
        "ChatViewController.m:86 PNLog: PNLog(PNLogGeneralLevel, self, \"left %@\", left.map(\\.name))",
        "ChatViewController.m:90 call: PubNub.enablePresenceObservationForChannel(channel)",
        "ChatViewController.m:91 call: let presence = PNChannelPresence.presenceForChannel(channel)",
        "ChatViewController.m:92 Foundation call on 3.4 values: NSLog(\"presence channel %@ for %@\", String(describing: presence), channel.name)",
        "ChatViewController.m:93 call: PubNub.sharedInstance().isConnected()",
        "ChatViewController.m:95 call: PubNub.sendMessage([\"text\": \"joined\", \"count\": channels.count], toChannel: channel, withCompletionBlock: self.sendHandler)",
        "ChatViewController.m:103 call: let now = PNDate.dateWithDate(Date())",
        "ChatViewController.m:104 call: PubNub.requestHistoryForChannel(self.currentChannel, from: self.oldest, to: now, limit: 50, reverseHistory: false, withCompletionBlock: { messages, channel, fromDate, toDate, error in /* lines 110–114 */ })",
        "ChatViewController.m:115 call: PubNub.requestParticipantsListForChannel(self.currentChannel, withCompletionBlock: { participants, channel, error in /* lines 116–120 */ })",
        "ChatViewController.m:118 Foundation call on 3.4 values: String(format: \"%lu here\", UInt(channel?.participantsCount ?? 0))",
        "ChatViewController.m:121 call: PubNub.requestServerTimeTokenWithCompletionBlock({ timeToken, error in /* lines 121–124 */ })",
        "ChatViewController.m:123 PNLog: PNLog(PNLogGeneralLevel, self, \"server time %@ (%f)\", timeToken, PNUnixTimeStampFromTimeToken(timeToken!))",
        "ChatViewController.m:129 call: PubNub.enablePushNotificationsOnChannel(self.currentChannel, withDevicePushToken: self.pushToken, andCompletionHandlingBlock: { channels, error in /* lines 131–137 */ })",
        "ChatViewController.m:135 PNLog: PNLog(PNLogGeneralLevel, self, \"push failed: %@\", error?.localizedFailureReason)",
        "ChatViewController.m:138 call: PubNub.setClientIdentifier(PNUniqueIdentifier())",
        "ChatViewController.m:143 call: let configuration = PNConfiguration(origin: \"chat.example.com\", publishKey: \"pub-key\", subscribeKey: \"sub-key\", secretKey: nil, cipherKey: \"enigma\")",
        "ChatViewController.m:148 property: configuration.autoReconnectClient = true",
        "ChatViewController.m:149 property: configuration.useSecureConnection = false",
        "ChatViewController.m:150 call: PubNub.setupWithConfiguration(configuration, andDelegate: self)",
        "ChatViewController.m:151 call: (not spelled)",
        "ChatViewController.m:152 call: PubNub.sharedInstance().configuration?.origin",
        "ChatViewController.m:154 call: PubNub.disconnect()",
        "ChatViewController.m:160 call: PNObservationCenter.defaultCenter().removeMessageReceiveObserver(self)",
        "ChatViewController.m:161 call: PNObservationCenter.defaultCenter().removePresenceEventObserver(self)",
        "PNDefaultConfiguration.h:9 PNDefaultConfiguration.h value: kPNOriginHost = \"chat.example.com\"",
        "PNDefaultConfiguration.h:10 PNDefaultConfiguration.h value: kPNPublishKey = \"pub-c-0000\"",
        "PNDefaultConfiguration.h:11 PNDefaultConfiguration.h value: kPNSubscriptionKey = \"sub-c-0000\"",
        "PNDefaultConfiguration.h:12 PNDefaultConfiguration.h value: kPNSecretKey = nil",
        "PNDefaultConfiguration.h:13 PNDefaultConfiguration.h value: kPNCipherKey = \"enigma\"",
        "PNDefaultConfiguration.h:14 PNDefaultConfiguration.h value: kPNSecureConnectionRequired = true",
        "PNDefaultConfiguration.h:15 PNDefaultConfiguration.h value: kPNShouldResubscribeOnConnectionRestore = false",
        "PNDefaultConfiguration.h:16 PNDefaultConfiguration.h value: kPNNonSubscriptionRequestTimeout = 15.0",
        "PNDefaultConfiguration.h:18 log switch: PNLOG_GENERAL_LOGGING_ENABLED = true",
        "PresenceMonitor.h:6 #import: import PubNubLegacy",
        "PresenceMonitor.h:9 PNDelegate adoption: class PresenceMonitor: NSObject, PNDelegate",
        "PresenceMonitor.h:11 pn_desired_weak: weak var forward: (any PNDelegate)?",
        "PresenceMonitor.m:7 #import: import PubNubLegacy",
        "PresenceMonitor.m:12 PNLog: PNLog(PNLogGeneralLevel, nil, \"subscribed channels: %@\", channels)",
        "PresenceMonitor.m:29 delegate method: func pubnubClient(_ client: PubNub, didReceivePresenceEvent event: PNPresenceEvent)",
        "PresenceMonitor.m:31 property: event.type",
        "PresenceMonitor.m:32 case label: case PNPresenceEventJoin:",
        "PresenceMonitor.m:33 PNLog: PNLog(PNLogGeneralLevel, self, \"%@ joined %@ (%lu here)\", event.uuid, event.channel, UInt(event.occupancy))",
        "PresenceMonitor.m:39 call: PubNub.subscribedChannels()",
        "PresenceMonitor.m:40 call: PubNub.isPresenceObservationEnabledForChannel(event.channel!)",
        "PresenceMonitor.m:42 call: PubNub.enablePresenceObservationForChannels([event.channel!], withCompletionHandlingBlock: { channels, error in })",
        "PresenceMonitor.m:46 PNLog: (not spelled)",
        "PresenceMonitor.m:47 @selector: (not spelled)",
        "PresenceMonitor.m:49 delegate method: self.forward?.pubnubClient(client, didReceivePresenceEvent: event)",
        "PresenceMonitor.m:55 block type: PNClientParticipantsHandlingBlock",
        "PresenceMonitor.m:57 PNLog: PNLog(PNLogGeneralLevel, self, \"%lu in %@\", UInt(uuids?.count ?? 0), target?.name)",
        "PresenceMonitor.m:59 call: PubNub.requestParticipantsListForChannel(channel, withCompletionBlock: handler)",
        "PresenceMonitor.m:62 delegate method: func pubnubClient(_ client: PubNub, didReceiveParticipantsList participants: [String], forChannel channel: PNChannel)",
        "PresenceMonitor.m:65 PNLog: PNLog(PNLogGeneralLevel, self, \"%@ in %@\", participants, channel)",
        "PresenceMonitor.m:68 delegate method: func shouldResubscribeOnConnectionRestore() -> NSNumber?",
    ]

    /// `file:line edit` and the MIGRATION.md section number for every edit flagged beyond the naming rule.
    static let expectedEdits = [
        "ChatAppDelegate.h:10 @MainActor delegate §4",
        "ChatAppDelegate.m:7 protected header §9",
        "ChatAppDelegate.m:38 weak reference §9",
        "ChatAppDelegate.m:43 optional value §2",
        "ChatAppDelegate.m:43 optional value §2",
        "ChatAppDelegate.m:49 switch without default §2",
        "ChatAppDelegate.m:50 optional value §2",
        "ChatAppDelegate.m:53 switch without default §2",
        "ChatAppDelegate.m:54 optional value §2",
        "ChatAppDelegate.m:56 switch without default §2",
        "ChatAppDelegate.m:57 switch without default §2",
        "ChatAppDelegate.m:65 switch over codes §8",
        "ChatAppDelegate.m:71 Linux Foundation §10",
        "ChatAppDelegate.m:74 notification observer §6",
        "ChatAppDelegate.m:83 notification payload §6",
        "ChatAppDelegate.m:110 optional value §2",
        "ChatAppDelegate.m:117 optional value §2",
        "ChatAppDelegate.m:135 should… answer nil §4",
        "ChatViewController.m:7 protected header §9",
        "ChatViewController.m:17 @MainActor delegate §4",
        "ChatViewController.m:34 Linux Foundation §10",
        "ChatViewController.m:51 notification observer §6",
        "ChatViewController.m:72 notification payload §6",
        "ChatViewController.m:86 Linux Foundation §10",
        "ChatViewController.m:92 Linux Foundation §10",
        "ChatViewController.m:118 optional value §2",
        "ChatViewController.m:123 optional value §2",
        "ChatViewController.m:135 optional value §2",
        "ChatViewController.m:152 optional value §2",
        "PNDefaultConfiguration.h:9 PNDefaultConfiguration.h §2",
        "PNDefaultConfiguration.h:10 PNDefaultConfiguration.h §2",
        "PNDefaultConfiguration.h:11 PNDefaultConfiguration.h §2",
        "PNDefaultConfiguration.h:12 PNDefaultConfiguration.h §2",
        "PNDefaultConfiguration.h:13 PNDefaultConfiguration.h §2",
        "PNDefaultConfiguration.h:14 PNDefaultConfiguration.h §2",
        "PNDefaultConfiguration.h:15 PNDefaultConfiguration.h §2",
        "PNDefaultConfiguration.h:16 PNDefaultConfiguration.h §2",
        "PNDefaultConfiguration.h:18 log switch §8",
        "PresenceMonitor.h:11 weak reference §9",
        "PresenceMonitor.m:40 optional value §2",
        "PresenceMonitor.m:42 optional value §2",
        "PresenceMonitor.m:47 Objective-C runtime §10",
        "PresenceMonitor.m:49 optional value §2",
        "PresenceMonitor.m:57 optional value §2",
    ]

    /// `file:line name` for every name not recognised: a private header, a 3.5+ method, a misspelled delegate
    /// method, a setter of the protected header that is not available, a 3.6 notification name.
    static let expectedUnrecognised = [
        "ChatAppDelegate.m:8 PNCryptoHelper.h",
        "ChatAppDelegate.m:78 +[PubNub grantReadAccessRightForChannel:forPeriod:withCompletionHandlingBlock:]",
        "ChatAppDelegate.m:130 pubnubClient:didReceiveParticipantsLits:forChannel:",
        "ChatViewController.m:151 -[PNChannel setName:]",
        "PresenceMonitor.m:46 kPNClientDidReceiveClientStateNotification",
    ]

    @Test func everyUseIsFoundAndSpelled() throws {
        let report = try ChatAppFixture.report()
        let actual = report.entries.map { entry in
            let swift = entry.swift.map {
                $0.isEmpty ? "(delete the line)" : $0.replacingOccurrences(of: "\n", with: "; ")
            }
            return "\(entry.file):\(entry.line) \(entry.kind.rawValue): \(swift ?? "(not spelled)")"
        }
        #expect(actual.count == Self.expectedEntries.count)
        for (index, line) in actual.enumerated()
        where index >= Self.expectedEntries.count || Self.expectedEntries[index] != line {
            Issue.record(
                "entry \(index): got\n  \(line)\nexpected\n  \(index < Self.expectedEntries.count ? Self.expectedEntries[index] : "-")"
            )
            break
        }
    }

    @Test func everyEditIsFlaggedWithItsSection() throws {
        let report = try ChatAppFixture.report()
        let actual = report.entries.flatMap { entry in
            entry.edits.map { "\(entry.file):\(entry.line) \($0.kind.rawValue) §\($0.section)" }
        }
        #expect(actual == Self.expectedEdits)
    }

    @Test func namesNotRecognisedAreReportedWhereTheyAre() throws {
        let report = try ChatAppFixture.report()
        #expect(report.unrecognised.map { "\($0.file):\($0.line) \($0.name)" } == Self.expectedUnrecognised)
        // Each is also an entry the assistant did not spell, so nothing unknown is given a Swift spelling.
        let unspelled = Set(report.entries.filter { $0.swift == nil }.map { "\($0.file):\($0.line)" })
        #expect(Set(report.unrecognised.map { "\($0.file):\($0.line)" }).isSubset(of: unspelled))
    }

    @Test func theSummaryCountsFilesLinesUsesAndEdits() throws {
        let report = try ChatAppFixture.report()
        let summary = ReportPrinter(table: .migration).summary(report)
        let lines = report.files.reduce(0) { $0 + $1.lineCount }
        #expect(summary.contains("files: 7 (4 .h, 3 .m), \(lines) lines\n"))
        let uses = report.entries.flatMap(\.uses)
        #expect(summary.contains("API uses: \(uses.count) in \(Self.expectedEntries.count) entries\n"))
        for kind in [UseKind.call, .delegateMethod, .pnLog, .caseLabel, .defaultConfiguration] {
            let count = uses.filter { $0.kind == kind }.count
            if count > 0 { #expect(summary.contains("    \(kind.rawValue): \(count)\n"), "\(kind)") }
        }
        #expect(summary.contains("edits beyond the naming rule: \(Self.expectedEdits.count) in "))
        #expect(summary.contains("    switch without default, MIGRATION.md §2: 4\n"))
        #expect(summary.contains("not spelled: 6\n"))
        #expect(summary.contains("not recognised: \(Self.expectedUnrecognised.count) names\n"))
        #expect(summary.contains("    PNCryptoHelper.h (ChatAppDelegate.m:8): a private header of the 3.4 library"))
    }
}
