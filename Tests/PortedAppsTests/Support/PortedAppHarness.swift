// What every ported app's test needs around the app: an in-process LocalOrigin, the `PNDefaultConfiguration.h`
// values the app would have compiled in (pointing at that origin), a fresh shared client, the app's log as 3.4's
// `PNLog` would have written it, and the teardown a process exit would have done. The ported apps themselves use
// only the public API (`import PubNubLegacy`); only this file looks inside, to shorten the reachability probe.

import Foundation
import LocalOrigin
import PNObservation
import TestSupport
import Testing

@testable import PubNubLegacy

/// The lines an app's `PNLog` calls wrote (3.4 wrote them to the console), captured from the package's log sink:
/// only the lines whose sender is the app's own object, without the `Type (0x…) ` prefix.
final class AppLog: Sendable {
    let lines = Locked<[String]>([])
    private let prefixes: [String]

    /// Captures the lines of `senders` (the app's objects that call `PNLog` with `self`).
    init(_ senders: [AnyObject]) {
        self.prefixes = senders.map {
            "\(type(of: $0)) (0x\(String(UInt(bitPattern: ObjectIdentifier($0)), radix: 16))) "
        }
        PNLogger.setSink { [self] _, line in
            guard let prefix = self.prefixes.first(where: { line.hasPrefix($0) }) else { return }
            self.lines.withLock { $0.append(String(line.dropFirst(prefix.count))) }
        }
        PNLOG_GENERAL_LOGGING_ENABLED = true
    }

    /// Stops capturing.
    func stop() {
        PNLogger.setSink(nil)
        PNLogger.disableAll()
    }

    var all: [String] { self.lines.current }

    /// Waits (with a deadline) until a line satisfying `matches` was written at or after `index`; returns its index.
    @discardableResult
    func waitFor(
        _ what: String,
        from index: Int = 0,
        within seconds: Double = 15,
        _ matches: @escaping @Sendable (String) -> Bool
    ) async throws -> Int {
        var found: Int?
        try await eventually("\(what); lines: \(self.all)", within: seconds) {
            let lines = self.all
            found = index < lines.count ? lines[index...].firstIndex(where: matches) : nil
            return found != nil
        }
        guard let found else { preconditionFailure("eventually returned without a match") }
        return found
    }

    /// Waits until a line starting with `prefix` was written at or after `index`; returns that line.
    @discardableResult
    func waitForLine(
        startingWith prefix: String,
        from index: Int = 0,
        within seconds: Double = 15
    ) async throws
        -> String
    {
        let found = try await self.waitFor(prefix, from: index, within: seconds) { $0.hasPrefix(prefix) }
        return self.all[found]
    }

    /// The lines starting with `prefix`.
    func lines(startingWith prefix: String) -> [String] {
        self.all.filter { $0.hasPrefix(prefix) }
    }
}

/// A line an app never wrote within its deadline, with everything it did write.
struct AppLogTimeout: Error, CustomStringConvertible {
    let wanted: String
    let lines: [String]
    var description: String {
        "no log line \(self.wanted) within the deadline; the app wrote:\n" + self.lines.joined(separator: "\n")
    }
}

/// An in-process origin, the app's compiled-in defaults pointing at it, and a fresh shared client.
final class PortedAppEnvironment: Sendable {
    let origin: LocalOrigin
    private let saved: (String, String, Bool)

    /// Starts the origin and "edits `PNDefaultConfiguration.h`" as MIGRATION.md says a ported app does: the
    /// origin, and TLS off (LocalOrigin speaks plain HTTP). Keys stay the header's `demo` keys.
    /// - Parameter probeInterval: the shared client probes for the origin every `probeInterval` seconds instead of
    ///   every 10 s, so a test sees loss and recovery quickly.
    init(probeInterval: TimeInterval? = nil) throws {
        self.origin = try LocalOrigin.start()
        self.saved = (kPNOriginHost, kPNDefaultOriginHost, kPNSecureConnectionRequired)
        kPNOriginHost = self.origin.address
        kPNDefaultOriginHost = self.origin.address
        kPNSecureConnectionRequired = false
        var timings = EngineTimings.standard
        timings.probeInterval = probeInterval ?? timings.probeInterval
        PubNub.resetClient(nextTimings: timings)
    }

    /// What the app's process exit did: the client goes away, and the defaults are the header's again.
    func tearDown() {
        PubNub.resetClient()
        (kPNOriginHost, kPNDefaultOriginHost, kPNSecureConnectionRequired) = self.saved
        self.origin.stop()
    }
}

/// The console of the ported apps: what their `NSLog` calls wrote.
enum Console {
    static let lines = Locked<[String]>([])

    /// Waits (with a deadline) until `count` lines satisfy `matches`.
    static func waitFor(
        _ what: String,
        count: Int = 1,
        within seconds: Double = 15,
        _ matches: @escaping @Sendable (String) -> Bool
    ) async throws {
        try await eventually("\(what); lines: \(Self.lines.current)", within: seconds) {
            Self.lines.current.filter(matches).count >= count
        }
    }
}

/// Foundation's `NSLog`, with the same signature, standing in for it in this module: the ported apps' `NSLog` lines
/// go to `Console` (formatted by `String(format:)`, as `NSLog` does) instead of standard error.
func NSLog(_ format: String, _ args: CVarArg...) {
    let line = String(format: format, arguments: args)
    Console.lines.withLock { $0.append(line) }
}
