// The compile-time defaults of 3.4's `PNDefaultConfiguration.h` (docs/API-3.4.md §2.7.1) under their 3.4 names.
// 3.x apps set their origin, keys and flags by editing that header; here each default is a settable global, so a
// ported app assigns its edited values once at startup (MIGRATION.md "PNDefaultConfiguration.h") and every later
// `PNConfiguration.defaultConfiguration()` and constructor reads them at call time. They live in one lock box, so
// they may be read and assigned from any thread.
//
// Two defaults differ from 3.4 on purpose (docs/DESIGN.md §5, A12): the TLS downgrade settings are NO, so a TLS failure
// is reported instead of silently falling back to plain HTTP. And since 3.4's platform hosts (`ios.pubnub.com`,
// `macos.pubnub.com`) name no platform on Linux, the default origin is `pubsub.pubnub.com` everywhere (docs/DESIGN.md
// §3).

import Foundation
import PlatformSupport

/// The values of the defaults, in one box.
private struct ConfigurationDefaults {
    var originHost = "pubsub.pubnub.com"
    var defaultOriginHost = "pubsub.pubnub.com"
    var publishKey = "demo"
    var subscriptionKey = "demo"
    var secretKey: String?
    var cipherKey: String?
    var authorizationKey: String?
    var secureConnectionRequired = true
    var shouldAutoReconnectClient = true
    var shouldResubscribeOnConnectionRestore = true
    var shouldRestoreSubscriptionFromLastTimeToken = true
    var shouldAcceptCompressedResponse = true
    var shouldReduceSecurityLevelOnError = false
    var canIgnoreSecureConnectionRequirement = false
    var connectionIdleTimeout: TimeInterval = 310
    var nonSubscriptionRequestTimeout: TimeInterval = 10
    var subscriptionRequestTimeout: TimeInterval = 10
}

private let configurationDefaults = Locked(ConfigurationDefaults())

/// The origin of `PNConfiguration.defaultConfiguration()`. Default `"pubsub.pubnub.com"`.
public var kPNOriginHost: String {
    get { configurationDefaults.withLock { $0.originHost } }
    set { configurationDefaults.withLock { $0.originHost = newValue } }
}

/// The origin used when a constructor gets a nil or empty origin, and by the key-only constructors
/// (`configurationWithPublishKey(_:subscribeKey:secretKey:)`); 3.4's `kPNDefaultOriginHost` of `PNConstants.h`.
/// Default `"pubsub.pubnub.com"`.
public var kPNDefaultOriginHost: String {
    get { configurationDefaults.withLock { $0.defaultOriginHost } }
    set { configurationDefaults.withLock { $0.defaultOriginHost = newValue } }
}

/// The publish key of `PNConfiguration.defaultConfiguration()`. Default `"demo"`.
public var kPNPublishKey: String {
    get { configurationDefaults.withLock { $0.publishKey } }
    set { configurationDefaults.withLock { $0.publishKey = newValue } }
}

/// The subscribe key of `PNConfiguration.defaultConfiguration()`. Default `"demo"`.
public var kPNSubscriptionKey: String {
    get { configurationDefaults.withLock { $0.subscriptionKey } }
    set { configurationDefaults.withLock { $0.subscriptionKey = newValue } }
}

/// The secret key of `PNConfiguration.defaultConfiguration()`. Default nil, which becomes `"0"`.
public var kPNSecretKey: String? {
    get { configurationDefaults.withLock { $0.secretKey } }
    set { configurationDefaults.withLock { $0.secretKey = newValue } }
}

/// The cipher key of `PNConfiguration.defaultConfiguration()` and of the constructors that take none. Default nil,
/// which becomes `""` (no encryption).
public var kPNCipherKey: String? {
    get { configurationDefaults.withLock { $0.cipherKey } }
    set { configurationDefaults.withLock { $0.cipherKey = newValue } }
}

/// The authorization key of `PNConfiguration.defaultConfiguration()`. Default nil, which becomes `""` (no `auth`
/// parameter).
public var kPNAuthorizationKey: String? {
    get { configurationDefaults.withLock { $0.authorizationKey } }
    set { configurationDefaults.withLock { $0.authorizationKey = newValue } }
}

/// Default of `useSecureConnection` for every configuration created afterwards. Default true (TLS on).
public var kPNSecureConnectionRequired: Bool {
    get { configurationDefaults.withLock { $0.secureConnectionRequired } }
    set { configurationDefaults.withLock { $0.secureConnectionRequired = newValue } }
}

/// Default of `autoReconnectClient`. Default true.
public var kPNShouldAutoReconnectClient: Bool {
    get { configurationDefaults.withLock { $0.shouldAutoReconnectClient } }
    set { configurationDefaults.withLock { $0.shouldAutoReconnectClient = newValue } }
}

/// Default of `resubscribeOnConnectionRestore`. Default true.
public var kPNShouldResubscribeOnConnectionRestore: Bool {
    get { configurationDefaults.withLock { $0.shouldResubscribeOnConnectionRestore } }
    set { configurationDefaults.withLock { $0.shouldResubscribeOnConnectionRestore = newValue } }
}

/// Default of `restoreSubscriptionFromLastTimeToken`. Default true.
public var kPNShouldRestoreSubscriptionFromLastTimeToken: Bool {
    get { configurationDefaults.withLock { $0.shouldRestoreSubscriptionFromLastTimeToken } }
    set { configurationDefaults.withLock { $0.shouldRestoreSubscriptionFromLastTimeToken = newValue } }
}

/// Default of `acceptCompressedResponse`. Default true.
public var kPNShouldAcceptCompressedResponse: Bool {
    get { configurationDefaults.withLock { $0.shouldAcceptCompressedResponse } }
    set { configurationDefaults.withLock { $0.shouldAcceptCompressedResponse = newValue } }
}

/// Default of `reduceSecurityLevelOnError`. Default false in this package (3.4: YES).
public var kPNShouldReduceSecurityLevelOnError: Bool {
    get { configurationDefaults.withLock { $0.shouldReduceSecurityLevelOnError } }
    set { configurationDefaults.withLock { $0.shouldReduceSecurityLevelOnError = newValue } }
}

/// Default of `ignoreSecureConnectionRequirement`. Default false in this package (3.4: YES).
public var kPNCanIgnoreSecureConnectionRequirement: Bool {
    get { configurationDefaults.withLock { $0.canIgnoreSecureConnectionRequirement } }
    set { configurationDefaults.withLock { $0.canIgnoreSecureConnectionRequirement = newValue } }
}

/// Default of `subscribeMaximumIdleTime`: how long the subscribe long-poll may stay silent before the client
/// resubscribes, in seconds. Default 310.
public var kPNConnectionIdleTimeout: TimeInterval {
    get { configurationDefaults.withLock { $0.connectionIdleTimeout } }
    set { configurationDefaults.withLock { $0.connectionIdleTimeout = newValue } }
}

/// Default of `nonSubscriptionRequestTimeout`, in seconds. Default 10 (3.4's header value; its README said 15).
public var kPNNonSubscriptionRequestTimeout: TimeInterval {
    get { configurationDefaults.withLock { $0.nonSubscriptionRequestTimeout } }
    set { configurationDefaults.withLock { $0.nonSubscriptionRequestTimeout = newValue } }
}

/// Default of `subscriptionRequestTimeout`, in seconds. Default 10 (3.4's header value; its README said 310).
public var kPNSubscriptionRequestTimeout: TimeInterval {
    get { configurationDefaults.withLock { $0.subscriptionRequestTimeout } }
    set { configurationDefaults.withLock { $0.subscriptionRequestTimeout = newValue } }
}
