import Foundation

private let statuses = [200, 200, 200, 201, 204, 400, 401, 403, 404, 414, 429, 500, 502, 503, 302, 100]

/// Target `client-responses`: every answer parser of the client behind one selector byte — time, publish, subscribe
/// v2 (with what delivery does to each event: presence-event parsing, or decryption when a cipher key is set),
/// history (decrypted likewise), here-now, the acknowledgement of leave/heartbeat/push changes, the push channel
/// list — and, through all of them, the shared status and error-payload rules. A parser may refuse an answer only
/// with the codes a response failure maps to, and a non-2xx answer is never a success.
///
/// Input: operation byte, status byte (an index into a list of statuses), cipher byte (0: none; else the mode), then
/// a mode byte (even: the rest is the body as it is; odd: the rest steers `FuzzJSONText`, which builds JSON from the
/// keys and confusing values of PubNub answers).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientResponses(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    let operations = ClientEntryPoints.Operation.allCases
    let operation = operations[input.choice(operations.count)]
    let status = statuses[input.choice(statuses.count)]
    let cipherChoice = input.choice(4)
    let cipher =
        cipherChoice == 0
        ? nil : ClientEntryPoints.Cipher(key: "enigma", mode: cipherChoice - 1, acceptsEitherIVLayout: true)
    let body: [UInt8]
    if input.flag() {
        var builder = FuzzJSONText()
        builder.value(&input)
        body = Array(builder.text.utf8)
    } else {
        body = input.rest()
    }
    switch ClientEntryPoints.parse(operation, status: status, body: Data(body), cipher: cipher) {
    case .value(let summary):
        fuzzInvariant((200..<300).contains(status), "\(operation) accepted a \(status) answer: \(summary)")
    case .error(let code, _):
        fuzzInvariant(ClientEntryPoints.responseErrorCodes.contains(code), "\(operation) failed with code \(code)")
    }
    return 0
}
