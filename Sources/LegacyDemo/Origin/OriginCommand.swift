import Dispatch
import Foundation
import LocalOrigin
import PlatformSupport

/// `LegacyDemo origin`: runs an embedded PubNub-compatible origin until SIGINT or SIGTERM (docs/DESIGN.md §9), with
/// faults injected from the command line and, with `--control-stdin`, from standard input while it runs.
///
/// The first line on stdout is exactly `listening on HOST:PORT`, so scripts and tests can start it with
/// `--port 0` and read the port the kernel chose.
enum OriginCommand {
    static let usage = """
          LegacyDemo origin [--host 127.0.0.1] [--port 8090] [--verbose]
                            [--publish-key K] [--subscribe-key K] [--secret-key K] [--long-poll-timeout SECONDS]
                            [--fault SPEC]... [--control-stdin]
            Runs a local origin until SIGINT/SIGTERM. The first stdout line is `listening on HOST:PORT`.
            --secret-key K    every request must be signed with K (timestamp + signature, as current SDKs sign);
                              others get 403. Needs --publish-key (the key the signatures name).
            --verbose         one line per request; auth= and signature= values are shown redacted.
            --fault SPEC      injects a fault at start (repeatable; the first matching fault takes a request).
            --control-stdin   reads one command per line from stdin while running; each gets one stdout line
                              starting with `ok` or `error`. End of input (or `quit`) stops the origin.
                              Blank lines and lines starting with `#` are ignored.
            Commands:
              fault SPEC                   inject a fault; answers `ok fault ID SPEC`
              clear [ID]                   clear every fault, or fault ID
              drop                         close every open connection now, without answers
              restart keep|empty           stop and listen again on the same port, keeping the messages or not
              faults                       list the faults in effect
              counters                     origin and fault counters
              quit                         stop the origin and exit
            SPEC: KIND [SCOPE] [count=N]  (count=N: only the next N matching requests; default: until cleared)
              KIND   refuse | refuse-drop (also close open connections) | never (hold, never answer)
                     | delay=SECONDS | cut=status|headers|body (answer cut there, then closed)
                     | 500…599 (JSON error body) | 403 (Access Manager body) | malformed (truncated JSON)
                     | non-utf8 | html (captive-portal page, 200) | stall[=SECONDS] (hold subscribes; default forever)
              SCOPE  all (default) | OP[,OP…] with OP in subscribe publish time presence history other
                     | path=PREFIX (raw request-target prefix)
            Examples: --fault '503 subscribe count=2'   fault refuse   fault delay=3 publish   restart keep
        """

    static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
        let settings = try OriginSettings(arguments)

        let origin: LocalOrigin
        do {
            origin = try LocalOrigin.start(settings.configuration)
        } catch {
            complain("LegacyDemo origin: cannot start: \(error)")
            return 1
        }
        for spec in settings.faults {
            do {
                try origin.inject(spec.fault, on: spec.scope, count: spec.count)
            } catch {
                complain("LegacyDemo origin: --fault \(spec): \(error)")
                origin.stop()
                return 1
            }
        }
        if settings.verbose {
            origin.addRequestObserver { entry in
                say("\(entry.status) \(entry.method) \(entry.redactedTarget)")
            }
        }
        say("listening on \(origin.host):\(origin.port)")
        let termination = Termination()
        termination.routeSignals()
        if settings.controlStdin {
            Self.startControlThread(origin, termination)
        }
        let reason = termination.wait()
        origin.stop()
        say("stopped on \(reason)")
        return 0
    }

    /// Reads control commands from stdin on a thread of its own and answers each on stdout; ends the run at end of
    /// input or on `quit`.
    private static func startControlThread(_ origin: LocalOrigin, _ termination: Termination) {
        NamedThread.start("demo.control") {
            while let line = readLine(strippingNewline: true) {
                let command = line.trimmingCharacters(in: .whitespaces)
                if command.isEmpty || command.hasPrefix("#") { continue }
                if command == "quit" {
                    say("ok quitting")
                    termination.end("quit")
                    return
                }
                say(origin.performControlCommand(command))
            }
            termination.end("end of input")
        }
    }
}

/// The end of a run: the first of SIGINT, SIGTERM or an explicit `end(_:)` names it. Both signals are routed to
/// Dispatch sources, so the default action (killing the process mid-write) never runs.
final class Termination: @unchecked Sendable {
    // @unchecked: `reason` lives in a `Monitor`; `sources` is only touched on the thread that calls `routeSignals`
    // and `wait`.
    private let reason = Monitor<String?>(nil)
    private var sources: [DispatchSourceSignal] = []

    /// Ends the run on SIGINT or SIGTERM.
    func routeSignals() {
        for (number, label) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.end(label) }
            source.resume()
            self.sources.append(source)
        }
    }

    /// Ends the run for `reason`, unless it has already ended.
    func end(_ reason: String) {
        self.reason.withLock { current in
            if current == nil { current = reason }
            self.reason.broadcast()
        }
    }

    /// Blocks until the run ends and returns why.
    func wait() -> String {
        self.wait(timeout: nil)
    }

    /// Blocks until the run ends or, when `timeout` is given, until that many seconds have passed (the run then
    /// ends for "duration"); returns why it ended.
    func wait(timeout: Double?) -> String {
        let deadline = timeout.map { Date(timeIntervalSinceNow: $0) }
        let reason = self.reason.wait { reason, wake -> MonitorStep<String> in
            if wake == .timedOut && reason == nil { reason = "duration" }
            if let reason { return .done(reason) }
            return deadline.map { .waitUntil($0) } ?? .wait
        }
        self.sources.forEach { $0.cancel() }
        return reason
    }
}
