import Foundation
import Testing

@testable import PubNubLegacy

/// How a ported `PNLog`/`NSLog` format prints its arguments (issue 13, item 1): `%@` of any value, the C
/// conversions, and what 3.x apps passed — strings, channels, errors, arrays of channels, time tokens, nil.
@Suite struct PNLogFormatTests {
    @Test func objectConversionPrintsDescriptions() {
        let channel = PNChannel.channelWithName("log-format-\(UUID().uuidString.prefix(6))")
        let error = PNError(code: kPNRequestExecutionFailedByTimeoutError)
        #expect(formatLogMessage("Did connect to %@", ["127.0.0.1:8090"]) == "Did connect to 127.0.0.1:8090")
        #expect(formatLogMessage("channel: %@", [channel]) == "channel: \(channel.description)")
        #expect(formatLogMessage("error: %@", [error]) == "error: \(error.description)")
        #expect(
            formatLogMessage("token: %@", [NSNumber(value: UInt64(17_000_000_000_000_001))])
                == "token: 17000000000000001"
        )
        #expect(formatLogMessage("nothing: %@", [nil]) == "nothing: (null)")
        let optional: String? = "wrapped"
        #expect(formatLogMessage("%@", [optional]) == "wrapped")
    }

    @Test func arraysPrintInThePropertyListStyleOfNSArray() {
        #expect(formatLogMessage("%@", [["a", "b"]]) == "(\n    a,\n    b\n)")
        let channel = PNChannel.channelWithName("log-array")
        #expect(formatLogMessage("%@", [[channel]]) == "(\n    \"\(channel.description)\"\n)")
        #expect(formatLogMessage("%@", [[String]()]) == "(\n)")
        #expect(formatLogMessage("%@", [["k": "v w"]]) == "{\n    k = \"v w\";\n}")
        #expect(formatLogMessage("%@", [[["x"]]]) == "(\n    (\n        x\n    )\n)")
    }

    @Test func cConversionsUseTheirCTypes() {
        #expect(formatLogMessage("%d items, %i more, %u left", [3, Int64(-4), UInt(5)]) == "3 items, -4 more, 5 left")
        #expect(formatLogMessage("%ld/%lu/%lld/%llu/%zd", [1, 2, 3, 4, 5]) == "1/2/3/4/5")
        #expect(formatLogMessage("%05d|%-4d|%x|%X|%o", [42, 7, 255, 255, 8]) == "00042|7   |ff|FF|10")
        #expect(formatLogMessage("%.2f %e", [3.14159, 1000.0]) == "3.14 1.000000e+03")
        #expect(formatLogMessage("%s and %c", ["text", 65]) == "text and A")
        #expect(formatLogMessage("100%% done", []) == "100% done")
        #expect(formatLogMessage("%d", [true]) == "1")
        #expect(formatLogMessage("%@ is %@", [true, NSNumber(value: 2)]) == "1 is 2")
        #expect(formatLogMessage("%*d|", [4, 9]) == "   9|")
    }

    @Test func missingArgumentsPrintNullAndExtraOnesAreIgnored() {
        // 3.4 apps passed more arguments than conversions (`@"… %@", [error localizedDescription],
        // [error localizedFailureReason]`): the extra ones are not printed, as with NSLog.
        #expect(formatLogMessage("#2 failed: %@", ["first", "second"]) == "#2 failed: first")
        #expect(formatLogMessage("%@ and %d", []) == "(null) and 0")
        #expect(formatLogMessage("plain text", ["unused"]) == "plain text")
        #expect(formatLogMessage("trailing %", []) == "trailing %")
        #expect(formatLogMessage("%y stays", [1]) == "%y stays")
    }

    @Test func pointerConversionPrintsTheAddress() {
        let channel = PNChannel.channelWithName("log-pointer")
        let address = "0x" + String(UInt(bitPattern: ObjectIdentifier(channel)), radix: 16)
        #expect(formatLogMessage("%p", [channel]) == address)
    }

    @Test func unqualifiedLevelConstantsAreTheEnumCases() {
        let levels: [PNLogLevels] = [
            PNLogGeneralLevel, PNLogReachabilityLevel, PNLogConnectionLayerErrorLevel, PNLogConnectionLayerInfoLevel,
            PNLogCommunicationChannelLayerErrorLevel, PNLogCommunicationChannelLayerWarnLevel,
            PNLogCommunicationChannelLayerInfoLevel,
        ]
        #expect(levels == PNLogLevels.allCases)
        #expect(levels.map(\.rawValue) == Array(0...6))
    }
}
