// Settings 3.4 did not have: the 4.x ones (docs/DESIGN.md §3) and the ones this layer needs (delivery queue, cipher
// modes). Their defaults keep 3.4's behaviour.

import Foundation

// MARK: - 4.x settings

extension PNConfiguration {
    /// The client identifier (4.x `uuid`). nil (the default) leaves it to `PubNub.setClientIdentifier(_:)`, 3.4's
    /// way, and otherwise to a generated identifier. When set, a client given this configuration uses it as its
    /// identifier, as if `setClientIdentifier(_:)` had been called with it. An empty value or one longer than
    /// `maximumUUIDLength` makes the configuration invalid (`validationError()`).
    public var uuid: String? {
        get { self.settings.withLock { $0.uuid } }
        set { self.settings.withLock { $0.uuid = newValue } }
    }

    /// How long the subscribe long-poll may stay silent before the client subscribes again, in seconds (4.x name;
    /// 3.4's fixed `kPNConnectionIdleTimeout`). Default 310.
    public var subscribeMaximumIdleTime: TimeInterval {
        get { self.settings.withLock { $0.subscribeMaximumIdleTime } }
        set { self.settings.withLock { $0.subscribeMaximumIdleTime = newValue } }
    }

    /// Whether adding or removing channels keeps the current time token instead of starting again from 0, so no
    /// message in between is lost. Default YES (4.x). 3.4 behaved like NO when the change came with presence
    /// events and like YES otherwise.
    public var keepTimeTokenOnListChange: Bool {
        get { self.settings.withLock { $0.keepTimeTokenOnListChange } }
        set { self.settings.withLock { $0.keepTimeTokenOnListChange = newValue } }
    }

    /// When greater than 0, a subscribe response carrying at least this many messages is reported through
    /// `pubnubClient(_:error:)` with `kPNRequestMessageCountExceededError` (category `messageCountExceeded`)
    /// before its messages are delivered. Default 0: off.
    public var requestMessageCountThreshold: UInt {
        get { self.settings.withLock { $0.requestMessageCountThreshold } }
        set { self.settings.withLock { $0.requestMessageCountThreshold = newValue } }
    }

    /// The presence timeout the origin applies to this client, in seconds, sent as `heartbeat` (4.x). Default 300,
    /// the origin's own default. Negative values are stored as 0 (no value sent).
    public var presenceHeartbeatValue: Int {
        get { self.settings.withLock { $0.presenceHeartbeatValue } }
        set { self.settings.withLock { $0.presenceHeartbeatValue = max(0, newValue) } }
    }

    /// How often the client sends a presence heartbeat, in seconds (4.x; 4.x recommends
    /// `presenceHeartbeatValue / 2 - 1`). Default 0: no heartbeat requests, the long-poll alone keeps the client
    /// present, as in 3.4. Negative values are stored as 0.
    public var presenceHeartbeatInterval: Int {
        get { self.settings.withLock { $0.presenceHeartbeatInterval } }
        set { self.settings.withLock { $0.presenceHeartbeatInterval = max(0, newValue) } }
    }
}

// MARK: - Layer settings

extension PNConfiguration {
    /// The queue every delegate call, observer, notification and completion block runs on (docs/DESIGN.md §4).
    /// Default `DispatchQueue.main`, as in 3.4; on Linux the main queue only runs while the program is inside
    /// `dispatchMain()` or a running `RunLoop`, so command-line programs and tests usually set their own serial
    /// queue.
    public var deliveryQueue: DispatchQueue {
        get { self.settings.withLock { $0.deliveryQueue.queue } }
        set { self.settings.withLock { $0.deliveryQueue = QueueIdentity(newValue) } }
    }

    /// Whether messages are encrypted with a fresh random initialization vector prepended to the ciphertext (the
    /// 4.x and Python SDKs' `useRandomInitializationVector` / `use_random_initialization_vector`) instead of 3.4's
    /// fixed one. Default NO, so 3.4-era peers can read what this client sends; both sides must agree
    /// (docs/CRYPTO.md §3). Only used when `cipherKey` is set.
    public var useRandomInitializationVector: Bool {
        get { self.settings.withLock { $0.useRandomInitializationVector } }
        set { self.settings.withLock { $0.useRandomInitializationVector = newValue } }
    }

    /// Whether messages are encrypted the way the 3.3 client did (MD5 key, each string leaf encrypted separately),
    /// which 3.4 offered as the compile switch `CRYPTO_BACKWARD_COMPATIBILITY_MODE` (docs/CRYPTO.md §2). Default NO,
    /// or YES when the package is built with that condition. Only used when `cipherKey` is set; no current SDK
    /// reads this format.
    public var cryptoBackwardCompatibilityMode: Bool {
        get { self.settings.withLock { $0.cryptoBackwardCompatibilityMode } }
        set { self.settings.withLock { $0.cryptoBackwardCompatibilityMode = newValue } }
    }

