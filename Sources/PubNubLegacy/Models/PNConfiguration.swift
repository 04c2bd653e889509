import Foundation
import PlatformSupport

/// The settings of a PubNub client (3.4's `PNConfiguration`, docs/API-3.4.md §2.7), with the 4.x names as
/// aliases and the 4.x and layer settings 3.4 lacked (docs/DESIGN.md §3).
///
/// An `NSObject`, as in 3.4, safe to read and change from any thread. The client takes a copy when it is given a
/// configuration (`setConfiguration`, `setupWithConfiguration`), so changing an instance afterwards does not affect
/// a running client; hand it over again to apply a change. Configurations are equal (`isEqual(_:)`, `==`, `hash`)
/// when every setting is, and copy themselves (`NSCopying`), as from 3.5 on (docs/DESIGN.md §3).
public final class PNConfiguration: NSObject, NSCopying, CustomReflectable, @unchecked Sendable {
    // @unchecked: all state lives in `settings`, a `Locked` box; every accessor goes through it.

    /// Everything a configuration holds, as one value: copies, comparisons and change checks work on it.
    struct Settings: Equatable {
        var origin: String
        var publishKey: String
        var subscriptionKey: String
        var secretKey: String
        var cipherKey: String
        var authorizationKey: String
        var nonSubscriptionRequestTimeout = kPNNonSubscriptionRequestTimeout
        var subscriptionRequestTimeout = kPNSubscriptionRequestTimeout
        var subscribeMaximumIdleTime = kPNConnectionIdleTimeout
        var resubscribeOnConnectionRestore = kPNShouldResubscribeOnConnectionRestore
        var restoreSubscriptionFromLastTimeToken = kPNShouldRestoreSubscriptionFromLastTimeToken
        var ignoreSecureConnectionRequirement = kPNCanIgnoreSecureConnectionRequirement
        var reduceSecurityLevelOnError = kPNShouldReduceSecurityLevelOnError
        var useSecureConnection = kPNSecureConnectionRequired
        var autoReconnectClient = kPNShouldAutoReconnectClient
        var acceptCompressedResponse = kPNShouldAcceptCompressedResponse
        var uuid: String?
        var keepTimeTokenOnListChange = true
        var requestMessageCountThreshold: UInt = 0
        var presenceHeartbeatValue = 300
        var presenceHeartbeatInterval = 0
        var useRandomInitializationVector = false
        var cryptoBackwardCompatibilityMode = PNConfiguration.cryptoBackwardCompatibilityModeDefault
        var deliveryQueue = QueueIdentity(DispatchQueue.main)
        var maximumResponseBodySize = PNConfiguration.defaultMaximumResponseBodySize
        var anchorCertificatesFile: String?
        var pinnedPublicKeyHashes: [String] = []
        var publishPipelineDepth = 1
    }

    /// A queue compared by identity, so `Settings` can synthesize its equality. The main queue is recognised by
    /// its label because on Linux each `DispatchQueue.main` access returns a new wrapper object.
    struct QueueIdentity: Equatable {
        let queue: DispatchQueue

        init(_ queue: DispatchQueue) {
            self.queue = queue
        }

        var isMain: Bool {
            self.queue === DispatchQueue.main || self.queue.label == DispatchQueue.main.label
        }

        static func == (lhs: Self, rhs: Self) -> Bool {
            lhs.queue === rhs.queue || (lhs.isMain && rhs.isMain)
        }
    }

    /// On when the package is built with the `CRYPTO_BACKWARD_COMPATIBILITY_MODE` trait (or `-D` condition), 3.4's
    /// compile switch for the 3.3 cipher scheme (docs/CRYPTO.md §2).
    static var cryptoBackwardCompatibilityModeDefault: Bool {
        #if CRYPTO_BACKWARD_COMPATIBILITY_MODE
        return true
        #else
        return false
        #endif
    }

    let settings: Locked<Settings>

    init(settings: Settings) {
        self.settings = Locked(settings)
        super.init()
    }

    // MARK: - Constructors

    /// The designated initializer (3.4's `-initWithOrigin:publishKey:subscribeKey:secretKey:cipherKey:authorizationKey:`).
    /// Every flag and timeout starts at its `PNDefaultConfiguration.h` default (`kPNSecureConnectionRequired`, …),
    /// read at call time; nil and empty arguments become the 3.4 fallbacks.
    ///
    /// - Parameters:
    ///   - origin: Host name, optionally with `:port` (`127.0.0.1:8090`); nil or empty uses `kPNDefaultOriginHost`.
    ///   - publishKey: nil becomes `""`, which makes the configuration invalid.
    ///   - subscribeKey: nil becomes `""`, which makes the configuration invalid.
    ///   - secretKey: nil becomes `"0"`; an explicit `""` makes the configuration invalid.
    ///   - cipherKey: nil becomes `""`: no encryption.
    ///   - authorizationKey: nil becomes `""`: no `auth` parameter.
    public init(
        origin: String?,
        publishKey: String?,
        subscribeKey: String?,
        secretKey: String?,
        cipherKey: String?,
        authorizationKey: String?
    ) {
        let host = (origin?.isEmpty ?? true) ? kPNDefaultOriginHost : origin ?? kPNDefaultOriginHost
        self.settings = Locked(
            Settings(
                origin: host,
                publishKey: publishKey ?? "",
                subscriptionKey: subscribeKey ?? "",
                secretKey: secretKey ?? "0",
                cipherKey: cipherKey ?? "",
                authorizationKey: authorizationKey ?? ""
            )
        )
        super.init()
        if host == kPNDefaultOriginHost {
            PNLogger.log(
                .PNLogGeneralLevel,
                self,
                "{WARN} Using the shared default origin \(host); set your own origin for production"
            )
        }
    }

