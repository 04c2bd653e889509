import Foundation
import LocalOrigin
import Testing

@testable import PubNubLegacy

/// Values the official Python SDK publishes that Foundation's JSON decoder refuses (issue 20, item 1): `json.dumps`
/// writes a string holding a lone surrogate as `"\ud800"` and an integer of any size digit for digit, and the origin
/// stores both, being valid JSON. `Infinity` (what it writes for `float("inf")`) is not JSON and is refused.
@Suite(.serialized) struct PythonPeerPoisonTests {
    @Test func whatPythonPublishesNeverSilencesTheChannel() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await LocalOriginClientTests.connected(to: origin, recorder: recorder)
        defer { client.disconnect() }
        let name = LocalOriginClientTests.unique("from-python-poison")
        client.subscribeOnChannel(PNChannel.channelWithName(name))
        try await recorder.next(.delegate, "didSubscribe")

        let big = String(repeating: "9", count: 400)
        let input = Data(#"["first", "\ud800", \#(big), "second"]"#.utf8)
        let peer = try PythonPeer("publish", origin: origin.address, channel: name, key: "", mode: .fixed, input: input)
        defer { peer.stop() }
        try await peer.next("DONE")
        try await recorder.waitForCount(4, .delegate, "didReceiveMessage", within: 15)
        let received = recorder.all(.delegate, "didReceiveMessage").compactMap { $0.message?.message as? String }
        #expect(received == ["first", #""\ud800""#, big, "second"])
        let errors = recorder.all(.delegate, "error").compactMap(\.error)
        #expect(errors.map(\.code) == [kPNResponseMalformedJSONError, kPNResponseMalformedJSONError])
        #expect(
            errors.compactMap { ($0.associatedObject as? PNMessage)?.message as? String } == [#""\ud800""#, big]
        )
    }
}
