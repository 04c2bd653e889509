import Dispatch
import Foundation
import LocalOrigin
import PlatformSupport
import PubNubLegacy

/// `LegacyDemo soak` (and `LegacyDemo` without arguments): the test app of docs/TEST-APP.md, ending with the
/// report and `RESULT` line of docs/DESIGN.md §9.
enum SoakCommand {
    static let usage = """
          LegacyDemo soak [--channels a,b,c] [--idle SECONDS] [--duration SECONDS] [--show-all-logs]
                          [--cipher-key K] [--background-every SECONDS] [--progress-every SECONDS]
                          [--origin HOST[:PORT] --publish-key K --subscribe-key K [--secure [--ca-file PATH]|--insecure]]
            Publishes numbered messages on every channel every --idle seconds (default 10) and matches what comes
            back. Without --origin it runs on an embedded local origin. Ends after --duration seconds or on
            SIGINT/SIGTERM; SIGUSR1 toggles background mode. The last report line is
              RESULT sent=N failed=N received=N matched=N lost=N duplicated=N corrupted=N unconfirmed=N p50_ms=X p99_ms=Y
            Exit status 0 when the client connected, the origin acknowledged at least one publish and nothing was
            lost, duplicated or corrupted; 1 otherwise; 2 for bad flags.
            --channels          comma-separated names, white space removed (default: 3 random names)
            --show-all-logs     log every message sent and received, not only the essential events
            --background-every  switch between foreground and background mode every SECONDS; in background
                                mode a simulated moving position {"lat": …, "lng": …} goes to every channel
            --progress-every    when stdout is not a terminal (a file, a pipe, a CI log), one line every
                                SECONDS (default 10): sent, received, in flight, lost (acknowledged, not arrived
                                3 s after publishing), failed, latency p50/p99, RSS
            --secure|--insecure TLS to --origin or not (default --secure)
            --ca-file PATH      with TLS: trust the CA certificates in this PEM file instead of the system's
                                (SSL_CERT_FILE / SSL_CERT_DIR are honoured for the system's)
        """

    /// When the RSS is sampled a second time: after the first minute.
    private static let settlingSeconds = 60.0

    /// How long the end waits for messages in flight: until none has come for `drainQuiet` seconds, at most
    /// `drainLimit` seconds in all; and for the unsubscribe (whose leave gives up after 10 s).
    private static let drainQuiet = SoakClient.overdueSeconds
    private static let drainLimit = 30.0
    private static let unsubscribeTimeout = 12.0

    static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
        let settings = try SoakSettings(arguments)
        let rssAtStart = residentKiB()
        // Memory settles during the first minute (caches, pools, allocator arenas); growth after it is the figure
        // that tells a leak.
        let rssAfterMinute = Locked<Int?>(nil)
        let minute = DispatchSource.makeTimerSource(queue: .global())
        minute.schedule(deadline: .now() + Self.settlingSeconds)
        minute.setEventHandler { rssAfterMinute.set(residentKiB()) }
        minute.resume()
        defer { minute.cancel() }
        let output = SoakOutput(showAllLogs: settings.showAllLogs, progressEvery: settings.progressEvery)
        let termination = Termination()
        termination.routeSignals()

        let embedded: LocalOrigin?
        let address: String
        let keys: (publish: String, subscribe: String)
        let secure: Bool
        if let remote = settings.remote {
            embedded = nil
            (address, keys, secure) = (remote.address, (remote.publishKey, remote.subscribeKey), remote.secure)
        } else {
            do {
                embedded = try LocalOrigin.start()
            } catch {
                complain("LegacyDemo soak: cannot start the embedded origin: \(error)")
                return 1
            }
            address = embedded?.address ?? ""
            (keys, secure) = (("demo", "demo"), false)
            output.essential("embedded origin listening on \(address)")
        }
        output.essential("channels: \(settings.channels.joined(separator: ", "))")

        let soak = SoakClient(settings: settings, output: output)
        let background = Self.routeBackgroundSignal(to: soak)
        let started = DispatchTime.now()
        soak.start(
            origin: address,
            publishKey: keys.publish,
            subscribeKey: keys.subscribe,
            secure: secure,
            caFile: settings.remote?.caFile
        )
        let reason = termination.wait(timeout: settings.duration)
        background.cancel()
        output.essential("stopping (\(reason))")

