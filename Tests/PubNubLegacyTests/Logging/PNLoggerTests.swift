import Foundation
import LocalOrigin
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

/// The suite of this target that changes the logger's process-wide switches and sink; each test puts them back. It
/// holds the process-wide lock while it runs, as the ported apps (which log through `PNLog`) do.
@Suite(.serialized, .sharedProcessState) struct PNLoggerTests {
    /// Collects lines that carry `marker`, so lines other suites log meanwhile do not disturb the assertions.
    final class Recorder: Sendable {
        let marker = "marker-\(UUID().uuidString)"
        let lines = Locked<[(PNLogLevels, String)]>([])

        var sink: PNLogger.Sink {
            { [self] level, line in
                if line.contains(self.marker) {
                    self.lines.withLock { $0.append((level, line)) }
                }
            }
        }
    }

    static func restoreDefaults() {
        PNLogger.disableAll()
        PNLogger.setSink(nil)
    }

    static var switches: [(PNLogLevels, ReferenceWritableKeyPath<Switches, Bool>)] {
        [
            (.PNLogGeneralLevel, \.general), (.PNLogReachabilityLevel, \.reachability),
            (.PNLogCommunicationChannelLayerErrorLevel, \.channelError),
            (.PNLogCommunicationChannelLayerInfoLevel, \.channelInfo),
            (.PNLogCommunicationChannelLayerWarnLevel, \.channelWarn),
            (.PNLogConnectionLayerErrorLevel, \.connectionError), (.PNLogConnectionLayerInfoLevel, \.connectionInfo),
        ]
    }

    /// The seven global switches as key paths, so one table drives the tests.
    final class Switches: Sendable {
        var general: Bool {
            get { PNLOG_GENERAL_LOGGING_ENABLED }
            set { PNLOG_GENERAL_LOGGING_ENABLED = newValue }
        }
        var reachability: Bool {
            get { PNLOG_REACHABILITY_LOGGING_ENABLED }
            set { PNLOG_REACHABILITY_LOGGING_ENABLED = newValue }
        }
        var channelError: Bool {
            get { PNLOG_COMMUNICATION_CHANNEL_LAYER_ERROR_LOGGING_ENABLED }
            set { PNLOG_COMMUNICATION_CHANNEL_LAYER_ERROR_LOGGING_ENABLED = newValue }
        }
        var channelInfo: Bool {
            get { PNLOG_COMMUNICATION_CHANNEL_LAYER_INFO_LOGGING_ENABLED }
            set { PNLOG_COMMUNICATION_CHANNEL_LAYER_INFO_LOGGING_ENABLED = newValue }
        }
        var channelWarn: Bool {
            get { PNLOG_COMMUNICATION_CHANNEL_LAYER_WARN_LOGGING_ENABLED }
            set { PNLOG_COMMUNICATION_CHANNEL_LAYER_WARN_LOGGING_ENABLED = newValue }
        }
        var connectionError: Bool {
            get { PNLOG_CONNECTION_LAYER_ERROR_LOGGING_ENABLED }
            set { PNLOG_CONNECTION_LAYER_ERROR_LOGGING_ENABLED = newValue }
        }
        var connectionInfo: Bool {
            get { PNLOG_CONNECTION_LAYER_INFO_LOGGING_ENABLED }
            set { PNLOG_CONNECTION_LAYER_INFO_LOGGING_ENABLED = newValue }
        }
    }

    @Test func everyCategoryIsOffByDefault() {
        let switches = Switches()
        for (level, path) in Self.switches {
            #expect(!PNLogger.isEnabled(level))
            #expect(!switches[keyPath: path])
        }
    }

    @Test func nothingIsDeliveredWhileOff() {
        defer { Self.restoreDefaults() }
        let recorder = Recorder()
        PNLogger.setSink(recorder.sink)
        for level in PNLogLevels.allCases {
            PNLog(level, nil, "\(recorder.marker) off")
        }
        #expect(recorder.lines.current.isEmpty)
    }

    #if !PUBNUB_DISABLE_LOGGER
    @Test func eachSwitchTurnsOnExactlyItsCategory() {
        defer { Self.restoreDefaults() }
        let switches = Switches()
        let recorder = Recorder()
        PNLogger.setSink(recorder.sink)
        for (level, path) in Self.switches {
            switches[keyPath: path] = true
            #expect(PNLogger.isEnabled(level))
            for other in PNLogLevels.allCases {
                PNLog(other, nil, "\(recorder.marker) \(other.rawValue)")
            }
            switches[keyPath: path] = false
            #expect(!PNLogger.isEnabled(level))
            let delivered = recorder.lines.withLock { lines in
                defer { lines.removeAll() }
                return lines.map(\.0)
            }
            #expect(delivered == [level])
        }
    }

