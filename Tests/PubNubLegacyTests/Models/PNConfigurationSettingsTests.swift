import Dispatch
import TestSupport
import Testing

@testable import PubNubLegacy

@Suite(.serialized, .sharedProcessState) struct PNConfigurationSettingsTests {
    @Test func fourXAndLayerSettingsAreStored() {
        let configuration = PNConfiguration.defaultConfiguration()
        let queue = DispatchQueue(label: "delivery")
        configuration.uuid = "user-1"
        configuration.subscribeMaximumIdleTime = 60
        configuration.keepTimeTokenOnListChange = false
        configuration.requestMessageCountThreshold = 100
        configuration.presenceHeartbeatValue = 120
        configuration.presenceHeartbeatInterval = 59
        configuration.deliveryQueue = queue
        configuration.useRandomInitializationVector = true
        configuration.cryptoBackwardCompatibilityMode = true
        #expect(configuration.maximumResponseBodySize == 33_554_432)
        configuration.maximumResponseBodySize = 65_536
        #expect(configuration.uuid == "user-1")
        #expect(configuration.subscribeMaximumIdleTime == 60)
        #expect(!configuration.keepTimeTokenOnListChange)
        #expect(configuration.requestMessageCountThreshold == 100)
        #expect(configuration.presenceHeartbeatValue == 120)
        #expect(configuration.presenceHeartbeatInterval == 59)
        #expect(configuration.deliveryQueue === queue)
        #expect(configuration.useRandomInitializationVector)
        #expect(configuration.cryptoBackwardCompatibilityMode)
        #expect(configuration.maximumResponseBodySize == 65_536)
        configuration.maximumResponseBodySize = 0
        #expect(configuration.maximumResponseBodySize == 1_024)
    }

    @Test func threeThreeCompatibilityFollowsTheCompileCondition() {
        #if CRYPTO_BACKWARD_COMPATIBILITY_MODE
        #expect(PNConfiguration.defaultConfiguration().cryptoBackwardCompatibilityMode)
        #else
        #expect(!PNConfiguration.defaultConfiguration().cryptoBackwardCompatibilityMode)
        #endif
    }

    @Test func everySettingTakesPartInEquality() {
        let base = PNConfiguration.defaultConfiguration()
        let changes: [(PNConfiguration) -> Void] = [
            { $0.uuid = "u" }, { $0.subscribeMaximumIdleTime = 1 }, { $0.keepTimeTokenOnListChange = false },
            { $0.requestMessageCountThreshold = 1 }, { $0.presenceHeartbeatValue = 1 },
            { $0.presenceHeartbeatInterval = 1 }, { $0.deliveryQueue = DispatchQueue(label: "q") },
            { $0.useRandomInitializationVector.toggle() }, { $0.cryptoBackwardCompatibilityMode.toggle() },
            { $0.cipherKey = "c" }, { $0.authorizationKey = "a" }, { $0.nonSubscriptionRequestTimeout = 1 },
            { $0.subscriptionRequestTimeout = 1 }, { $0.resubscribeOnConnectionRestore = false },
            { $0.restoreSubscriptionFromLastTimeToken = false }, { $0.ignoreSecureConnectionRequirement = true },
            { $0.reduceSecurityLevelOnError = true }, { $0.autoReconnectClient = false },
            { $0.acceptCompressedResponse = false }, { $0.useSecureConnection = false },
            { $0.maximumResponseBodySize = 4_096 },
            { $0.anchorCertificatesFile = "ca.pem" }, { $0.pinnedPublicKeyHashes = [Self.pin] },
        ]
        for change in changes {
            let changed = base.copied()
            change(changed)
            #expect(changed != base)
        }
    }

    /// A well-formed pin: base64 of 32 bytes.
    static let pin = Base64.encode(SHA256.hash("a public key"))

    @Test func trustAnchorsAndPinsAreStoredAndReachTheEngineAsDigests() throws {
        let configuration = PNConfiguration.defaultConfiguration()
        #expect(configuration.anchorCertificatesFile == nil)
        #expect(configuration.pinnedPublicKeyHashes.isEmpty)
        configuration.anchorCertificatesFile = "certs/ca.pem"
        configuration.pinnedPublicKeyHashes = [Self.pin, "sha256/" + Base64.encode(SHA256.hash("backup key"))]
        #expect(configuration.anchorCertificatesFile == "certs/ca.pem")
        #expect(configuration.copied().pinnedPublicKeyHashes == configuration.pinnedPublicKeyHashes)
        let settings = ClientSettings(configuration: configuration)
        #expect(settings.trust.anchorCertificatesFile == "certs/ca.pem")
        #expect(settings.trust.pinnedKeyDigests == [SHA256.hash("a public key"), SHA256.hash("backup key")])
        // Only `https` requests carry them.
        let secure = try #require(Endpoint.time.request(in: settings.endpointContext(uuid: "u"), timeout: 5))
        #expect(secure.trust == settings.trust)
        let plain = try #require(
            Endpoint.time.request(in: settings.endpointContext(uuid: "u", security: .plain), timeout: 5)
        )
        #expect(plain.trust.isSystemDefault)
    }

    @Test(arguments: [
        "not base64!", "", "sha256/", Base64.encode(Array(repeating: 7, count: 31)),
        Base64.encode(Array(repeating: 7, count: 33)), "sha1/" + Base64.encode(Array(repeating: 7, count: 32)),
    ])
    func aPinThatIsNotABase64SHA256MakesTheConfigurationInvalid(_ pin: String) throws {
        let configuration = PNConfiguration.defaultConfiguration()
        configuration.pinnedPublicKeyHashes = [Self.pin, pin]
        let error = try #require(configuration.validationError())
        #expect(error.code == kPNClientConfigurationError)
        #expect(error.localizedFailureReason.contains("pinnedPublicKeyHashes: '\(pin)'"))
        configuration.pinnedPublicKeyHashes = [Self.pin]
        #expect(configuration.isValid())
    }

    @Test func anEmptyAnchorsPathMakesTheConfigurationInvalid() throws {
        let configuration = PNConfiguration.defaultConfiguration()
        configuration.anchorCertificatesFile = ""
        #expect(try #require(configuration.validationError()).localizedFailureReason.contains("anchorCertificatesFile"))
        configuration.anchorCertificatesFile = nil
        #expect(configuration.isValid())
    }
}
