// The v2 subscribe answer's bytes (docs/PROTOCOL.md §2.3.2), written straight from the stored messages: every
// delivered message passes through here, so no `JSONValue` tree is built per envelope.

extension OriginStore {
    /// `{"t":{"t":"tt","r":R},"m":[envelopes]}` with every key Python requires (docs/PROTOCOL.md §2.3.2), and as
    /// the service sends them: `i` the publisher, `s` / `o` / `cmt` what the publish asked to be echoed, `u` its
    /// `meta`, and `b` the matching subscription — only when the request named several subscriptions or the
    /// message came through a group or a wildcard (even one named like the channel). Keys are written in this
    /// order: `a`, `f`, `i`, `cmt`, `s`, `o`, `p`, `k`, `c`, `d`, `b`, `u`.
    static func v2Body(
        _ items: [Delivery],
        cursor: UInt64,
        subscribeKey: String,
        namesSeveral: Bool
    ) -> JSONValue {
        var key: [UInt8] = []
        JSONValue.writeString(subscribeKey, into: &key)
        var out: [UInt8] = []
        out.reserveCapacity(items.reduce(64) { $0 + 160 + $1.message.payload.utf8.count })
        HTTPResponse.appendUTF8(#"{"t":{"t":""#, to: &out)
        HTTPResponse.appendDecimal(cursor, to: &out)
        HTTPResponse.appendUTF8(#"","r":"#, to: &out)
        HTTPResponse.appendDecimal(OriginStore.region, to: &out)
        HTTPResponse.appendUTF8(#"},"m":["#, to: &out)
        for (index, item) in items.enumerated() {
            let message = item.message
            HTTPResponse.appendUTF8(index == 0 ? #"{"a":"1","f":0"# : #",{"a":"1","f":0"#, to: &out)
            if let publisher = message.publisher {
                HTTPResponse.appendUTF8(#","i":"#, to: &out)
                JSONValue.writeString(publisher, into: &out)
            }
            if let type = message.extras.customType {
                HTTPResponse.appendUTF8(#","cmt":"#, to: &out)
                JSONValue.writeString(type, into: &out)
            }
            if let sequence = message.extras.sequence {
                HTTPResponse.appendUTF8(#","s":"#, to: &out)
                HTTPResponse.appendDecimal(sequence, to: &out)
            }
            if let originator = message.extras.originator {
                HTTPResponse.appendUTF8(#","o":"#, to: &out)
                out.append(contentsOf: originator.serializedBytes)
            }
            HTTPResponse.appendUTF8(#","p":{"t":""#, to: &out)
            HTTPResponse.appendDecimal(message.timetoken, to: &out)
            HTTPResponse.appendUTF8(#"","r":"#, to: &out)
            HTTPResponse.appendDecimal(OriginStore.region, to: &out)
            HTTPResponse.appendUTF8(#"},"k":"#, to: &out)
            out.append(contentsOf: key)
            HTTPResponse.appendUTF8(#","c":"#, to: &out)
            JSONValue.writeString(message.channel, into: &out)
            HTTPResponse.appendUTF8(#","d":"#, to: &out)
            HTTPResponse.appendUTF8(message.payload, to: &out)
            if namesSeveral || !item.direct {
                HTTPResponse.appendUTF8(#","b":"#, to: &out)
                JSONValue.writeString(item.match, into: &out)
            }
            if let meta = message.meta {
                HTTPResponse.appendUTF8(#","u":"#, to: &out)
                HTTPResponse.appendUTF8(meta, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        HTTPResponse.appendUTF8("]}", to: &out)
        return .written(out)
    }
}
