import Testing

@testable import LocalOrigin

@Suite struct SubscribeHubTests {
    private func poll(_ channels: [String], wildcards: [String] = [], deadline: UInt64) -> ParkedPoll {
        ParkedPoll(
            exchange: Exchange(method: "GET", target: "/", sink: FakeSink(), callback: nil),
            format: .v2,
            subscribeKey: "sub",
            listedChannels: channels,
            groups: [],
            subscription: Subscription(
                exact: Dictionary(uniqueKeysWithValues: channels.map { ($0, $0) }),
                wildcards: wildcards
            ),
            uuid: nil,
            presenceChannels: [],
            cursor: 1,
            deadline: deadline
        )
    }

    @Test func indexesPollsByChannel() {
        var hub = SubscribeHub()
        let first = hub.park(self.poll(["a", "b"], deadline: 10))
        let second = hub.park(self.poll(["b"], deadline: 20))
        #expect(hub.ids(watching: "b") == [first, second])
        #expect(hub.ids(watching: "a") == [first])
        #expect(hub.remove(first) != nil)
        #expect(hub.remove(first) == nil)
        #expect(hub.ids(watching: "a").isEmpty)
        hub.updateSubscription(of: second, to: Subscription(exact: ["c": "g"]))
        #expect(hub.ids(watching: "b").isEmpty)
        #expect(hub.ids(watching: "c") == [second])
    }

    @Test func wildcardPollsWatchEveryChannelWithTheirPrefix() {
        var hub = SubscribeHub()
        let wildcard = hub.park(self.poll(["a.*"], wildcards: ["a.*"], deadline: 10))
        let plain = hub.park(self.poll(["a.b"], deadline: 10))
        #expect(hub.ids(watching: "a.b") == [wildcard, plain])
        #expect(hub.ids(watching: "a.c.d") == [wildcard])
        #expect(hub.ids(watching: "a.*-pnpres") == [wildcard])
        #expect(hub.ids(watching: "ab").isEmpty)
        #expect(hub.remove(wildcard) != nil)
        #expect(hub.ids(watching: "a.c.d").isEmpty)
    }

    @Test func expiresByDeadlineSkippingAnsweredPolls() {
        var hub = SubscribeHub()
        let ids = (1...4).map { hub.park(self.poll(["a"], deadline: UInt64($0) * 10)) }
        _ = hub.remove(ids[0])
        #expect(hub.nextDeadline() == 20)
        #expect(hub.takeDue(at: 25) == [ids[1]])
        _ = hub.remove(ids[1])
        #expect(hub.takeDue(at: 25).isEmpty)
        #expect(hub.nextDeadline() == 30)
        #expect(hub.takeDue(at: 100) == [ids[2], ids[3]])
    }

    @Test func theExpiryQueueIsCompactedUnderChurn() {
        var hub = SubscribeHub()
        for deadline in 0..<5_000 as Range<UInt64> {
            let id = hub.park(self.poll(["a"], deadline: deadline))
            _ = hub.remove(id)
            _ = hub.takeDue(at: deadline)
        }
        let last = hub.park(self.poll(["a"], deadline: 9_999))
        #expect(hub.nextDeadline() == 9_999)
        #expect(hub.takeDue(at: 9_999) == [last])
    }
}
