// Other spellings of the same settings: 3.4's Objective-C getter names (`shouldUseSecureConnection`, …), read-only
// as they were, and the 4.x property names, which read and write the very same storage as the 3.4 names.

import Foundation

// MARK: - 3.4 getter names

extension PNConfiguration {
    /// 3.4 getter of `resubscribeOnConnectionRestore`.
    public var shouldResubscribeOnConnectionRestore: Bool { self.resubscribeOnConnectionRestore }

    /// 3.4 getter of `restoreSubscriptionFromLastTimeToken`.
    public var shouldRestoreSubscriptionFromLastTimeToken: Bool { self.restoreSubscriptionFromLastTimeToken }

    /// 3.4 getter of `ignoreSecureConnectionRequirement`.
    public var canIgnoreSecureConnectionRequirement: Bool { self.ignoreSecureConnectionRequirement }

    /// 3.4 getter of `reduceSecurityLevelOnError`.
    public var shouldReduceSecurityLevelOnError: Bool { self.reduceSecurityLevelOnError }

    /// 3.4 getter of `useSecureConnection`.
    public var shouldUseSecureConnection: Bool { self.useSecureConnection }

    /// 3.4 getter of `autoReconnectClient`.
    public var shouldAutoReconnectClient: Bool { self.autoReconnectClient }

    /// 3.4 getter of `acceptCompressedResponse`.
    public var shouldAcceptCompressedResponse: Bool { self.acceptCompressedResponse }
}

// MARK: - 4.x names

extension PNConfiguration {
    /// 4.x name of `resubscribeOnConnectionRestore` (same setting).
    public var restoreSubscription: Bool {
        get { self.resubscribeOnConnectionRestore }
        set { self.resubscribeOnConnectionRestore = newValue }
    }

    /// 4.x name of `restoreSubscriptionFromLastTimeToken` (same setting).
    public var catchUpOnSubscriptionRestore: Bool {
        get { self.restoreSubscriptionFromLastTimeToken }
        set { self.restoreSubscriptionFromLastTimeToken = newValue }
    }

    /// 4.x name of `useSecureConnection` (same setting).
    public var TLSEnabled: Bool {
        get { self.useSecureConnection }
        set { self.useSecureConnection = newValue }
    }

    /// 4.x name of `authorizationKey` (same setting); `""` means no `auth` parameter.
    public var authKey: String {
        get { self.authorizationKey }
        set { self.authorizationKey = newValue }
    }
}
