import Foundation

// Every publish of a client goes to one origin with the same keys, `pnsdk`, `uuid` and `auth`: only the channel and the
// message change. Built through `Endpoint.request` (the path and query as text, their check for `URL(string:)`, the
// scheme and origin put in front), a publish's request cost about 13,400 instructions, and they lie on the path from
// one publish's answer to the next publish's request (issue 29, BENCHMARKS.md). A template made once per context holds
// the text around the channel and the message, cut from a request `Endpoint.request` made; a publish then costs one
// copy (its two escapes are made by its preflight, `PublishDraft`).

/// The GET publish requests of one `EndpointContext`: `Endpoint.request`'s text and settings, made from the text it
/// gave for one publish of that context, cut around the channel and the message. `EndpointPublishTemplateTests` compare
/// the two on contexts, channels and messages of every kind. Immutable; a class so the engine keeps one without copying
/// it.
final class PublishRequestTemplate: Sendable {
    /// The context the template was made for; it makes requests for that context alone.
    let context: EndpointContext
    /// Nil when the context's publishes cannot be cut: they go through `Endpoint.request` (`init`).
    private let cut: Cut?

    private struct Cut {
        /// `scheme://origin/publish/PUB/SUB/0/`, the text before the channel.
        let head: [UInt8]
        /// The query, after the message: `?pnsdk=…&uuid=…` and `&auth=…` when one is set.
        let tail: [UInt8]
        /// The request `Endpoint.request` made for the cut: what the template's requests take besides the text.
        let model: TransportRequest
    }

    /// The template of `context`. Its publishes cannot be cut when they are signed (their query holds a timestamp
    /// and a signature of the whole request), and when `Endpoint.request` does not make their text by putting the parts
    /// side by side (an origin that `URL(string:)` does not take as it is: the whole text is then `URL`'s).
    init(context: EndpointContext) {
        self.context = context
        self.cut = Self.cut(context)
    }

    private static func cut(_ context: EndpointContext) -> Cut? {
        let prefix = (context.secure ? "https://" : "http://") + context.origin
        guard context.secretKey.isEmpty,
            let model = Endpoint.publish(channel: "c", message: "m", method: .get).request(in: context, timeout: 0),
            RequestURLText.takesAsItIs(origin: context.origin, prefix: prefix)
        else { return nil }
        var head = Array(prefix.utf8)
        head.append(contentsOf: "/publish/".utf8)
        head.append(contentsOf: PercentEncoding.escape(context.publishKey).utf8)
        head.append(UInt8(ascii: "/"))
        head.append(contentsOf: PercentEncoding.escape(context.subscribeKey).utf8)
        head.append(contentsOf: "/0/".utf8)
        let cut = head + Array("c/0/m".utf8)
        let text = Array(model.urlText.utf8)
        guard text.starts(with: cut), text.count == cut.count || text[cut.count] == UInt8(ascii: "?") else {
            return nil
        }
        return Cut(head: head, tail: Array(text[cut.count...]), model: model)
    }

    /// `Endpoint.publish(channel:message:method: .get).request(in: context, timeout:)` for the channel and the
    /// message (the JSON text as sent) escaped with `PercentEncoding.escape`, as `Endpoint.target` escapes them
    /// (`PublishDraft` escapes them once, for the size check and the request); nil when the context's publishes
    /// cannot be cut (ask `Endpoint.request`).
    func request(
        escapedChannel channel: String,
        escapedMessage message: String,
        timeout: TimeInterval
    )
        -> TransportRequest?
    {
        guard let cut = self.cut else { return nil }
        var text: [UInt8] = []
        text.reserveCapacity(cut.head.count + channel.utf8.count + 3 + message.utf8.count + cut.tail.count)
        text.append(contentsOf: cut.head)
        text.append(contentsOf: channel.utf8)
        text.append(contentsOf: "/0/".utf8)
        text.append(contentsOf: message.utf8)
        text.append(contentsOf: cut.tail)
        return TransportRequest(
            method: cut.model.method,
            acceptedURLText: String(decoding: text, as: UTF8.self),
            body: nil,
            timeout: timeout,
            relaxedCertificateValidation: cut.model.relaxedCertificateValidation,
            trust: cut.model.trust
        )
    }
}
