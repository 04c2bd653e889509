import Foundation
import LocalOrigin

/// What `LegacyDemo origin` was asked to do, read and checked from its flags (docs/DESIGN.md §9): the server's
/// configuration, the faults to inject at start, and whether to log requests and read control commands.
struct OriginSettings {
    var configuration = LocalOrigin.Configuration()
    var faults: [OriginFaultSpec] = []
    var verbose: Bool
    var controlStdin: Bool

    init(_ arguments: ArraySlice<String>) throws {
        let options = try Options(
            arguments,
            valueFlags: [
                "--host", "--port", "--publish-key", "--subscribe-key", "--secret-key", "--long-poll-timeout",
            ],
            repeatableFlags: ["--fault"],
            switchFlags: ["--verbose", "--control-stdin"]
        )
        self.configuration.host = options.string("--host") ?? "127.0.0.1"
        self.configuration.port = try options.port("--port", default: 8090)
        self.configuration.longPollTimeout = try options.seconds("--long-poll-timeout", default: 280)
        if let key = options.string("--publish-key") { self.configuration.publishKeys = [key] }
        if let key = options.string("--subscribe-key") { self.configuration.subscribeKeys = [key] }
        if let key = options.string("--secret-key") {
            guard !key.isEmpty else { throw UsageError(message: "--secret-key must not be empty") }
            guard self.configuration.publishKeys != nil else {
                throw UsageError(message: "--secret-key needs --publish-key (the key set's publish key is signed)")
            }
            self.configuration.secretKey = key
        }
        for text in options.strings("--fault") {
            do {
                self.faults.append(try OriginFaultSpec(parsing: text))
            } catch {
                throw UsageError(message: "--fault \(text): \(error)")
            }
        }
        self.verbose = options.has("--verbose")
        self.controlStdin = options.has("--control-stdin")
    }
}