    /// 3.4's `-initWithOrigin:publishKey:subscribeKey:secretKey:cipherKey:`: the authorization key is
    /// `kPNAuthorizationKey` (nil unless the app set it).
    public convenience init(
        origin: String?,
        publishKey: String?,
        subscribeKey: String?,
        secretKey: String?,
        cipherKey: String?
    ) {
        self.init(
            origin: origin,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secretKey: secretKey,
            cipherKey: cipherKey,
            authorizationKey: kPNAuthorizationKey
        )
    }

    // MARK: - NSObject

    /// `NSCopying` (3.5 on; 3.4.2's configuration could not be copied): an independent `PNConfiguration` with the
    /// same settings. `copy()` calls it, so `[configuration copy]` ports as `configuration.copy() as! PNConfiguration`.
    public func copy(with zone: NSZone? = nil) -> Any {
        self.copied()
    }

    /// The copy the client keeps of a configuration it is given.
    func copied() -> PNConfiguration {
        PNConfiguration(settings: self.settings.current)
    }

    /// Equal when every setting is (the delivery queue by identity), as `isEqual:` compared configurations from 3.5
    /// on (3.4.2 compared identities). `==` calls this.
    public override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? PNConfiguration else { return false }
        return other === self || other.settings.current == self.settings.current
    }

    /// The hash of the origin and the keys, consistent with `isEqual(_:)`.
    public override var hash: Int {
        let settings = self.settings.current
        var hasher = Hasher()
        hasher.combine(settings.origin)
        hasher.combine(settings.publishKey)
        hasher.combine(settings.subscriptionKey)
        hasher.combine(settings.secretKey)
        hasher.combine(settings.cipherKey)
        hasher.combine(settings.authorizationKey)
        return hasher.finalize()
    }

    /// 3.4's description: origin, TLS flag, the three keys (missing ones marked) and the cipher key. Unlike 3.4 the
    /// secret and cipher keys are not shown, only that they are set and their last characters (`set (…c0de)`); the
    /// secret key's "none" value `0` is shown as is.
    public override var description: String {
        self.redactedDescription
    }

    // MARK: - 3.4 properties

    /// The origin host, optionally with `:port`. Read-only, as in 3.4: create a new configuration for another
    /// origin.
    public internal(set) var origin: String {
        get { self.settings.withLock { $0.origin } }
        set { self.settings.withLock { $0.origin = newValue } }
    }

    /// The publish key; `""` when none was given.
    public var publishKey: String {
        self.settings.withLock { $0.publishKey }
    }

    /// The subscribe key (given to the constructors as `subscribeKey:`); `""` when none was given.
    public var subscriptionKey: String {
        self.settings.withLock { $0.subscriptionKey }
    }

    /// The secret key; `"0"` when none was given.
    public var secretKey: String {
        self.settings.withLock { $0.secretKey }
    }

    /// The cipher key; `""` means messages are not encrypted.
    public var cipherKey: String {
        get { self.settings.withLock { $0.cipherKey } }
        set { self.settings.withLock { $0.cipherKey = newValue } }
    }

    /// The authorization key sent as `auth`; `""` means none is sent. 4.x name: `authKey`. Longer than
    /// `maximumKeyLength` UTF-8 bytes makes the configuration invalid (`validationError()`).
    public var authorizationKey: String {
        get { self.settings.withLock { $0.authorizationKey } }
        set { self.settings.withLock { $0.authorizationKey = newValue } }
    }

    /// Timeout of every request other than subscribe (publish, history, here-now, time, push, leave), in seconds.
    /// Default 10. For a call it counts from the call, the wait for its turn behind earlier calls included: one still
    /// waiting when it passes fails with 106 without being sent.
    public var nonSubscriptionRequestTimeout: TimeInterval {
        get { self.settings.withLock { $0.nonSubscriptionRequestTimeout } }
        set { self.settings.withLock { $0.nonSubscriptionRequestTimeout = newValue } }
    }

    /// Timeout of a subscribe handshake the user asked for, in seconds. Default 10. Long-poll continuations are
    /// bounded by `subscribeMaximumIdleTime` instead.
    public var subscriptionRequestTimeout: TimeInterval {
        get { self.settings.withLock { $0.subscriptionRequestTimeout } }
        set { self.settings.withLock { $0.subscriptionRequestTimeout = newValue } }
    }

    /// Whether the client subscribes again to its channels after the connection comes back. Default YES.
    /// 3.4 getter: `shouldResubscribeOnConnectionRestore`; 4.x name: `restoreSubscription`.
    public var resubscribeOnConnectionRestore: Bool {
        get { self.settings.withLock { $0.resubscribeOnConnectionRestore } }
        set { self.settings.withLock { $0.resubscribeOnConnectionRestore = newValue } }
    }

    /// Whether that resubscription continues from the last time token, delivering what was missed. Default YES.
    /// 3.4 getter: `shouldRestoreSubscriptionFromLastTimeToken`; 4.x name: `catchUpOnSubscriptionRestore`.
    public var restoreSubscriptionFromLastTimeToken: Bool {
        get { self.settings.withLock { $0.restoreSubscriptionFromLastTimeToken } }
        set { self.settings.withLock { $0.restoreSubscriptionFromLastTimeToken = newValue } }
    }

    /// Whether, when TLS still fails after `reduceSecurityLevelOnError` (or at once, when that is NO or cannot
    /// apply), a client with `useSecureConnection` may fall back to plain HTTP on the same host — port 80 when
    /// `origin` names no port, the named port otherwise — for as long as this configuration (origin, TLS setting,
    /// both fallback flags, trust anchors and pins) stays applied; a configuration that changes any of them starts
    /// with TLS again. A pin mismatch is a TLS failure like any other here: set this NO when you pin.
    /// The fallback is silent: the connect reports exactly the events of a normal connect.
    /// With NO, the TLS failure is reported instead (`connectionDidFailWithError:`, category `.tlsFailure`) and no
    /// plain-HTTP request is ever sent. Default NO in this package (3.4: YES, docs/DESIGN.md A12).
    /// 3.4 getter: `canIgnoreSecureConnectionRequirement`.
    public var ignoreSecureConnectionRequirement: Bool {
        get { self.settings.withLock { $0.ignoreSecureConnectionRequirement } }
        set { self.settings.withLock { $0.ignoreSecureConnectionRequirement = newValue } }
    }

    /// Whether, after a TLS failure while connecting, the client may retry with TLS that accepts any server
    /// certificate (expired, self-signed, unknown root, another host's), silently, for as long as this
    /// configuration (origin, TLS setting, both fallback flags, trust anchors and pins) stays applied.
    /// `pinnedPublicKeyHashes` still apply at that level: with pins, the relaxed level trusts exactly the pinned
    /// keys.
    ///
    /// Works where the client's TLS can skip validation: on Linux the package's own TLS (OpenSSL, loaded at run
    /// time), on Apple platforms URLSession's server-trust challenge. Should OpenSSL be missing on Linux, there is no
    /// TLS at all (every `https` request fails with -1200 naming why): the setting then has no effect and the
    /// ladder goes straight to `ignoreSecureConnectionRequirement`. With NO, the certificate failure is reported
    /// (category `.tlsFailure`). Default NO in this package (3.4: YES, docs/DESIGN.md A12). 3.4 getter:
    /// `shouldReduceSecurityLevelOnError`.
    public var reduceSecurityLevelOnError: Bool {
        get { self.settings.withLock { $0.reduceSecurityLevelOnError } }
        set { self.settings.withLock { $0.reduceSecurityLevelOnError = newValue } }
    }

    /// Whether the client uses TLS (https). Default YES. 3.4 getter: `shouldUseSecureConnection`;
    /// 4.x name: `TLSEnabled`. On Apple platforms plain `http` to another machine goes through URLSession like
    /// `https`, so App Transport Security applies: an app needs an ATS exception for that origin
    /// (`NSAppTransportSecurity` in its Info.plist); loopback origins (`LocalOrigin`) need none.
    public var useSecureConnection: Bool {
        get { self.settings.withLock { $0.useSecureConnection } }
        set { self.settings.withLock { $0.useSecureConnection = newValue } }
    }

    /// Whether the client reconnects by itself when the network comes back (the delegate's
    /// `shouldReconnectPubNubClient(_:)` overrides it). Default YES. 3.4 getter: `shouldAutoReconnectClient`.
    public var autoReconnectClient: Bool {
        get { self.settings.withLock { $0.autoReconnectClient } }
        set { self.settings.withLock { $0.autoReconnectClient = newValue } }
    }

    /// Whether the client asks for gzip-compressed responses. Default YES. 3.4 getter:
    /// `shouldAcceptCompressedResponse`.
    public var acceptCompressedResponse: Bool {
        get { self.settings.withLock { $0.acceptCompressedResponse } }
        set { self.settings.withLock { $0.acceptCompressedResponse = newValue } }
    }
}
