import Foundation

/// A command-line mistake: the demo prints `message`, the usage text, and exits with status 2.
struct UsageError: Error {
    let message: String
}

/// The flags of one mode, read from `--name value` pairs (the last one wins, or all are kept for repeatable flags)
/// and bare `--switch`es.
///
/// Every mode declares which flags it knows; anything else is a `UsageError`, so a typo never runs a soak with
/// defaults the user did not ask for.
struct Options {
    private var values: [String: [String]] = [:]
    private var switches: Set<String> = []

    init(
        _ arguments: ArraySlice<String>,
        valueFlags: Set<String>,
        repeatableFlags: Set<String> = [],
        switchFlags: Set<String>
    ) throws {
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if switchFlags.contains(flag) {
                self.switches.insert(flag)
            } else if valueFlags.contains(flag) || repeatableFlags.contains(flag) {
                guard let value = rest.popFirst(), !value.hasPrefix("--") else {
                    throw UsageError(message: "\(flag) needs a value")
                }
                self.values[flag, default: []].append(value)
            } else {
                throw UsageError(message: "unknown flag \(flag)")
            }
        }
    }

    func has(_ flag: String) -> Bool { self.switches.contains(flag) }

    func string(_ flag: String) -> String? { self.values[flag]?.last }

    /// Every value given to a repeatable flag, in command-line order.
    func strings(_ flag: String) -> [String] { self.values[flag] ?? [] }

    func port(_ flag: String, default fallback: UInt16) throws -> UInt16 {
        guard let text = self.string(flag) else { return fallback }
        guard let port = UInt16(text) else { throw UsageError(message: "\(flag) must be a port number 0…65535") }
        return port
    }

    func seconds(_ flag: String, default fallback: Double) throws -> Double {
        guard let text = self.string(flag) else { return fallback }
        guard let seconds = Seconds.parse(text) else {
            throw UsageError(message: "\(flag) must be \(Seconds.range)")
        }
        return seconds
    }
}

/// Durations typed by the user — flags and console commands — and their one range.
enum Seconds {
    /// The longest duration accepted: a year. Anything longer is a typo (`1e10` is 317 years), and a bound keeps every
    /// deadline computed from a duration within what the clocks and condition waits can hold.
    static let maximum: Double = 31_536_000

    /// What every duration must be, for error messages.
    static let range = "a number of seconds from 0 to 31536000 (a year)"

    /// `text` as seconds, or nil unless it is a number from 0 to `maximum` (not NaN, not infinite, not negative).
    static func parse(_ text: String) -> Double? {
        guard let seconds = Double(text), seconds >= 0, seconds <= Self.maximum else { return nil }
        return seconds
    }
}
