// The rules 3.4 applied to configurations (docs/API-3.4.md §2.7.4): validity, whether a new configuration needs
// a reconnect, and the description. Plus the origin's optional port, which 3.4 did not support.

import Foundation

extension PNConfiguration {
    /// What handing a new configuration to a connected client takes.
    public enum ChangeImpact: Int, Sendable, CaseIterable {
        /// Nothing: every setting is the same, so the client ignores it (3.5.1 rule).
        case none
        /// Applied without reconnecting: the new values are used from the next request on.
        case appliedInPlace
        /// The origin, the TLS setting or the authorization key changed: the client reconnects (a "hard reset")
        /// and restores its channels.
        case hardReset
    }

    // MARK: - Validity

    /// 3.4's `-isValid`, extended: the publish, subscribe and secret keys are non-empty (the secret defaults to
    /// `"0"`, so only an explicit `""` fails), and — checks this package adds — the origin is a host with an
    /// optional `:port`, the timeouts are positive, every pin is a base64 SHA-256 and an anchors path is not empty,
    /// the keys and the authorization key fit in `maximumKeyLength`, and the `uuid` (when set) is not empty and fits
    /// in `maximumUUIDLength`.
    public func isValid() -> Bool {
        self.validationProblems().isEmpty
    }

    /// The error a client reports (code `kPNClientConfigurationError`, 100) when it is given this configuration,
    /// or nil when it is valid. Its description is 3.4's; its failure reason lists exactly what is wrong.
    public func validationError() -> PNError? {
        let problems = self.validationProblems()
        guard !problems.isEmpty else {
            return nil
        }
        let missing = problems.filter { $0.isMissingKey }.map { "\n- \($0.text)" }.joined()
        let invalid = problems.filter { !$0.isMissingKey }.map { "\n- \($0.text)" }.joined()
        var reason = missing.isEmpty ? "" : "One of required configuration field is empty:" + missing
        if !invalid.isEmpty {
            reason += (reason.isEmpty ? "" : "\n") + "Some configuration values are invalid:" + invalid
        }
        return PNError(
            domain: nil,
            code: kPNClientConfigurationError,
            message: nil,
            failureReason: reason,
            category: nil,
            associatedObject: nil,
            underlyingError: nil
        )
    }

    private struct Problem {
        let text: String
        let isMissingKey: Bool
    }

    /// The longest publish, subscribe, secret or authorization key accepted, in UTF-8 bytes: real keys are about
    /// 42 bytes and access tokens a few hundred; every request carries them, percent-escaped, in a URL the service
    /// caps at about 32 KiB, most of which a message may need.
    public static let maximumKeyLength = 4_096

    /// The longest client identifier (`uuid`) accepted, in UTF-16 code units: the hard limit PubNub documents for
    /// user IDs.
    public static let maximumUUIDLength = 92

    /// Why `uuid` cannot identify a client (empty, or longer than `maximumUUIDLength`), nil when it can.
    static func uuidProblem(_ uuid: String) -> String? {
        if uuid.isEmpty { return "uuid must not be empty" }
        let length = uuid.utf16.count
        guard length <= maximumUUIDLength else {
            return "uuid has \(length) UTF-16 code units, more than the \(maximumUUIDLength) PubNub allows"
        }
        return nil
    }

    private func validationProblems() -> [Problem] {
        let settings = self.settings.current
        var problems: [Problem] = []
        for (value, name) in [
            (settings.publishKey, "publish key"), (settings.subscriptionKey, "subscribe key"),
            (settings.secretKey, "secret key"),
        ] where value.isEmpty {
            problems.append(Problem(text: name, isMissingKey: true))
        }
        for (value, name) in [
            (settings.publishKey, "publish key"), (settings.subscriptionKey, "subscribe key"),
            (settings.secretKey, "secret key"), (settings.authorizationKey, "authorization key"),
        ] where value.utf8.count > PNConfiguration.maximumKeyLength {
            problems.append(
                Problem(
                    text: "\(name) has \(value.utf8.count) bytes, more than \(PNConfiguration.maximumKeyLength)",
                    isMissingKey: false
                )
            )
        }
        if let uuid = settings.uuid, let problem = PNConfiguration.uuidProblem(uuid) {
            problems.append(Problem(text: problem, isMissingKey: false))
        }
        if PNConfiguration.parseOrigin(settings.origin) == nil {
            problems.append(
                Problem(
                    text: "origin '\(settings.origin)' is not a host name with an optional ':port'",
                    isMissingKey: false
                )
            )
        }
        for (value, name) in [
            (settings.nonSubscriptionRequestTimeout, "nonSubscriptionRequestTimeout"),
            (settings.subscriptionRequestTimeout, "subscriptionRequestTimeout"),
            (settings.subscribeMaximumIdleTime, "subscribeMaximumIdleTime"),
        ] where !(value.isFinite && value > 0) {
            problems.append(Problem(text: "\(name) must be a positive number of seconds", isMissingKey: false))
        }
        for pin in settings.pinnedPublicKeyHashes where PNConfiguration.pinDigest(pin) == nil {
            problems.append(
                Problem(
                    text: "pinnedPublicKeyHashes: '\(pin)' is not the base64 SHA-256 of a public key",
                    isMissingKey: false
                )
            )
        }
        if settings.publishPipelineDepth < 1 {
            problems.append(Problem(text: "publishPipelineDepth must be at least 1", isMissingKey: false))
        }
        if settings.anchorCertificatesFile?.isEmpty == true {
            problems.append(Problem(text: "anchorCertificatesFile is an empty path", isMissingKey: false))
        }
        return problems
    }

    // MARK: - Origin

