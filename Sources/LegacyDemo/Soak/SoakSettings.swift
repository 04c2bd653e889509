import Foundation

/// What `LegacyDemo soak` was asked to do, read and checked from its flags (docs/DESIGN.md §9).
struct SoakSettings {
    /// An origin given with `--origin`; nil runs the soak on an embedded `LocalOrigin`.
    struct RemoteOrigin {
        let address: String
        let publishKey: String
        let subscribeKey: String
        let secure: Bool
        /// A PEM file of CA certificates to trust instead of the system's (`PNConfiguration.anchorCertificatesFile`).
        let caFile: String?
    }

    var channels: [String]
    var idle: Double
    var duration: Double?
    var showAllLogs: Bool
    var cipherKey: String?
    var backgroundEvery: Double?
    /// Seconds between the progress lines written when stdout is not a terminal.
    var progressEvery: Double
    var remote: RemoteOrigin?

    init(_ arguments: ArraySlice<String>) throws {
        let options = try Options(
            arguments,
            valueFlags: [
                "--channels", "--idle", "--duration", "--cipher-key", "--background-every", "--origin",
                "--publish-key", "--subscribe-key", "--ca-file", "--progress-every",
            ],
            switchFlags: ["--show-all-logs", "--secure", "--insecure"]
        )
        if let list = options.string("--channels") {
            self.channels = try Self.channelNames(list)
        } else {
            self.channels = (0..<3).map { _ in Self.randomName() }
        }
        self.idle = try options.seconds("--idle", default: 10)
        self.duration = options.string("--duration") == nil ? nil : try options.seconds("--duration", default: 0)
        self.showAllLogs = options.has("--show-all-logs")
        self.cipherKey = options.string("--cipher-key")
        if self.cipherKey?.isEmpty == true { throw UsageError(message: "--cipher-key must not be empty") }
        if options.string("--background-every") != nil {
            let every = try options.seconds("--background-every", default: 0)
            guard every > 0 else { throw UsageError(message: "--background-every must be more than 0 seconds") }
            self.backgroundEvery = every
        }
        self.progressEvery = try options.seconds("--progress-every", default: 10)
        guard self.progressEvery > 0 else { throw UsageError(message: "--progress-every must be more than 0 seconds") }
        if options.has("--secure") && options.has("--insecure") {
            throw UsageError(message: "--secure and --insecure exclude each other")
        }
        if let address = options.string("--origin") {
            guard let publishKey = options.string("--publish-key"), let subscribeKey = options.string("--subscribe-key")
            else { throw UsageError(message: "--origin needs --publish-key and --subscribe-key") }
            guard !address.isEmpty, !address.contains("/"), !address.contains(where: \.isWhitespace) else {
                throw UsageError(message: "--origin takes HOST[:PORT], without scheme or path")
            }
            let caFile = options.string("--ca-file")
            if caFile != nil && options.has("--insecure") {
                throw UsageError(message: "--ca-file is for TLS: it excludes --insecure")
            }
            if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
                throw UsageError(message: "--ca-file \(caFile) is not a readable file")
            }
            self.remote = RemoteOrigin(
                address: address,
                publishKey: publishKey,
                subscribeKey: subscribeKey,
                secure: !options.has("--insecure"),
                caFile: caFile
            )
        } else {
            for flag in ["--publish-key", "--subscribe-key", "--secure", "--insecure", "--ca-file"]
            where options.has(flag) || options.string(flag) != nil {
                throw UsageError(message: "\(flag) needs --origin (the embedded origin takes any key, plain HTTP)")
            }
        }
    }

    /// The names of a comma-separated list with every white-space character removed (docs/TEST-APP.md), without empty
    /// entries or repeats; a list that leaves no name, or a name the client would refuse, is a usage error.
    static func channelNames(_ list: String) throws -> [String] {
        var names: [String] = []
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            let name = String(part.filter { !$0.isWhitespace })
            if name.isEmpty || names.contains(name) { continue }
            guard !name.contains("/") else { throw UsageError(message: "--channels: \"\(name)\" contains /") }
            names.append(name)
        }
        guard !names.isEmpty else { throw UsageError(message: "--channels needs at least one channel name") }
        return names
    }

    private static func randomName() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        return "soak-" + String((0..<8).map { _ in letters.randomElement() ?? "x" })
    }
}
