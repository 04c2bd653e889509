import Foundation
import Testing

@testable import PubNubLegacy

/// The TLS fallback ladder's decisions (docs/BEHAVIOR.md §2.8, docs/DESIGN.md A12), without I/O.
@Suite struct SecurityLadderTests {
    static let untrusted = TransportFailure.tls(code: -1202, description: "certificate untrusted")

    static func settings(reduce: Bool, ignore: Bool) -> ClientSettings {
        var settings = ClientSettings()
        settings.secure = true
        settings.reduceSecurityLevelOnError = reduce
        settings.ignoreSecureConnectionRequirement = ignore
        return settings
    }

    @Test func everyAllowedRungIsTriedSilentlyThenTheTLSFailureIsReported() {
        let settings = Self.settings(reduce: true, ignore: true)
        var ladder = SecurityLadder()
        ladder.settingsApplied(old: nil, new: settings)
        #expect(ladder.attemptFailed(Self.untrusted, settings: settings, canRelax: true) == .relaxed)
        #expect(ladder.level == .relaxed && ladder.lastFailure == nil)
        #expect(ladder.attemptFailed(Self.untrusted, settings: settings, canRelax: true) == .plain)
        #expect(ladder.attemptFailed(Self.untrusted, settings: settings, canRelax: true) == nil)
        #expect(ladder.level == .plain)
        #expect(ladder.takeLastFailure() == Self.untrusted)
        #expect(ladder.takeLastFailure() == nil)
    }

    @Test func withoutPermissionOrRelaxationNoRungIsSkippedTo() {
        var strictOnly = SecurityLadder()
        #expect(
            strictOnly.attemptFailed(
                Self.untrusted,
                settings: Self.settings(reduce: false, ignore: false),
                canRelax: true
            ) == nil
        )
        #expect(strictOnly.level == .strict && strictOnly.lastFailure == Self.untrusted)
        // The transport cannot relax: the reduce permission alone has nothing to step to.
        var cannotRelax = SecurityLadder()
        #expect(
            cannotRelax.attemptFailed(
                Self.untrusted,
                settings: Self.settings(reduce: true, ignore: false),
                canRelax: false
            ) == nil
        )
        #expect(
            cannotRelax.attemptFailed(
                Self.untrusted,
                settings: Self.settings(reduce: true, ignore: true),
                canRelax: false
            ) == .plain
        )
        // TLS off: nothing to step down from.
        var plain = SecurityLadder()
        var insecure = Self.settings(reduce: true, ignore: true)
        insecure.secure = false
        #expect(plain.attemptFailed(Self.untrusted, settings: insecure, canRelax: true) == nil)
    }

    @Test func otherFailuresTakeTheirCourseAndAreRememberedForTheReport() {
        let settings = Self.settings(reduce: true, ignore: true)
        var ladder = SecurityLadder()
        #expect(ladder.attemptFailed(.timedOut, settings: settings, canRelax: true) == nil)
        #expect(ladder.level == .strict && ladder.lastFailure == .timedOut)
        #expect(ladder.attemptFailed(.responseTooLarge("body"), settings: settings, canRelax: true) == nil)
        #expect(ladder.takeLastFailure() == .responseTooLarge("body"))
    }

    @Test func aTLSRelevantSettingsChangeRestartsAtStrictAndMakesAFallenBackClientReconnect() {
        let settings = Self.settings(reduce: true, ignore: true)
        var ladder = SecurityLadder()
        ladder.settingsApplied(old: nil, new: settings)
        #expect(ladder.attemptFailed(Self.untrusted, settings: settings, canRelax: false) == .plain)
        var timeout = settings
        timeout.nonSubscriptionRequestTimeout = 20
        #expect(!ladder.requiresReconnect(old: settings, new: timeout))
        ladder.settingsApplied(old: settings, new: timeout)
        #expect(ladder.level == .plain)
        var stricter = settings
        stricter.ignoreSecureConnectionRequirement = false
        #expect(ladder.requiresReconnect(old: settings, new: stricter))
        ladder.settingsApplied(old: settings, new: stricter)
        #expect(ladder.level == .strict)
        #expect(!ladder.requiresReconnect(old: stricter, new: settings))  // at strict there is nothing to undo
    }

    /// Whether the transport can relax is asked only for a TLS failure the settings allow to relax: on Linux the
    /// answer loads OpenSSL, which a plain-`http` client must never do.
    @Test func theTransportIsAskedWhetherItCanRelaxOnlyWhenTheRelaxedRungIsAllowed() {
        var asked = 0
        func canRelax() -> Bool {
            asked += 1
            return true
        }
        var plain = SecurityLadder()
        var insecure = Self.settings(reduce: true, ignore: true)
        insecure.secure = false
        _ = plain.attemptFailed(.timedOut, settings: insecure, canRelax: canRelax())
        _ = plain.attemptFailed(Self.untrusted, settings: insecure, canRelax: canRelax())
        _ = plain.attemptFailed(Self.untrusted, settings: nil, canRelax: canRelax())
        var strictOnly = SecurityLadder()
        _ = strictOnly.attemptFailed(
            Self.untrusted,
            settings: Self.settings(reduce: false, ignore: true),
            canRelax: canRelax()
        )
        var secure = SecurityLadder()
        _ = secure.attemptFailed(.timedOut, settings: Self.settings(reduce: true, ignore: true), canRelax: canRelax())
        #expect(asked == 0)
        #expect(
            secure.attemptFailed(
                Self.untrusted,
                settings: Self.settings(reduce: true, ignore: true),
                canRelax: canRelax()
            ) == .relaxed
        )
        #expect(asked == 1)
    }
}