    /// The origin's host: the part before `:port`, brackets kept for an IPv6 address.
    var originHost: String {
        let origin = self.origin
        return PNConfiguration.parseOrigin(origin)?.host ?? origin
    }

    /// The origin's explicit port, or nil for the scheme's default (443 with TLS, 80 without).
    var originPort: Int? {
        PNConfiguration.parseOrigin(self.origin)?.port
    }

    /// Splits `host[:port]` (IPv6 hosts in brackets: `[::1]:8090`); nil when `origin` is not of that form
    /// (empty, a URL with a scheme or path, a port outside 1…65535, characters no URL host can hold).
    static func parseOrigin(_ origin: String) -> (host: String, port: Int?)? {
        Self.parsePlainOrigin(origin) ?? Self.parseAnyOrigin(origin)
    }

    /// `parseOrigin` for the usual form — a host of ASCII letters, digits, `.` and `-` (a name or an IPv4 address)
    /// and an optional `:port` of at most five digits in 1…65535 — read from the UTF-8 bytes; nil for anything else,
    /// which `parseAnyOrigin` decides. Every origin of this form passes `parseAnyOrigin`'s checks too (`URL` takes
    /// such a host and port), with the same answer (`PNConfigurationValidationTests`). It keeps a client's start off `URL`'s
    /// parser and the Unicode property tables that `Character` tests read: pages an idle client would otherwise keep
    /// resident (BENCHMARKS.md, idle client).
    static func parsePlainOrigin(_ origin: String) -> (host: String, port: Int?)? {
        var hostLength = 0
        var port: Int?
        var portDigits = 0
        for byte in origin.utf8 {
            if port == nil {
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"):
                    hostLength += 1
                case UInt8(ascii: ":"):
                    port = 0
                default:
                    return nil
                }
            } else if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte), portDigits < 5, let value = port {
                port = value * 10 + Int(byte - UInt8(ascii: "0"))
                portDigits += 1
            } else {
                return nil
            }
        }
        guard hostLength > 0, port == nil || (portDigits > 0 && (1...65535).contains(port ?? 0)) else {
            return nil
        }
        return (String(decoding: origin.utf8.prefix(hostLength), as: UTF8.self), port)
    }

    /// `parseOrigin` for every form, IPv6 and non-ASCII hosts included: `URL` decides which characters a host may
    /// hold.
    static func parseAnyOrigin(_ origin: String) -> (host: String, port: Int?)? {
        guard !origin.isEmpty, !origin.contains(where: { $0.isWhitespace || "/?#@\\".contains($0) }),
            URL(string: "http://\(origin)/") != nil
        else {
            return nil
        }
        let host: Substring
        let rest: Substring
        if origin.hasPrefix("[") {
            guard let close = origin.firstIndex(of: "]") else {
                return nil
            }
            host = origin[...close]
            rest = origin[origin.index(after: close)...]
            guard host.count > 2 else {
                return nil
            }
        } else if let colon = origin.firstIndex(of: ":") {
            host = origin[..<colon]
            rest = origin[colon...]
        } else {
            host = Substring(origin)
            rest = ""
        }
        guard !host.isEmpty, !host.dropFirst().dropLast().contains("[") else {
            return nil
        }
        if rest.isEmpty {
            return (String(host), nil)
        }
        let digits = rest.dropFirst()
        guard rest.first == ":", !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            digits.count <= 5, let port = Int(digits), (1...65535).contains(port)
        else {
            return nil
        }
        return (String(host), port)
    }

    // MARK: - Comparison

    /// 3.4's `-requiresConnectionResetWithConfiguration:`: true when `configuration` has another origin, another TLS
    /// setting or (unlike 3.4.2, as from 3.5 on) another authorization key, so a connected client reconnects to
    /// apply it; false for nil.
    public func requiresConnectionResetWithConfiguration(_ configuration: PNConfiguration?) -> Bool {
        guard let configuration else {
            return false
        }
        return self.impactOfChange(to: configuration) == .hardReset
    }

    /// What replacing this configuration with `configuration` takes on a connected client: nothing when they are
    /// equal, a hard reset when the origin, the TLS setting or the authorization key differ (as the client does,
    /// docs/API-3.4.md §4.7), otherwise an in-place update.
    public func impactOfChange(to configuration: PNConfiguration) -> ChangeImpact {
        let old = self.settings.current
        let new = configuration.settings.current
        if old.origin != new.origin || old.useSecureConnection != new.useSecureConnection
            || old.authorizationKey != new.authorizationKey
        {
            return .hardReset
        }
        return old == new ? .none : .appliedInPlace
    }

    // MARK: - Description

    /// What `description` shows (see there).
    var redactedDescription: String {
        let settings = self.settings.current
        let secret = settings.secretKey == "0" ? "0" : SecretText.redacted(settings.secretKey)
        return "\nConfiguration for: \(settings.origin) (secured: \(settings.useSecureConnection ? "YES" : "NO"))"
            + "\nPublish key (Required): \(settings.publishKey.isEmpty ? "-missing-" : settings.publishKey)"
            + "\nSubscription key (Required): "
            + (settings.subscriptionKey.isEmpty ? "-missing-" : settings.subscriptionKey)
            + "\nSecret key (Required): \(settings.secretKey.isEmpty ? "-missing-" : secret)"
            + "\nCipher key: \(settings.cipherKey.isEmpty ? "-no encription key-" : SecretText.redacted(settings.cipherKey))"
    }

    /// What `dump` and debuggers show: the description, so the keys stay redacted there too (the stored settings
    /// would show them verbatim).
    public var customMirror: Mirror {
        Mirror(self, children: ["description": self.description], displayStyle: .class)
    }
}
