import Foundation
import Testing

@testable import LocalOrigin

@Suite struct OriginStorePushTests {
    private let token = "a1b2c3d4e5f60718293a4b5c6d7e8f90"

    @Test func addListRemoveChannelsAndTheDevice() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let devices = "/v1/push/sub-key/sub/devices/\(self.token)"
        let added = origin.get("\(devices)?add=demo-ch,x&type=apns&uuid=py-pub")
        #expect(added.status == 200)
        #expect(added.array.count == 2)
        #expect(added.array[0] as? Int == 1)
        #expect(added.array[1] as? String == "Modified Channels")
        #expect(origin.get("\(devices)?type=apns").array as? [String] == ["demo-ch", "x"])
        origin.get("\(devices)?remove=x&type=apns")
        #expect(origin.get("\(devices)?type=apns").array as? [String] == ["demo-ch"])
        let removed = origin.get("\(devices)/remove?type=apns")
        #expect(removed.array[1] as? String == "Removed Device")
        #expect(origin.get("\(devices)?type=apns").text == "[]")
    }

    @Test func thirtyFourStyleRequestsAreJSONPAndTolerateTheAuthBug() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let upper = self.token.uppercased()
        let enable = origin.get(
            "/v1/push/sub-key/sub/devices/\(upper)?add=a&callback=cpe_12345&uuid=U?auth=K",
            callback: "cpe_12345"
        )
        #expect(enable.text.hasPrefix("cpe_12345("))
        #expect(enable.array.first as? Int == 1)
        // The token is compared case-insensitively; 3.4.2's callbacks imply apns (it sent no type).
        let list = origin.get(
            "/v1/push/sub-key/sub/devices/\(self.token)?callback=pec_12345&uuid=U?auth=K&type=apns",
            callback: "pec_12345"
        )
        #expect(list.text == "pec_12345([\"a\"])")
        let remove = origin.get(
            "/v1/push/sub-key/sub/devices/\(upper)/remove?callback=pnr_12345&uuid=U?auth=K",
            callback: "pnr_12345"
        )
        #expect(remove.array.last as? String == "Removed Device")
    }

    @Test func typesAreSeparateRegistrations() {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("/v1/push/sub-key/sub/devices/fcm-token_1?add=f&type=fcm")
        origin.get("/v1/push/sub-key/sub/devices/\(self.token)?add=g&type=gcm")
        #expect(origin.get("/v1/push/sub-key/sub/devices/\(self.token)?type=apns").array.isEmpty)
        #expect(origin.get("/v1/push/sub-key/sub/devices/\(self.token)?type=gcm").array as? [String] == ["g"])
        #expect(origin.get("/v1/push/sub-key/sub/devices/FCM-TOKEN_1?type=fcm").array as? [String] == ["f"])
    }

    @Test func apns2RegistrationsNeedATopicAndKeepEnvironmentsApart() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let devices = "/v2/push/sub-key/sub/devices-apns2/\(self.token)"
        #expect(origin.get("\(devices)?add=a&environment=production&topic=com.example").array.first as? Int == 1)
        #expect(origin.get("\(devices)?environment=production&topic=com.example").array as? [String] == ["a"])
        #expect(origin.get("\(devices)?environment=development&topic=com.example").array.isEmpty)
        let missing = origin.get("\(devices)?add=a")
        #expect(missing.status == 400)
        #expect(missing.object["error"] is String)
        #expect(origin.get("\(devices)?topic=t&environment=staging").status == 400)
        #expect(
            origin.get("\(devices)/remove?environment=production&topic=com.example").array.last as? String
                == "Removed Device"
        )
    }

    /// The service's answers (pubnub/python `tests/integrational/fixtures/native_sync/*_push/`): a v1 request
    /// without `type` is refused whatever it does; only an add checks the token.
    @Test(arguments: [
        ("/v1/push/sub-key/sub/devices/?add=a&type=apns", "Invalid device token"),
        ("/v1/push/sub-key/sub/devices/a%20b?add=a&type=gcm", "Invalid device token"),
        ("/v1/push/sub-key/sub/devices/xyz?add=a&type=apns", "Invalid device token"),
        ("/v1/push/sub-key/sub/devices/abc?add=a&type=apns", "Invalid device token"),
        ("/v1/push/sub-key/sub/devices/device_id_should_be_16_characters_long?add=a&type=apns", "Invalid device token"),
        ("/v1/push/sub-key/sub/devices/ab?add=a&type=carrier-pigeon", "Invalid type argument"),
        ("/v1/push/sub-key/sub/devices/0000000000000000?add=a", "Invalid type argument"),
        ("/v1/push/sub-key/sub/devices/0000000000000000?remove=a", "Invalid type argument"),
        ("/v1/push/sub-key/sub/devices/0000000000000000", "Invalid type argument"),
        ("/v1/push/sub-key/sub/devices/0000000000000000/remove", "Invalid type argument"),
    ])
    func badTokensAndTypesAre400(_ target: String, _ message: String) {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get(target)
        #expect(reply.status == 400)
        #expect(reply.object["error"] as? String == message)
    }

    /// Removing channels or the device takes any token, as the service does (`unicode_device_id.json`,
    /// `whitespace_device_id.json`, `nonexistent_device.json` of pubnub/python's push fixtures).
    @Test(arguments: [
        "%E6%B5%8B%E8%AF%95%E8%AE%BE%E5%A4%87ID123456", "%20%201234567890ABCDEF%20%20", "nonexistent_123",
    ])
    func removesTakeAnyToken(_ token: String) {
        let origin = OriginHarness()
        defer { origin.stop() }
        let devices = "/v1/push/sub-key/sub/devices/\(token)"
        #expect(origin.get("\(devices)?remove=a&type=apns").array.last as? String == "Modified Channels")
        #expect(origin.get("\(devices)/remove?type=apns").array.last as? String == "Removed Device")
        #expect(origin.get("\(devices)?type=apns").text == "[]")
        #expect(origin.get("\(devices)?add=a&type=apns").object["error"] as? String == "Invalid device token")
    }

    @Test func aWrongSubscribeKeyIsRefused() {
        let origin = OriginHarness { $0.subscribeKeys = ["sub"] }
        defer { origin.stop() }
        let reply = origin.get("/v1/push/sub-key/other/devices/\(self.token)")
        #expect(reply.object["message"] as? String == "Invalid Subscribe Key")
    }
}