    /// The largest response body the client reads, in bytes (chunked framing removed). Default 33,554,432 (32 MiB),
    /// several times what the PubNub service ever sends (a 100-message subscribe or history page of 32 KiB
    /// messages stays under 4 MiB). A larger answer — from a misbehaving origin or proxy — fails its request with
    /// `kPNResponseTooLargeError` (category `malformedResponse`) as soon as the limit is passed, and the connection
    /// is dropped; the client goes on, and its memory never holds more than about this much of one answer. Values
    /// below 1,024 are stored as 1,024. Enforced as the bytes arrive where the package's sockets carry the request
    /// (Linux; loopback origins on Apple platforms); where URLSession carries it (Apple platforms, an origin on
    /// another machine), the answer is refused only once URLSession has read it whole.
    ///
    /// Headers and trailers have fixed bounds: 64 KiB of header (256 lines) and 64 KiB of trailers.
    public var maximumResponseBodySize: Int {
        get { self.settings.withLock { $0.maximumResponseBodySize } }
        set { self.settings.withLock { $0.maximumResponseBodySize = max(1_024, newValue) } }
    }
}

extension PNConfiguration {
    /// Default of `maximumResponseBodySize`: 32 MiB.
    static let defaultMaximumResponseBodySize = ResponseLimits.defaultMaximumBodyBytes
    /// The path of a PEM file of certificates that the client trusts for TLS instead of the system's trust store,
    /// e.g. the private CA of your own origin or a test CA; every certificate of the file is an anchor, a CA's or
    /// not. nil (the default): the system trust store (on Linux OpenSSL's default, which honours `SSL_CERT_FILE` and
    /// `SSL_CERT_DIR`; on Apple platforms the system's). The file is read when a connection needs it; one that cannot
    /// be read, or holds no certificate or a broken one, fails the connection with a TLS failure (category
    /// `.tlsFailure`, code -1200) naming the file. The host name is verified as with the system store.
    ///
    /// Works on Linux (the package's own TLS, OpenSSL) and on Apple platforms (URLSession's server-trust
    /// challenge, the Security framework), with the same file format and failures.
    public var anchorCertificatesFile: String? {
        get { self.settings.withLock { $0.anchorCertificatesFile } }
        set { self.settings.withLock { $0.anchorCertificatesFile = newValue } }
    }

    /// Public-key pins (new in this package; 3.4 had none): each the base64 SHA-256 of a DER SubjectPublicKeyInfo,
    /// as HPKP's `pin-sha256` and other SDKs write it (an `sha256/` prefix is accepted), e.g. the output of
    /// `openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary
    /// | base64`. When not empty, a TLS connection is accepted only if the server's certificate — or, once verified,
    /// a certificate of its chain — has one of these keys; otherwise it fails with a TLS failure (category
    /// `.tlsFailure`, code -1202) that names the server's own pin. Verification still happens first. Empty (the
    /// default): no pinning. A value that is not such a hash makes the configuration invalid (code 100).
    ///
    /// Works where `anchorCertificatesFile` does: Linux with OpenSSL and Apple platforms.
    public var pinnedPublicKeyHashes: [String] {
        get { self.settings.withLock { $0.pinnedPublicKeyHashes } }
        set { self.settings.withLock { $0.pinnedPublicKeyHashes = newValue } }
    }

    /// How many publishes of this client may be on the wire at once, written one after another on one keep-alive
    /// connection before their answers arrive (HTTP/1.1 pipelining; new in this package, 3.4 pipelined every request
    /// of its service socket). 1 (the default): off — each publish waits for the previous one's answer, as every
    /// other call does (docs/BEHAVIOR.md §1.2). Must be at least 1; a smaller value makes the configuration invalid
    /// (code 100).
    ///
    /// When above 1, a publish starts as soon as the publishes before it were written while fewer than this many are
    /// waiting for their answers; the answers are matched in order, so call order is kept on the wire and in the
    /// events. Any other call still waits until every earlier publish has its outcome. A connection that breaks or
    /// closes fails every publish whose answer had not arrived (`kPNRequestExecutionFailedOnInternetFailureError`,
    /// 104) and none is sent again: a publish is not idempotent, so such a message may or may not have been stored.
    /// Each publish keeps its own timeout from its own call (`nonSubscriptionRequestTimeout`). Plain `http` origins
    /// only: with TLS (`useSecureConnection`) publishes are sent one at a time whatever this says.
    public var publishPipelineDepth: Int {
        get { self.settings.withLock { $0.publishPipelineDepth } }
        set { self.settings.withLock { $0.publishPipelineDepth = newValue } }
    }

    /// The 32-byte digest a pin names, or nil when `pin` is not the base64 of 32 bytes (after an optional `sha256/`).
    static func pinDigest(_ pin: String) -> [UInt8]? {
        let text = pin.hasPrefix("sha256/") ? String(pin.dropFirst(7)) : pin
        guard let digest = try? Base64.decode(text), digest.count == 32 else { return nil }
        return digest
    }
}
