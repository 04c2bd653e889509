// The compile-time defaults of 3.4's `PNDefaultConfiguration.h` (docs/API-3.4.md §2.7.1), as constants with the
// 3.4 names. Two differ from 3.4 on purpose (docs/DESIGN.md §5, A12): the TLS downgrade settings default to NO, so a
// TLS failure is reported instead of silently falling back to plain HTTP. And since 3.4's platform hosts
// (`ios.pubnub.com`, `macos.pubnub.com`) name no platform on Linux, the default origin is `pubsub.pubnub.com`
// everywhere (docs/DESIGN.md §3).

import Foundation

/// The origin of `PNConfiguration.defaultConfiguration()`.
public let kPNOriginHost = "pubsub.pubnub.com"

/// The origin used when a constructor gets a nil or empty origin (3.4's `kPNDefaultOriginHost`).
public let kPNDefaultOriginHost = "pubsub.pubnub.com"

/// The publish key of `PNConfiguration.defaultConfiguration()`.
public let kPNPublishKey = "demo"

/// The subscribe key of `PNConfiguration.defaultConfiguration()`.
public let kPNSubscriptionKey = "demo"

/// The secret key constructors use when none is given: nil, which becomes `"0"`.
public let kPNSecretKey: String? = nil

/// The cipher key constructors use when none is given: nil, which becomes `""` (no encryption).
public let kPNCipherKey: String? = nil

/// The authorization key constructors use when none is given: nil, which becomes `""` (no `auth` parameter).
public let kPNAuthorizationKey: String? = nil

/// Default of `useSecureConnection`: TLS on.
public let kPNSecureConnectionRequired = true

/// Default of `autoReconnectClient`.
public let kPNShouldAutoReconnectClient = true

/// Default of `resubscribeOnConnectionRestore`.
public let kPNShouldResubscribeOnConnectionRestore = true

/// Default of `restoreSubscriptionFromLastTimeToken`.
public let kPNShouldRestoreSubscriptionFromLastTimeToken = true

/// Default of `acceptCompressedResponse`.
public let kPNShouldAcceptCompressedResponse = true

/// Default of `reduceSecurityLevelOnError`: NO in this package (3.4: YES).
public let kPNShouldReduceSecurityLevelOnError = false

/// Default of `ignoreSecureConnectionRequirement`: NO in this package (3.4: YES).
public let kPNCanIgnoreSecureConnectionRequirement = false

/// Default of `subscribeMaximumIdleTime`: how long the subscribe long-poll may stay silent before the client
/// resubscribes, in seconds.
public let kPNConnectionIdleTimeout: TimeInterval = 310

/// Default of `nonSubscriptionRequestTimeout`, in seconds (3.4's header value; its README said 15).
public let kPNNonSubscriptionRequestTimeout: TimeInterval = 10

/// Default of `subscriptionRequestTimeout`, in seconds (3.4's header value; its README said 310).
public let kPNSubscriptionRequestTimeout: TimeInterval = 10