    @Test func linesHaveTheThreeFourFormat() {
        defer { Self.restoreDefaults() }
        let recorder = Recorder()
        PNLogger.setSink(recorder.sink)
        PNLogger.enableAll()
        let sender = PNChannel(name: "sender")
        PNLog(.PNLogCommunicationChannelLayerWarnLevel, sender, "\(recorder.marker) slow")
        PNLog(.PNLogGeneralLevel, nil, "\(recorder.marker) plain")
        let lines = recorder.lines.current.map(\.1)
        #expect(lines.count == 2)
        #expect(lines.first?.hasPrefix("PNChannel (0x") == true)
        #expect(lines.first?.hasSuffix(") {WARN}\(recorder.marker) slow") == true)
        #expect(lines.last == "\(recorder.marker) plain")
    }

    @Test func portedCallsFormatTheirArgumentsAsThreeFourDid() {
        // The spelling 3.x apps use (issue 13, item 1): unqualified level, `self`, a format and its arguments.
        defer { Self.restoreDefaults() }
        let recorder = Recorder()
        PNLogger.setSink(recorder.sink)
        PNLOG_GENERAL_LOGGING_ENABLED = true
        let sender = PNChannel(name: "app")
        let origin: String? = "127.0.0.1:8090"
        PNLog(PNLogGeneralLevel, sender, "\(recorder.marker) Did connect to %@ (%d)", origin, 3)
        PNLog(PNLogGeneralLevel, nil, "\(recorder.marker) %@ / %@", [sender], nil)
        PNLog(PNLogConnectionLayerInfoLevel, sender, "\(recorder.marker) off category")
        let lines = recorder.lines.current
        #expect(lines.map(\.0) == [PNLogGeneralLevel, PNLogGeneralLevel])
        let address = String(UInt(bitPattern: ObjectIdentifier(sender)), radix: 16)
        #expect(lines.first?.1 == "PNChannel (0x\(address)) \(recorder.marker) Did connect to 127.0.0.1:8090 (3)")
        #expect(lines.last?.1 == "\(recorder.marker) (\n    \"\(sender.description)\"\n) / (null)")
    }

    @Test func messagesAreNotBuiltForDisabledCategories() {
        defer { Self.restoreDefaults() }
        let built = Locked(0)
        func message() -> String {
            built.withLock { $0 += 1 }
            return "built"
        }
        PNLogger.setSink { _, _ in }
        PNLog(.PNLogGeneralLevel, nil, message())
        #expect(built.current == 0)
        PNLOG_GENERAL_LOGGING_ENABLED = true
        PNLog(.PNLogGeneralLevel, nil, message())
        #expect(built.current == 1)
    }

    @Test func aClientWithKeysNeverLogsThemNorItsSignatures() async throws {
        defer { Self.restoreDefaults() }
        let lines = Locked<[String]>([])
        PNLogger.setSink { _, line in lines.withLock { $0.append(line) } }
        PNLogger.enableAll()
        let secret = "sec-c-\(UUID().uuidString)"
        let cipher = "cipher-\(UUID().uuidString)"
        let auth = "auth-\(UUID().uuidString)"
        var settings = LocalOrigin.Configuration()
        settings.secretKey = secret
        settings.publishKeys = ["pub-c-test"]
        let origin = try LocalOrigin.start(settings)
        defer { origin.stop() }
        let configuration = PNConfiguration(
            origin: origin.address,
            publishKey: "pub-c-test",
            subscribeKey: "sub-c-test",
            secretKey: secret,
            cipherKey: cipher,
            authorizationKey: auth
        )
        configuration.useSecureConnection = false
        configuration.deliveryQueue = DispatchQueue(label: "logger-delivery")
        let recorder = EventRecorder()
        let client = PubNub(configuration: configuration, delegate: recorder, eventSinks: [recorder])
        client.connect()
        let channel = PNChannel.channelWithName("logged-\(UUID().uuidString.prefix(8))")
        client.subscribeOnChannel(channel)
        try await recorder.next(.delegate, "didSubscribe")
        client.sendMessage("secret text", toChannel: channel)
        try await recorder.next(.delegate, "didReceiveMessage")
        client.disconnect()
        try await recorder.next(.delegate, "didDisconnect")

        let logged = lines.current
        #expect(logged.contains { $0.contains("subscribe loop:") })  // the client did log while it ran
        let signatures = origin.requestLog.compactMap { entry in
            entry.target.split(separator: "&").first { $0.hasPrefix("signature=") }.map(String.init)
        }
        #expect(!signatures.isEmpty)
        for line in logged {
            for secretText in [secret, cipher, auth] + signatures { #expect(!line.contains(secretText), "\(line)") }
        }
    }
    #else
    @Test func switchesStayOffWhenLoggingIsCompiledOut() {
        defer { Self.restoreDefaults() }
        PNLogger.enableAll()
        for level in PNLogLevels.allCases {
            #expect(!PNLogger.isEnabled(level))
        }
    }
    #endif
}
