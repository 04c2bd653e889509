// A publish's channel and message, escaped once (issue 29). The preflight escaped them to size the publish and the
// publish template escaped them again for the request, on the socket worker's path from one publish's answer to the
// next publish's request (BENCHMARKS.md, eleventh session).

/// A publish's text as sent and its escapes, made by the preflight for the size check and taken by the request
/// (`ClientEngine.request(for:in:timeout:draft:)`). Immutable.
struct PublishDraft: Sendable {
    /// The text sent: the message's JSON text, or its encryption.
    let wire: String
    /// `PercentEncoding.escape` of the channel's name.
    let escapedChannel: String
    /// `PercentEncoding.escape(wire)`.
    let escapedMessage: String

    init(channel: String, wire: String) {
        self.wire = wire
        self.escapedChannel = PercentEncoding.escape(channel)
        self.escapedMessage = PercentEncoding.escape(wire)
    }

    /// GET while the escaped message fits in the URL (`ClientEngine.postThreshold`), POST above.
    var method: Endpoint.PublishMethod {
        self.escapedMessage.utf8.count > ClientEngine.postThreshold ? .post : .get
    }

    /// docs/PROTOCOL.md §1.8: the escaped channel plus the message (GET: escaped; POST: the body's bytes).
    var size: Int {
        self.escapedChannel.utf8.count + (self.method == .get ? self.escapedMessage.utf8.count : self.wire.utf8.count)
    }
}
