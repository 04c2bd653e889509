import Foundation

/// The configuration values the engine uses, copied from a `PNConfiguration` when it is applied.
///
/// A copy, not the configuration object itself: 3.x code keeps mutating its configuration object after handing
/// it over, and a change must reach the client only through `setConfiguration` (docs/BEHAVIOR.md §2.4).
struct ClientSettings: Equatable, Sendable {
    var origin = "pubsub.pubnub.com"
    var secure = true
    var publishKey = "demo"
    var subscribeKey = "demo"
    var secretKey = "0"
    var cipherKey = ""
    var authKey = ""
    var nonSubscriptionRequestTimeout: TimeInterval = 10
    var subscriptionRequestTimeout: TimeInterval = 10
    var resubscribeOnConnectionRestore = true
    var restoreSubscriptionFromLastTimeToken = true
    var autoReconnectClient = true
    var keepTimeTokenOnListChange = true
    var requestMessageCountThreshold = 0
    /// The presence timeout sent as `heartbeat` (seconds); 0 = the origin's default.
    var presenceHeartbeatValue = 0
    /// Seconds between heartbeat requests; 0 = no heartbeats.
    var presenceHeartbeatInterval = 0
    var ignoreSecureConnectionRequirement = false
    var reduceSecurityLevelOnError = false
    /// The long-poll idle timeout (4.x `subscribeMaximumIdleTime`, 3.4 `kPNConnectionIdleTimeout`).
    var subscribeMaximumIdleTime: TimeInterval = 310
    /// How messages are encrypted when `cipherKey` is set.
    var cipherMode = CipherMode.buildDefault
    /// The client identifier the configuration names (4.x `uuid`), nil to keep the client's.
    var uuid: String?
    /// The largest response body a request reads (`PNConfiguration.maximumResponseBodySize`).
    var maximumResponseBodySize = ResponseLimits.defaultMaximumBodyBytes
    /// The trust anchors and pins of `https` requests.
    var trust = TLSTrust()
    /// Publishes written before their answers arrive (`PNConfiguration.publishPipelineDepth`); 1: no pipelining.
    var publishPipelineDepth = 1

    /// A copy of `configuration`'s current values.
    init(configuration: PNConfiguration) {
        let values = configuration.settings.current
        self.origin = values.origin
        self.secure = values.useSecureConnection
        self.publishKey = values.publishKey
        self.subscribeKey = values.subscriptionKey
        self.secretKey = values.secretKey
        self.cipherKey = values.cipherKey
        self.authKey = values.authorizationKey
        self.nonSubscriptionRequestTimeout = values.nonSubscriptionRequestTimeout
        self.subscriptionRequestTimeout = values.subscriptionRequestTimeout
        self.resubscribeOnConnectionRestore = values.resubscribeOnConnectionRestore
        self.restoreSubscriptionFromLastTimeToken = values.restoreSubscriptionFromLastTimeToken
        self.autoReconnectClient = values.autoReconnectClient
        self.keepTimeTokenOnListChange = values.keepTimeTokenOnListChange
        self.requestMessageCountThreshold = Int(clamping: values.requestMessageCountThreshold)
        self.presenceHeartbeatValue = values.presenceHeartbeatValue
        self.presenceHeartbeatInterval = values.presenceHeartbeatInterval
        self.ignoreSecureConnectionRequirement = values.ignoreSecureConnectionRequirement
        self.reduceSecurityLevelOnError = values.reduceSecurityLevelOnError
        self.subscribeMaximumIdleTime = values.subscribeMaximumIdleTime
        self.uuid = values.uuid
        self.maximumResponseBodySize = values.maximumResponseBodySize
        self.trust = TLSTrust(
            anchorCertificatesFile: values.anchorCertificatesFile,
            pinnedKeyDigests: Set(values.pinnedPublicKeyHashes.compactMap(PNConfiguration.pinDigest))
        )
        self.publishPipelineDepth = max(1, values.publishPipelineDepth)
        if values.cryptoBackwardCompatibilityMode {
            self.cipherMode = .compatibility33
        } else if values.useRandomInitializationVector {
            self.cipherMode = .randomIV
        } else {
            self.cipherMode = .standard
        }
    }

    /// Defaults, for tests of the engine alone.
    init() {}

    /// 2.7.4: valid iff the publish, subscribe and secret keys are all non-empty (and the origin is usable).
    var isValid: Bool {
        !self.publishKey.isEmpty && !self.subscribeKey.isEmpty && !self.secretKey.isEmpty && !self.origin.isEmpty
    }

    /// Whether applying `new` while connected needs a hard reset (docs/BEHAVIOR.md §2.9: origin, TLS, auth key).
    func requiresHardReset(toApply new: ClientSettings) -> Bool {
        self.origin != new.origin || self.secure != new.secure || self.authKey != new.authKey
    }

    /// Whether the TLS ladder must start again at `strict` when `new` replaces these settings: the origin, the
    /// TLS setting, a fallback permission or the trust (anchors, pins) changed (a downgrade never outlives the
    /// settings that allowed it, and new trust may make strict TLS work).
    func restartsSecurityLadder(toApply new: ClientSettings) -> Bool {
        self.origin != new.origin || self.secure != new.secure
            || self.reduceSecurityLevelOnError != new.reduceSecurityLevelOnError
            || self.ignoreSecureConnectionRequirement != new.ignoreSecureConnectionRequirement
            || self.trust != new.trust
    }

    /// The request context for the given client identifier, at `security` (ignored when TLS is off).
    func endpointContext(uuid: String, security: SecurityLevel = .strict) -> EndpointContext {
        EndpointContext(
            origin: self.origin,
            secure: self.secure && security != .plain,
            publishKey: self.publishKey,
            subscribeKey: self.subscribeKey,
            uuid: uuid,
            authKey: self.authKey,
            relaxedCertificateValidation: self.secure && security == .relaxed,
            trust: self.trust,
            secretKey: self.secretKey == "0" ? "" : self.secretKey  // "0" is 3.4's "no secret key"
        )
    }
}
