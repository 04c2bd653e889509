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
        out.append(contentsOf: #"{"t":{"t":""#.utf8)
        HTTPResponse.appendDecimal(cursor, to: &out)
        out.append(contentsOf: #"","r":"#.utf8)
        HTTPResponse.appendDecimal(OriginStore.region, to: &out)
        out.append(contentsOf: #"},"m":["#.utf8)
        for (index, item) in items.enumerated() {
            let message = item.message
            out.append(contentsOf: (index == 0 ? #"{"a":"1","f":0"# : #",{"a":"1","f":0"#).utf8)
            if let publisher = message.publisher {
                out.append(contentsOf: #","i":"#.utf8)
                JSONValue.writeString(publisher, into: &out)
            }
            if let type = message.extras.customType {
                out.append(contentsOf: #","cmt":"#.utf8)
                JSONValue.writeString(type, into: &out)
            }
            if let sequence = message.extras.sequence {
                out.append(contentsOf: #","s":"#.utf8)
                out.append(contentsOf: String(sequence).utf8)
            }
            if let originator = message.extras.originator {
                out.append(contentsOf: #","o":"#.utf8)
                out.append(contentsOf: originator.serializedBytes)
            }
            out.append(contentsOf: #","p":{"t":""#.utf8)
            HTTPResponse.appendDecimal(message.timetoken, to: &out)
            out.append(contentsOf: #"","r":"#.utf8)
            HTTPResponse.appendDecimal(OriginStore.region, to: &out)
            out.append(contentsOf: #"},"k":"#.utf8)
            out.append(contentsOf: key)
            out.append(contentsOf: #","c":"#.utf8)
            JSONValue.writeString(message.channel, into: &out)
            out.append(contentsOf: #","d":"#.utf8)
            out.append(contentsOf: message.payload.utf8)
            if namesSeveral || !item.direct {
                out.append(contentsOf: #","b":"#.utf8)
                JSONValue.writeString(item.match, into: &out)
            }
            if let meta = message.meta {
                out.append(contentsOf: #","u":"#.utf8)
                out.append(contentsOf: meta.utf8)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]}".utf8)
        return .written(out)
    }
}
