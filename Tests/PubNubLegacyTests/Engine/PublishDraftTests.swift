import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

/// A publish's channel and message are escaped once, by its preflight (`PublishDraft`), and the request takes those
/// escapes: the method and the size must be what the preflight computed from its own escapes, and the template's
/// request from the escapes must be `Endpoint.request`'s in every context the template cuts.
@Suite struct PublishDraftTests {
    @Test func theMethodAndTheSizeAreThoseOfThePreflightsOwnEscapes() {
        var generator = SeededGenerator(seed: 0xd4af7)
        let long = String(repeating: "é", count: ClientEngine.postThreshold / 5)
        let texts = (0..<200).map { _ in RequestURLTextTests.randomText(&generator, maximumLength: 40) } + [long]
        for wire in texts {
            let channel = RequestURLTextTests.randomText(&generator, maximumLength: 10)
            let draft = PublishDraft(channel: channel, wire: wire)
            let escaped = PercentEncoding.escape(wire)
            let method: Endpoint.PublishMethod = escaped.utf8.count > ClientEngine.postThreshold ? .post : .get
            let size =
                PercentEncoding.escape(channel).utf8.count + (method == .get ? escaped.utf8.count : wire.utf8.count)
            #expect(draft.method == method)
            #expect(draft.size == size)
            #expect(draft.wire == wire)
        }
        #expect(PublishDraft(channel: "c", wire: long).method == .post)
    }

    @Test func theTemplatesRequestFromTheEscapesIsEndpointRequestsInEveryContextItCuts() {
        var generator = SeededGenerator(seed: 0x5e7)
        var cut = 0
        for context in EndpointPublishTemplateTests.contexts() {
            let template = PublishRequestTemplate(context: context)
            for _ in 0..<10 {
                let channel = RequestURLTextTests.randomText(&generator, maximumLength: 10)
                let wire = RequestURLTextTests.randomText(&generator, maximumLength: 30)
                let draft = PublishDraft(channel: channel, wire: wire)
                guard
                    let made = template.request(
                        escapedChannel: draft.escapedChannel,
                        escapedMessage: draft.escapedMessage,
                        timeout: 5
                    )
                else { continue }
                cut += 1
                let expected = Endpoint.publish(channel: channel, message: wire, method: .get)
                    .request(in: context, timeout: 5)
                #expect(made == expected, "\(context) \(channel.debugDescription) \(wire.debugDescription)")
            }
        }
        #expect(cut >= 8 * 10, "cut \(cut)")
    }
}
