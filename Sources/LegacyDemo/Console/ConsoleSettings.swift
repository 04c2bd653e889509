import Dispatch
import Foundation
import PubNubLegacy

/// The client settings the console applies with `setConfiguration(_:)`: started from the flags, changed by the
/// `config` commands. A value type, so a rejected change leaves the applied settings untouched.
struct ConsoleSettings: Equatable {
    var origin: String
    var publishKey: String
    var subscribeKey: String
    var secretKey: String?
    var cipherKey: String?
    var authorizationKey: String?
    var secure: Bool
    /// True when `origin` is the console's embedded LocalOrigin.
    var embedded: Bool
    /// Seconds each command waits for its outcome (`--timeout`).
    var timeout: Double

    /// Reads `LegacyDemo console` flags; the origin is left empty when `embedded` (the caller starts the origin).
    init(_ arguments: ArraySlice<String>) throws {
        let options = try Options(
            arguments,
            valueFlags: ["--origin", "--publish-key", "--subscribe-key", "--cipher-key", "--timeout"],
            switchFlags: ["--secure", "--insecure"]
        )
        if options.has("--secure") && options.has("--insecure") {
            throw UsageError(message: "--secure and --insecure exclude each other")
        }
        self.cipherKey = options.string("--cipher-key")
        if self.cipherKey?.isEmpty == true { throw UsageError(message: "--cipher-key must not be empty") }
        self.timeout = try options.seconds("--timeout", default: 15)
        guard self.timeout > 0 else { throw UsageError(message: "--timeout must be more than 0 seconds") }
        if let address = options.string("--origin") {
            guard let publishKey = options.string("--publish-key"), let subscribeKey = options.string("--subscribe-key")
            else { throw UsageError(message: "--origin needs --publish-key and --subscribe-key") }
            guard let origin = ConsoleCommand.originAddress(address) else {
                throw UsageError(message: "--origin takes HOST[:PORT], without scheme or path")
            }
            (self.origin, self.publishKey, self.subscribeKey) = (origin, publishKey, subscribeKey)
            self.secure = !options.has("--insecure")
            self.embedded = false
        } else {
            for flag in ["--publish-key", "--subscribe-key", "--secure", "--insecure"]
            where options.has(flag) || options.string(flag) != nil {
                throw UsageError(message: "\(flag) needs --origin (the embedded origin takes any key, plain HTTP)")
            }
            (self.origin, self.publishKey, self.subscribeKey) = ("", "demo", "demo")
            self.secure = false
            self.embedded = true
        }
    }

    /// The `PNConfiguration` these settings describe, delivering every event on `queue`.
    func configuration(deliveringOn queue: DispatchQueue) -> PNConfiguration {
        let configuration = PNConfiguration(
            origin: self.origin,
            publishKey: self.publishKey,
            subscribeKey: self.subscribeKey,
            secretKey: self.secretKey,
            cipherKey: self.cipherKey,
            authorizationKey: self.authorizationKey
        )
        configuration.useSecureConnection = self.secure
        configuration.deliveryQueue = queue
        return configuration
    }

    /// The `config show` line. The secret, cipher and auth keys show only that they are set and their last
    /// characters (`SecretText`), so a transcript or a screen share does not give them away.
    var description: String {
        let mark = { (value: String?) in value.map { ConsoleFormat.quoted($0) } ?? "-" }
        let secret = { (value: String?) in value.map { $0.isEmpty ? "\"\"" : SecretText.redacted($0) } ?? "-" }
        return "origin=\(self.origin)\(self.embedded ? " (embedded)" : "") tls=\(self.secure ? "on" : "off")"
            + " publish-key=\(mark(self.publishKey)) subscribe-key=\(mark(self.subscribeKey))"
            + " secret-key=\(secret(self.secretKey)) cipher-key=\(secret(self.cipherKey))"
            + " auth-key=\(secret(self.authorizationKey))"
    }
}
