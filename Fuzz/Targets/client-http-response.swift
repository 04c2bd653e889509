/// Target `client-http-response`: the client's HTTP/1.x response reader (status line, headers, Content-Length,
/// chunked and close-delimited bodies, interim 1xx answers), fed one byte stream twice — whole, and cut into the
/// pieces the input chooses, as `recv` may deliver it. Both must read the same response or fail the same way, and a
/// body never exceeds the reader's limit.
///
/// Input: one control byte (bit 7: small limits; bit 6: the stream ends after the bytes; bits 0–2: how many
/// split-size bytes follow), the split sizes, then the bytes the origin sent.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientHTTPResponse(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    let control = input.byte()
    let small = control & 0x80 != 0
    let endOfStream = control & 0x40 != 0
    let sizes = input.take(Int(control & 0x07))
    let stream = input.rest()
    let whole = ClientEntryPoints.readResponse([stream[...]], small: small, endOfStream: endOfStream)
    let pieces = FuzzBytes.split(stream, sizes: sizes, maximum: 32)
    let split = ClientEntryPoints.readResponse(pieces, small: small, endOfStream: endOfStream)
    fuzzInvariant(whole == split, "whole \(whole) != split \(split)")
    if case .response(let status, let body, _) = whole {
        fuzzInvariant((200...999).contains(status), "interim or impossible status \(status) delivered")
        fuzzInvariant(body.count <= ClientEntryPoints.readerLimits(small: small).body, "body over the limit")
    }
    return 0
}
