import Dispatch
import Foundation
import LocalOrigin

/// `LegacyDemo origin`: runs an embedded PubNub-compatible origin until SIGINT or SIGTERM (DESIGN.md §9).
///
/// The first line on stdout is exactly `listening on HOST:PORT`, so scripts and tests can start it with
/// `--port 0` and read the port the kernel chose.
enum OriginCommand {
    static let usage = """
          LegacyDemo origin [--host 127.0.0.1] [--port 8090] [--verbose]
                            [--publish-key K] [--subscribe-key K] [--long-poll-timeout SECONDS]
        """

    static func run(_ arguments: ArraySlice<String>) throws -> Int32 {
        let options = try Options(
            arguments,
            valueFlags: ["--host", "--port", "--publish-key", "--subscribe-key", "--long-poll-timeout"],
            switchFlags: ["--verbose"]
        )
        var configuration = LocalOrigin.Configuration()
        configuration.host = options.string("--host") ?? "127.0.0.1"
        configuration.port = try options.port("--port", default: 8090)
        configuration.longPollTimeout = try options.seconds("--long-poll-timeout", default: 280)
        if let key = options.string("--publish-key") { configuration.publishKeys = [key] }
        if let key = options.string("--subscribe-key") { configuration.subscribeKeys = [key] }

        let origin: LocalOrigin
        do {
            origin = try LocalOrigin.start(configuration)
        } catch {
            complain("LegacyDemo origin: cannot start: \(error)")
            return 1
        }
        if options.has("--verbose") {
            origin.addRequestObserver { entry in
                say("\(entry.status) \(entry.method) \(entry.target)")
            }
        }
        say("listening on \(origin.host):\(origin.port)")
        let signal = waitForTermination()
        origin.stop()
        say("stopped on \(signal)")
        return 0
    }
}

/// Blocks until SIGINT or SIGTERM arrives and returns its name. Both signals are routed to Dispatch sources, so
/// the default action (killing the process mid-write) never runs.
func waitForTermination() -> String {
    let received = DispatchSemaphore(value: 0)
    let name = LockedName()
    var sources: [DispatchSourceSignal] = []
    for (number, label) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            name.set(label)
            received.signal()
        }
        source.resume()
        sources.append(source)
    }
    received.wait()
    sources.forEach { $0.cancel() }
    return name.get()
}

/// The name of the signal that ended the wait; written on a Dispatch thread, read after the semaphore.
private final class LockedName: @unchecked Sendable {
    // @unchecked: `value` is only touched while holding `lock`.
    private let lock = NSLock()
    private var value = "signal"

    func set(_ newValue: String) { self.lock.withLock { self.value = newValue } }
    func get() -> String { self.lock.withLock { self.value } }
}
