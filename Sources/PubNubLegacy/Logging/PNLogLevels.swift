/// The log categories of 3.4's `PNMacro.h`, with 3.4's raw values. Each has a runtime switch named after 3.4's
/// compile-time `PNLOG_…_ENABLED` macro (see `PNLogger`).
public enum PNLogLevels: Int, Sendable, CaseIterable {
    /// General client activity; switch `PNLOG_GENERAL_LOGGING_ENABLED`.
    case PNLogGeneralLevel = 0
    /// Network reachability; switch `PNLOG_REACHABILITY_LOGGING_ENABLED`.
    case PNLogReachabilityLevel = 1
    /// Connection errors; switch `PNLOG_CONNECTION_LAYER_ERROR_LOGGING_ENABLED`.
    case PNLogConnectionLayerErrorLevel = 2
    /// Connection activity; switch `PNLOG_CONNECTION_LAYER_INFO_LOGGING_ENABLED`.
    case PNLogConnectionLayerInfoLevel = 3
    /// Request and response errors; switch `PNLOG_COMMUNICATION_CHANNEL_LAYER_ERROR_LOGGING_ENABLED`.
    case PNLogCommunicationChannelLayerErrorLevel = 4
    /// Request and response warnings; switch `PNLOG_COMMUNICATION_CHANNEL_LAYER_WARN_LOGGING_ENABLED`.
    case PNLogCommunicationChannelLayerWarnLevel = 5
    /// Request and response activity; switch `PNLOG_COMMUNICATION_CHANNEL_LAYER_INFO_LOGGING_ENABLED`.
    case PNLogCommunicationChannelLayerInfoLevel = 6

    /// The tag 3.4 put before the text: none for general and reachability lines, `{INFO}`, `{ERROR}` or `{WARN}`
    /// for the others.
    public var tag: String {
        switch self {
        case .PNLogGeneralLevel, .PNLogReachabilityLevel: return ""
        case .PNLogConnectionLayerInfoLevel, .PNLogCommunicationChannelLayerInfoLevel: return "{INFO}"
        case .PNLogConnectionLayerErrorLevel, .PNLogCommunicationChannelLayerErrorLevel: return "{ERROR}"
        case .PNLogCommunicationChannelLayerWarnLevel: return "{WARN}"
        }
    }
}

// MARK: - Unqualified case names
// 3.4 code passes the C constants without the type: `PNLog(PNLogGeneralLevel, self, "…", …)`.

/// `PNLogLevels.PNLogGeneralLevel`, under its unqualified 3.4 name.
public let PNLogGeneralLevel = PNLogLevels.PNLogGeneralLevel
/// `PNLogLevels.PNLogReachabilityLevel`, under its unqualified 3.4 name.
public let PNLogReachabilityLevel = PNLogLevels.PNLogReachabilityLevel
/// `PNLogLevels.PNLogConnectionLayerErrorLevel`, under its unqualified 3.4 name.
public let PNLogConnectionLayerErrorLevel = PNLogLevels.PNLogConnectionLayerErrorLevel
/// `PNLogLevels.PNLogConnectionLayerInfoLevel`, under its unqualified 3.4 name.
public let PNLogConnectionLayerInfoLevel = PNLogLevels.PNLogConnectionLayerInfoLevel
/// `PNLogLevels.PNLogCommunicationChannelLayerErrorLevel`, under its unqualified 3.4 name.
public let PNLogCommunicationChannelLayerErrorLevel = PNLogLevels.PNLogCommunicationChannelLayerErrorLevel
/// `PNLogLevels.PNLogCommunicationChannelLayerWarnLevel`, under its unqualified 3.4 name.
public let PNLogCommunicationChannelLayerWarnLevel = PNLogLevels.PNLogCommunicationChannelLayerWarnLevel
/// `PNLogLevels.PNLogCommunicationChannelLayerInfoLevel`, under its unqualified 3.4 name.
public let PNLogCommunicationChannelLayerInfoLevel = PNLogLevels.PNLogCommunicationChannelLayerInfoLevel
