import Testing

@testable import PubNubLegacy

@Suite struct SecurityLevelTests {
    @Test(
        arguments: [
            // (from, reduce, ignore, canRelax, expected)
            (SecurityLevel.strict, false, false, true, SecurityLevel?.none),
            (.strict, true, false, true, .relaxed),
            (.strict, true, false, false, nil),
            (.strict, true, true, false, .plain),
            (.strict, false, true, true, .plain),
            (.strict, true, true, true, .relaxed),
            (.relaxed, true, false, true, nil),
            (.relaxed, true, true, true, .plain),
            (.plain, true, true, true, nil),
        ]
    )
    func eachFailureStepsDownOnlyWhatTheSettingsAllow(
        from: SecurityLevel,
        reduce: Bool,
        ignore: Bool,
        canRelax: Bool,
        expected: SecurityLevel?
    ) {
        let next = from.next(
            reduceSecurityLevelOnError: reduce,
            ignoreSecureConnectionRequirement: ignore,
            canRelax: canRelax
        )
        #expect(next == expected)
    }

    @Test func theLevelShapesTheRequestsSchemeAndValidation() throws {
        var settings = ClientSettings()
        settings.origin = "127.0.0.1:8090"
        let strict = try #require(Endpoint.time.request(in: settings.endpointContext(uuid: "u"), timeout: 5))
        #expect(strict.url.scheme == "https" && !strict.relaxedCertificateValidation)
        let relaxedContext = settings.endpointContext(uuid: "u", security: .relaxed)
        let relaxed = try #require(Endpoint.time.request(in: relaxedContext, timeout: 5))
        #expect(relaxed.url.scheme == "https" && relaxed.relaxedCertificateValidation)
        let plain = try #require(
            Endpoint.time.request(in: settings.endpointContext(uuid: "u", security: .plain), timeout: 5)
        )
        // An explicit port is kept; the scheme alone changes.
        #expect(plain.url.absoluteString.hasPrefix("http://127.0.0.1:8090/time/0?"))
        #expect(!plain.relaxedCertificateValidation)
        settings.origin = "pubsub.pubnub.com"
        let noPort = try #require(
            Endpoint.time.request(in: settings.endpointContext(uuid: "u", security: .plain), timeout: 5)
        )
        // No port named: plain HTTP's default, 80.
        #expect(noPort.url.absoluteString.hasPrefix("http://pubsub.pubnub.com/time/0?") && noPort.url.port == nil)
        settings.secure = false
        let insecure = try #require(
            Endpoint.time.request(in: settings.endpointContext(uuid: "u", security: .relaxed), timeout: 5)
        )
        #expect(insecure.url.scheme == "http" && !insecure.relaxedCertificateValidation)
    }

    @Test func onlyTLSRelevantChangesRestartTheLadder() {
        let old = ClientSettings()
        var timeout = old
        timeout.nonSubscriptionRequestTimeout = 20
        #expect(!old.restartsSecurityLadder(toApply: timeout))
        for change: (inout ClientSettings) -> Void in [
            { $0.origin = "other.origin" }, { $0.secure = false }, { $0.reduceSecurityLevelOnError = true },
            { $0.ignoreSecureConnectionRequirement = true }, { $0.trust.anchorCertificatesFile = "ca.pem" },
            { $0.trust.pinnedKeyDigests = [SHA256.hash("key")] },
        ] {
            var new = old
            change(&new)
            #expect(old.restartsSecurityLadder(toApply: new))
        }
    }
}
