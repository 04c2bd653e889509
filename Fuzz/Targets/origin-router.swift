/// Target `origin-router`: LocalOrigin's request routing and every endpoint behind it — request-target splitting,
/// percent-decoding, keys, channel lists, query parameters, published JSON in paths and bodies — through a fresh
/// origin store per input. Every answer the origin writes must be JSON (or JSONP around JSON) with a real status, and
/// every request-target must split and decode (on demand) as split by `Character` and decoded all at once.
///
/// Input: up to 16 requests, one per line (`\n`). A line's first byte picks the method (`G` GET, `P` POST, `D`
/// DELETE, anything else GET); the rest is the request-target (bytes the HTTP parser would refuse there are dropped), optionally followed by a tab and the body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOriginRouter(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    var requests: [OriginEntryPoints.RoutedRequest] = []
    while !input.isAtEnd && requests.count < 16 {
        var line = FuzzBytes(input.field(separator: UInt8(ascii: "\n")))
        let method: String
        switch line.byte() {
        case UInt8(ascii: "P"): method = "POST"
        case UInt8(ascii: "D"): method = "DELETE"
        default: method = "GET"
        }
        let target = OriginEntryPoints.requestTarget(line.field(separator: UInt8(ascii: "\t")))
        let disagreement = OriginEntryPoints.requestTargetDisagreement(target)
        fuzzInvariant(disagreement == nil, "request target \(target): \(disagreement ?? "")")
        requests.append(OriginEntryPoints.RoutedRequest(method: method, target: target, body: line.rest()))
    }
    for answer in OriginEntryPoints.route(requests) {
        fuzzInvariant((200...599).contains(answer.status), "status \(answer.status)")
        fuzzInvariant(
            OriginEntryPoints.isJSONOrJSONP(answer.body),
            "answer is not JSON: \(String(decoding: answer.body, as: UTF8.self))"
        )
    }
    return 0
}
