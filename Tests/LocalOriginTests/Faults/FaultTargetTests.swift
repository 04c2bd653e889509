import Testing

@testable import LocalOrigin

// How fault injection classifies a request-target: operation, JSONP callback (path slot of the 3.4 forms or the
// `callback` parameter), channels and groups.

@Suite struct FaultTargetTests {
    @Test(arguments: [
        ("/time/0", OriginOperation.time),
        ("/time/t_1", .time),
        ("/publish/pub/sub/0/ch/0/1", .publish),
        ("/subscribe/sub/a,b/0/0", .subscribe),
        ("/v2/subscribe/sub/a/0?tt=0", .subscribe),
        ("/v2/presence/sub-key/sub/channel/a/leave?uuid=u", .presence),
        ("/v2/presence/sub_key/sub/channel/a/heartbeat", .presence),
        ("/v2/presence/sub-key/sub/uuid/u", .presence),
        ("/history/sub/a/0/10", .history),
        ("/v2/history/sub-key/sub/channel/a", .history),
        ("/v3/history/sub-key/sub/channel/a,b?max=5", .history),
        ("/v1/channel-registration/sub-key/sub/channel-group/g", .other),
        ("/v1/push/sub-key/sub/devices/abc", .other),
        ("/", .other),
        ("/nothing/here", .other),
        ("http://origin.example/time/0", .time),
    ])
    func operationsAreClassifiedFromThePath(target: String, operation: OriginOperation) {
        #expect(FaultTarget(target).operation == operation)
    }

    @Test func callbacksComeFromThePathSlotOrTheParameter() {
        #expect(FaultTarget("/time/t_a").callback == "t_a")
        #expect(FaultTarget("/time/0").callback == nil)
        #expect(FaultTarget("/publish/p/s/0/c/m_1/1").callback == "m_1")
        #expect(FaultTarget("/subscribe/s/c/s_2/0").callback == "s_2")
        #expect(FaultTarget("/v2/subscribe/s/c/s_3?tt=0").callback == "s_3")
        #expect(FaultTarget("/v2/history/sub-key/s/channel/c?callback=h_4").callback == "h_4")
        #expect(FaultTarget("/v2/presence/sub-key/s/channel/c?callback=").callback == nil)
        #expect(FaultTarget("/v1/push/sub-key/s/devices/d").callback == nil)
    }

    @Test func channelsAndGroupsAreDecodedAfterSplitting() {
        #expect(FaultTarget("/subscribe/s/a,b%2Cc,a-pnpres/0/0").channels == ["a", "b,c", "a-pnpres"])
        #expect(FaultTarget("/publish/p/s/0/ch%2F1/0/1").channels == ["ch/1"])
        #expect(FaultTarget("/v2/presence/sub-key/s/channel/a,b/leave").channels == ["a", "b"])
        #expect(FaultTarget("/v2/presence/sub-key/s/uuid/u").channels == [])
        #expect(FaultTarget("/v3/history/sub-key/s/channel/x,y").channels == ["x", "y"])
        #expect(FaultTarget("/time/0").channels == [])
        #expect(FaultTarget("/v2/subscribe/s/,/0?channel-group=g1,g2").groups == ["g1", "g2"])
        #expect(FaultTarget("/v2/subscribe/s/,/0?channel-group=g1,g2").channels == [])
    }
}
