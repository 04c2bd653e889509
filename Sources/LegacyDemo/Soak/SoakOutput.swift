import Foundation
import PlatformSupport

/// The soak's stdout: time-stamped log lines and, on a terminal, one status line kept at the bottom and redrawn in
/// place; elsewhere (a file, a pipe, a CI log) one `progress` line every `--progress-every` seconds, so a log shows
/// the run is alive and how it goes.
final class SoakOutput: Sendable {
    private struct Screen {
        var statusShown = false
        /// Set by the first report line: from then on log and status lines are dropped, so a callback that arrives
        /// late (e.g. did-disconnect after the unsubscribe completed) can never follow the `RESULT` line
        /// (docs/DESIGN.md §9).
        var reporting = false
    }

    /// The screen's state; its lock also orders the writes.
    private let screen = Locked(Screen())
    let showAllLogs: Bool
    let isTerminal: Bool
    private let progressEvery: Double

    init(showAllLogs: Bool, progressEvery: Double, isTerminal: Bool = isatty(STDOUT_FILENO) != 0) {
        self.showAllLogs = showAllLogs
        self.progressEvery = progressEvery
        self.isTerminal = isTerminal
    }

    /// Seconds between status updates: the live line on a terminal, the progress lines elsewhere.
    var statusInterval: Double {
        self.isTerminal ? 0.5 : self.progressEvery
    }

    /// An essential event: always shown.
    func essential(_ line: String) { self.write("\(Self.stamp()) \(line)", isStatus: false) }

    /// A routine event (every message sent or received): shown with `--show-all-logs`.
    func detail(_ line: String) {
        if self.showAllLogs { self.write("\(Self.stamp()) \(line)", isStatus: false) }
    }

    /// Shows the status: `live` as the line at the bottom of a terminal, else `progress` as a plain log line.
    func status(live: String, progress: String) {
        self.write(self.isTerminal ? live : "\(Self.stamp()) progress \(progress)", isStatus: true)
    }

    /// A line of the final report; the status line, if shown, is left above it.
    func report(_ line: String) {
        self.screen.withLock { screen in
            screen.statusShown = false
            screen.reporting = true
            say(line)
        }
    }

    private func write(_ line: String, isStatus: Bool) {
        self.screen.withLock { screen in
            guard !screen.reporting else { return }
            // ESC[1A ESC[2K: up one line and clear it, so the status line is replaced rather than repeated.
            let erase = self.isTerminal && screen.statusShown ? "\u{1B}[1A\u{1B}[2K" : ""
            // A log line takes the status line's place; the status comes back below it at the next update.
            say(erase + line)
            screen.statusShown = isStatus && self.isTerminal
        }
    }

    private static func stamp() -> String {
        let now = Date().timeIntervalSince1970
        let seconds = Int(now) % 86_400
        let millis = Int((now - now.rounded(.down)) * 1_000)
        return String(format: "%02d:%02d:%02d.%03d", seconds / 3_600, seconds / 60 % 60, seconds % 60, millis)
    }
}
