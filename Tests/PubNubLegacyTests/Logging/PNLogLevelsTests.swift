import Testing

@testable import PubNubLegacy

@Suite struct PNLogLevelsTests {
    @Test func levelsHaveTheThreeFourOrder() {
        #expect(
            PNLogLevels.allCases == [
                .PNLogGeneralLevel, .PNLogReachabilityLevel, .PNLogConnectionLayerErrorLevel,
                .PNLogConnectionLayerInfoLevel, .PNLogCommunicationChannelLayerErrorLevel,
                .PNLogCommunicationChannelLayerWarnLevel, .PNLogCommunicationChannelLayerInfoLevel,
            ]
        )
        #expect(PNLogLevels.allCases.map(\.rawValue) == Array(0...6))
    }

    @Test func tagsAreTheThreeFourTags() {
        #expect(PNLogLevels.PNLogGeneralLevel.tag == "")
        #expect(PNLogLevels.PNLogReachabilityLevel.tag == "")
        #expect(PNLogLevels.PNLogConnectionLayerInfoLevel.tag == "{INFO}")
        #expect(PNLogLevels.PNLogCommunicationChannelLayerInfoLevel.tag == "{INFO}")
        #expect(PNLogLevels.PNLogConnectionLayerErrorLevel.tag == "{ERROR}")
        #expect(PNLogLevels.PNLogCommunicationChannelLayerErrorLevel.tag == "{ERROR}")
        #expect(PNLogLevels.PNLogCommunicationChannelLayerWarnLevel.tag == "{WARN}")
    }
}
