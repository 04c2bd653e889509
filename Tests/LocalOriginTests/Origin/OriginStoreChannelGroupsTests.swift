import Foundation
import Testing

@testable import LocalOrigin

@Suite struct OriginStoreChannelGroupsTests {
    private let base = "/v1/channel-registration/sub-key/sub"

    private func channels(_ reply: Reply) -> [String]? {
        (reply.object["payload"] as? [String: Any])?["channels"] as? [String]
    }

    @Test func addListRemoveAndDelete() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let added = origin.get("\(self.base)/channel-group/grp?add=a,b&pnsdk=x&uuid=u")
        #expect(added.status == 200)
        #expect(added.object["status"] as? Int == 200)
        #expect(added.object["message"] as? String == "OK")
        #expect(added.object["service"] as? String == "channel-registry")
        #expect(added.object["error"] as? Bool == false)
        let listed = origin.get("\(self.base)/channel-group/grp")
        #expect(self.channels(listed) == ["a", "b"])
        #expect((listed.object["payload"] as? [String: Any])?["group"] as? String == "grp")
        #expect(listed.object["error"] as? Bool == false)
        origin.get("\(self.base)/channel-group/grp?add=b,c")
        origin.get("\(self.base)/channel-group/grp?remove=a")
        #expect(self.channels(origin.get("\(self.base)/channel-group/grp")) == ["b", "c"])
        #expect(origin.get("\(self.base)/channel-group/grp/remove").object["message"] as? String == "OK")
        #expect(self.channels(origin.get("\(self.base)/channel-group/grp")) == [])
    }

    @Test func unknownGroupsListEmpty() {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("\(self.base)/channel-group/never?callback=c_1", callback: "c_1")
        #expect(reply.status == 200)
        #expect(self.channels(reply) == [])
    }

    @Test func channelNamesAreDecodedAfterSplitting() {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("\(self.base)/channel-group/grp?add=a%20b,%C3%BC")
        #expect(self.channels(origin.get("\(self.base)/channel-group/grp")) == ["a b", "ü"])
    }

    @Test func listGroupsAndNamespaces() throws {
        let origin = OriginHarness()
        defer { origin.stop() }
        origin.get("\(self.base)/channel-group/g2?add=a")
        origin.get("\(self.base)/channel-group/g1?add=a")
        origin.get("\(self.base)/namespace/ns/channel-group/inner?add=z")
        let groups = try #require(origin.get("\(self.base)/channel-group").object["payload"] as? [String: Any])
        #expect(groups["groups"] as? [String] == ["g1", "g2"])
        #expect(groups["namespace"] as? String == "")
        let inner = try #require(
            origin.get("\(self.base)/namespace/ns/channel-group").object["payload"] as? [String: Any]
        )
        #expect(inner["groups"] as? [String] == ["inner"])
        #expect(inner["namespace"] as? String == "ns")
        let namespaces = try #require(origin.get("\(self.base)/namespace").object["payload"] as? [String: Any])
        #expect(namespaces["namespaces"] as? [String] == ["ns"])
        // A namespaced group is subscribed to as `ns:inner`.
        let start =
            ((origin.get("/v2/subscribe/sub/,/0?tt=0&channel-group=ns:inner").object["t"] as? [String: Any])?["t"]
                as? String) ?? ""
        origin.publish("1", on: "z")
        let reply = origin.get("/v2/subscribe/sub/,/0?tt=\(start)&channel-group=ns:inner")
        #expect((reply.object["m"] as? [[String: Any]])?.first?["b"] as? String == "ns:inner")
        origin.get("\(self.base)/namespace/ns/remove")
        #expect(self.channels(origin.get("\(self.base)/namespace/ns/channel-group/inner")) == [])
    }

    @Test(arguments: ["a%2Cb", "a%3Ab", "a*"])
    func reservedCharactersInGroupNamesAre400(_ name: String) {
        let origin = OriginHarness()
        defer { origin.stop() }
        let reply = origin.get("\(self.base)/channel-group/\(name)?add=x")
        #expect(reply.status == 400)
        #expect(reply.object["error"] as? Bool == true)
        #expect(reply.object["message"] as? String == "Reserved character in input parameters.")
    }

    @Test func groupCountAndSizeAreBounded() {
        let origin = OriginHarness {
            $0.maxChannelGroups = 2
            $0.maxChannelsPerGroup = 3
        }
        defer { origin.stop() }
        #expect(origin.get("\(self.base)/channel-group/g1?add=a").status == 200)
        #expect(origin.get("\(self.base)/channel-group/g2?add=a").status == 200)
        let third = origin.get("\(self.base)/channel-group/g3?add=a")
        #expect(third.status == 400)
        #expect(third.object["message"] as? String == "Maximum channel group count exceeded.")
        #expect(origin.get("\(self.base)/channel-group/g1?add=b,c").status == 200)
        #expect(origin.get("\(self.base)/channel-group/g1?add=d").status == 400)
        #expect(self.channels(origin.get("\(self.base)/channel-group/g1")) == ["a", "b", "c"])
    }

    @Test func aWrongSubscribeKeyIsRefused() {
        let origin = OriginHarness { $0.subscribeKeys = ["sub"] }
        defer { origin.stop() }
        let reply = origin.get("/v1/channel-registration/sub-key/other/channel-group/g")
        #expect(reply.object["message"] as? String == "Invalid Subscribe Key")
    }
}