        let drained = DispatchSemaphore(value: 0)
        soak.stopPublishing(quietAtMost: Self.drainQuiet, limit: Self.drainLimit) { drained.signal() }
        drained.wait()
        let unsubscribed = DispatchSemaphore(value: 0)
        let unsubscribeOutcome = Locked<String?>(nil)
        soak.unsubscribeAndDisconnect { error, online in
            let outcome = error.map { "failed: \($0.code) \($0.localizedDescription)" } ?? "done"
            unsubscribeOutcome.set(online ? outcome : outcome + " (offline: the leave was not sent)")
            unsubscribed.signal()
        }
        let unsubscribe: String
        if unsubscribed.wait(timeout: .now() + Self.unsubscribeTimeout) == .timedOut {
            unsubscribe = "no answer after \(Int(Self.unsubscribeTimeout)) s"
        } else {
            unsubscribe = unsubscribeOutcome.current ?? "done"
        }
        let ran = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let results = soak.results()
        embedded?.stop()
        return Self.report(
            results,
            settings: settings,
            origin: embedded == nil ? address : "embedded \(address)",
            ran: ran,
            reason: reason,
            unsubscribe: unsubscribe,
            rss: (rssAtStart, rssAfterMinute.current, residentKiB()),
            output: output
        )
    }

    private static func report(
        _ results: SoakClient.Results,
        settings: SoakSettings,
        origin: String,
        ran: Double,
        reason: String,
        unsubscribe: String,
        rss: (start: Int?, afterMinute: Int?, end: Int?),
        output: SoakOutput
    ) -> Int32 {
        let tally = results.tally
        let p50 = String(format: "%.2f", results.latency.percentile(0.5))
        let p99 = String(format: "%.2f", results.latency.percentile(0.99))
        let maximum = String(format: "%.2f", results.latency.maximum)
        // A soak proves nothing without traffic: a client that never connected, or whose publishes were never
        // acknowledged, fails even though nothing was lost.
        let verdict: String
        if !results.connected {
            verdict = "FAIL: never connected to the origin\(results.lastError.map { " (\($0))" } ?? "")"
        } else if tally.sent == 0 {
            verdict = "FAIL: the origin acknowledged no publish (sent=0)"
        } else if tally.lost > 0 || tally.duplicated > 0 || tally.corrupted > 0 {
            verdict = "FAIL: messages were lost, duplicated or corrupted"
        } else {
            verdict = "PASS"
        }
        let passed = verdict == "PASS"
        let kib = { (value: Int?) in value.map { "\($0) KiB" } ?? "unknown" }
        var memory = "RSS: start \(kib(rss.start)), "
        if let minute = rss.afterMinute {
            memory += "after \(Int(Self.settlingSeconds)) s \(minute) KiB, "
        }
        memory += "end \(kib(rss.end))"
        if let minute = rss.afterMinute, let end = rss.end {
            memory += " (\(end - minute) KiB since the first minute)"
        }
        let lines = [
            "--- soak report ---",
            "origin: \(origin); channels: \(settings.channels.joined(separator: ", "))"
                + "; idle \(settings.idle) s\(settings.cipherKey == nil ? "" : "; encrypted")",
            "ran \(String(format: "%.1f", ran)) s, stopped on \(reason); unsubscribe: \(unsubscribe)",
            "publishes: sent \(tally.sent), failed \(tally.failed), never answered \(tally.unanswered)"
                + ", rounds skipped (back-pressure) \(results.skipped)",
            "messages: received \(tally.received), matched \(tally.matched), lost \(tally.lost)"
                + ", duplicated \(tally.duplicated), corrupted \(tally.corrupted), unconfirmed \(tally.unconfirmed)",
            "locations: sent \(results.locations.0), received \(results.locations.1)",
            "latency: p50 \(p50) ms, p99 \(p99) ms, max \(maximum) ms over \(results.latency.count) messages",
            memory,
            verdict,
            "RESULT sent=\(tally.sent) failed=\(tally.failed) received=\(tally.received) matched=\(tally.matched)"
                + " lost=\(tally.lost) duplicated=\(tally.duplicated) corrupted=\(tally.corrupted)"
                + " unconfirmed=\(tally.unconfirmed) p50_ms=\(p50) p99_ms=\(p99)",
        ]
        lines.forEach(output.report)
        return passed ? 0 : 1
    }

    /// SIGUSR1 toggles background mode, as sending the app to the background did.
    private static func routeBackgroundSignal(to soak: SoakClient) -> DispatchSourceSignal {
        signal(SIGUSR1, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGUSR1, queue: .global())
        source.setEventHandler { soak.toggleBackground() }
        source.resume()
        return source
    }

    /// The resident set size in KiB (Linux: /proc; Apple platforms: the Mach task info), or nil where there is none.
    static func residentKiB() -> Int? {
        BenchMemory.residentKiB()
    }
}
