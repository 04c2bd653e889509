import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

/// A publish's channel and message are escaped once, by its preflight (`PublishDraft`), and the request takes those
/// escapes: the method and the size must be what the preflight computed from its own escapes. (The template's request
/// from the escapes is compared with `Endpoint.request`'s by `EndpointPublishTemplateTests`.)
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
}
