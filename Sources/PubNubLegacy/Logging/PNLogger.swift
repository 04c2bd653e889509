// Logging (docs/DESIGN.md §8). 3.4 chose its log categories with compile-time `PNLOG_…_ENABLED` macros, all on, and
// wrote with `NSLog`. Here each category has a runtime switch with the macro's name, all off by default, and lines
// go to a sink the application installs; the library never prints. Building with the `PUBNUB_DISABLE_LOGGER` trait
// (or `-D` condition) removes logging entirely: the API stays so code compiles, but switches stay off and nothing is
// formatted or written.

import Foundation
import PlatformSupport

/// The switches and the sink of the package's logging. Every member may be used from any thread.
public enum PNLogger {
    /// Receives each enabled log line: its category and the formatted text
    /// (`<Class> (<pointer>) <tag><text>`, as 3.4 wrote it). Called on the thread that logs — an internal queue
    /// of the client — so it must be thread-safe and quick; it is never called while the logger holds its lock.
    public typealias Sink = @Sendable (PNLogLevels, String) -> Void

    private struct State {
        var enabled: Set<PNLogLevels> = []
        var sink: Sink?
    }

    private static let state = Locked(State())

    /// A sink that writes each line, newline-terminated, to standard error. Not installed by default.
    public static let standardErrorSink: Sink = { _, line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Whether lines of `level` are logged. Always false when built with `PUBNUB_DISABLE_LOGGER`.
    public static func isEnabled(_ level: PNLogLevels) -> Bool {
        #if PUBNUB_DISABLE_LOGGER
        return false
        #else
        return self.state.withLock { $0.enabled.contains(level) }
        #endif
    }

    /// Turns the category `level` on or off. Ignored when built with `PUBNUB_DISABLE_LOGGER`.
    public static func setEnabled(_ enabled: Bool, for level: PNLogLevels) {
        #if !PUBNUB_DISABLE_LOGGER
        self.state.withLock { state in
            if enabled {
                state.enabled.insert(level)
            } else {
                state.enabled.remove(level)
            }
        }
        #endif
    }

    /// Turns every category on (3.4's default, where all macros were 1).
    public static func enableAll() {
        for level in PNLogLevels.allCases {
            self.setEnabled(true, for: level)
        }
    }

    /// Turns every category off (this package's default).
    public static func disableAll() {
        for level in PNLogLevels.allCases {
            self.setEnabled(false, for: level)
        }
    }

    /// Installs the sink that receives enabled lines; nil discards them (the default).
    public static func setSink(_ sink: Sink?) {
        self.state.withLock { $0.sink = sink }
    }

    /// Formats and delivers one line of the package's own when `level` is enabled and a sink is installed;
    /// `message` is not evaluated otherwise. `sender` (nil for none) names the line's origin as 3.4 did: its type
    /// and, for an object, its address. A space follows the level's tag (`{INFO} connection …`): 3.4's own
    /// messages began with a bracket (`{INFO}[CONNECTION::…]`), the package's begin with a word.
    static func log(_ level: PNLogLevels, _ sender: Any?, _ message: @autoclosure () -> String) {
        self.write(level, sender, separator: level.tag.isEmpty ? "" : " ", message())
    }

    /// Delivers one line as 3.4's `PNLog` wrote it: the app's text right after the level's tag.
    static func logVerbatim(_ level: PNLogLevels, _ sender: Any?, _ message: @autoclosure () -> String) {
        self.write(level, sender, separator: "", message())
    }

    private static func write(
        _ level: PNLogLevels,
        _ sender: Any?,
        separator: String,
        _ message: @autoclosure () -> String
    ) {
        #if !PUBNUB_DISABLE_LOGGER
        let sink: Sink? = self.state.withLock { $0.enabled.contains(level) ? $0.sink : nil }
        guard let sink else {
            return
        }
        var line = ""
        if let sender {
            if type(of: sender) is AnyClass {
                line = "\(type(of: sender)) (\(pointerDescription(sender as AnyObject))) "
            } else {
                line = "\(type(of: sender)) "
            }
        }
        line += level.tag + separator + message()
        sink(level, line)
        #endif
    }
}

/// 3.4's `PNLog(level, sender, format, …)` macro, as 3.x code calls it:
/// `PNLog(PNLogGeneralLevel, self, "Did connect to %@", origin)`.
///
/// Logs one line in category `level` on behalf of `sender` (nil for none) through `PNLogger`: `format` with its
/// conversions replaced by `arguments` as `NSLog` would print them — `%@` prints any value's description (`nil` as
/// `(null)`, arrays and dictionaries in Apple's property-list style), `%d`, `%u`, `%x`, `%f`, `%s`, `%p`… print the
/// value converted to the C type they name, `%%` prints `%`; extra arguments are ignored. The line is only
/// formatted, and `format` only evaluated, when the category is enabled and a sink is installed (3.4's macro did
/// not evaluate anything either when its category was compiled out); the arguments themselves are evaluated by
/// Swift before the call. Logging is synchronous, on the calling thread.
public func PNLog(_ level: PNLogLevels, _ sender: Any?, _ format: @autoclosure () -> String, _ arguments: Any?...) {
    PNLogger.logVerbatim(level, sender, formatLogMessage(format(), arguments))
}

// MARK: - 3.4 switch names
// 3.4 code and build settings name these macros; as runtime switches they keep the names. Off by default.

/// Switch for `PNLogLevels.PNLogGeneralLevel`.
public var PNLOG_GENERAL_LOGGING_ENABLED: Bool {
    get { PNLogger.isEnabled(.PNLogGeneralLevel) }
    set { PNLogger.setEnabled(newValue, for: .PNLogGeneralLevel) }
}

/// Switch for `PNLogLevels.PNLogReachabilityLevel`.
public var PNLOG_REACHABILITY_LOGGING_ENABLED: Bool {
    get { PNLogger.isEnabled(.PNLogReachabilityLevel) }
    set { PNLogger.setEnabled(newValue, for: .PNLogReachabilityLevel) }
}

/// Switch for `PNLogLevels.PNLogCommunicationChannelLayerErrorLevel`.
public var PNLOG_COMMUNICATION_CHANNEL_LAYER_ERROR_LOGGING_ENABLED: Bool {
    get { PNLogger.isEnabled(.PNLogCommunicationChannelLayerErrorLevel) }
    set { PNLogger.setEnabled(newValue, for: .PNLogCommunicationChannelLayerErrorLevel) }
}

/// Switch for `PNLogLevels.PNLogCommunicationChannelLayerInfoLevel`.
public var PNLOG_COMMUNICATION_CHANNEL_LAYER_INFO_LOGGING_ENABLED: Bool {
    get { PNLogger.isEnabled(.PNLogCommunicationChannelLayerInfoLevel) }
    set { PNLogger.setEnabled(newValue, for: .PNLogCommunicationChannelLayerInfoLevel) }
}

/// Switch for `PNLogLevels.PNLogCommunicationChannelLayerWarnLevel`.
public var PNLOG_COMMUNICATION_CHANNEL_LAYER_WARN_LOGGING_ENABLED: Bool {
    get { PNLogger.isEnabled(.PNLogCommunicationChannelLayerWarnLevel) }
    set { PNLogger.setEnabled(newValue, for: .PNLogCommunicationChannelLayerWarnLevel) }
}

/// Switch for `PNLogLevels.PNLogConnectionLayerErrorLevel`.
public var PNLOG_CONNECTION_LAYER_ERROR_LOGGING_ENABLED: Bool {
    get { PNLogger.isEnabled(.PNLogConnectionLayerErrorLevel) }
    set { PNLogger.setEnabled(newValue, for: .PNLogConnectionLayerErrorLevel) }
}

/// Switch for `PNLogLevels.PNLogConnectionLayerInfoLevel`.
public var PNLOG_CONNECTION_LAYER_INFO_LOGGING_ENABLED: Bool {
    get { PNLogger.isEnabled(.PNLogConnectionLayerInfoLevel) }
    set { PNLogger.setEnabled(newValue, for: .PNLogConnectionLayerInfoLevel) }
}
