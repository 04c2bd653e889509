import Foundation
import TestSupport
import Testing

@testable import PubNubLegacy

/// `PublishRequestTemplate` must make `Endpoint.request`'s publish requests, text and settings, in every context it
/// cuts, and cut every context whose requests are not signed and whose origin is taken as it is.
@Suite struct EndpointPublishTemplateTests {
    static let origins = [
        "127.0.0.1:8090", "ps.pndsn.com", "PS.PNDSN.COM", "[::1]:80", "localhost", "host:", "a b", "h%zz", "u@h",
        "h#f", "h?q", "é.example", "",
    ]
    static let texts = ["", "a", "ch/1 é,😀", "100%", "a&b=c", "?#", "u u#1", "pub key/é", "{\"a\":\"b c/%\"}", "[1]"]

    static func contexts() -> [EndpointContext] {
        var contexts: [EndpointContext] = []
        var generator = SeededGenerator(seed: 0x7e_3a_17)
        for (index, origin) in Self.origins.enumerated() {
            for secure in [false, true] {
                for signed in [false, true] {
                    var context = EndpointContext(
                        origin: origin,
                        secure: secure,
                        publishKey: Self.texts.randomElement(using: &generator) ?? "",
                        subscribeKey: Self.texts.randomElement(using: &generator) ?? "",
                        uuid: Self.texts.randomElement(using: &generator) ?? "",
                        authKey: index % 2 == 0 ? "" : Self.texts.randomElement(using: &generator) ?? "",
                        relaxedCertificateValidation: secure && index % 3 == 0,
                        secretKey: signed ? "sec-c" : ""
                    )
                    if index % 4 == 1 { context.trust.anchorCertificatesFile = "ca.pem" }
                    contexts.append(context)
                }
            }
        }
        return contexts
    }

    @Test func makesWhatEndpointRequestMakesInEveryContextItCuts() {
        var cut = 0
        var generator = SeededGenerator(seed: 0x91b)
        for context in Self.contexts() {
            let template = PublishRequestTemplate(context: context)
            for _ in 0..<20 {
                let channel = RequestURLTextTests.randomText(&generator, maximumLength: 10)
                let message = RequestURLTextTests.randomText(&generator, maximumLength: 30)
                let timeout = Double.random(in: 0...30, using: &generator)
                let expected = Endpoint.publish(channel: channel, message: message, method: .get)
                    .request(in: context, timeout: timeout)
                let made = template.request(
                    escapedChannel: PercentEncoding.escape(channel),
                    escapedMessage: PercentEncoding.escape(message),
                    timeout: timeout
                )
                guard let made else {
                    continue
                }
                cut += 1
                #expect(made == expected, "\(context) \(channel.debugDescription) \(message.debugDescription)")
            }
        }
        // At least the unsigned contexts of the four origins `parsePlainOrigin` reads, both schemes, were cut.
        #expect(cut >= 8 * 20, "cut \(cut)")
    }

    @Test func signedContextsAndOriginsURLRewritesAreNotCut() throws {
        for context in Self.contexts() {
            let template = PublishRequestTemplate(context: context)
            let made = template.request(escapedChannel: "c", escapedMessage: "1", timeout: 1)
            let prefix = (context.secure ? "https://" : "http://") + context.origin
            let takenAsItIs = !context.origin.isEmpty && RequestURLText.acceptsOrigin(prefix)
            #expect(
                (made != nil) == (context.secretKey.isEmpty && takenAsItIs),
                "\(context.origin.debugDescription) signed: \(!context.secretKey.isEmpty)"
            )
        }
        let plain = try #require(Self.contexts().first { $0.origin == "127.0.0.1:8090" && $0.secretKey.isEmpty })
        #expect(
            PublishRequestTemplate(context: plain).request(escapedChannel: "c", escapedMessage: "1", timeout: 1) != nil
        )
    }

    /// The engine keeps one template, for the context of its last publish: a publish after the client identifier or
    /// the authorization key changed carries the new one.
    @Test func aPublishAfterTheContextChangedCarriesTheNewValues() async throws {
        let recorder = EventRecorder()
        let transport = FakeTransport.origin()
        let client = try await PubNubTests.connected(recorder, transport: transport)
        let channel = PNChannel.channelWithName("template")
        client.sendMessage("1", toChannel: channel) { state, _ in
            if state == .PNMessageSent { recorder.block("sent.1") }
        }
        try await recorder.next(.block, "sent.1")
        client.setClientIdentifier("second id")
        let configuration = try #require(client.configuration)
        configuration.authorizationKey = "key&2"
        client.setConfiguration(configuration)
        client.sendMessage("2", toChannel: channel) { state, _ in
            if state == .PNMessageSent { recorder.block("sent.2") }
        }
        try await recorder.next(.block, "sent.2")
        let publishes = transport.targets.filter { $0.hasPrefix("/publish/") }
        #expect(publishes.count == 2)
        #expect(publishes.first?.contains("auth=") == false)
        #expect(publishes.last?.hasSuffix("&uuid=second%20id&auth=key%262") == true, "\(publishes)")
    }
}
