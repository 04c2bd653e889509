/// Target `origin-http-parser`: LocalOrigin's HTTP/1.1 request parser (`HTTPParser`), fed one byte stream twice —
/// whole, and cut into pieces the input chooses — like a connection that receives pipelined requests. Both runs must
/// see the same requests and the same refusal: the parser resumes where it stopped, so a split must not change what
/// it accepts.
///
/// Input: one control byte (bit 7: small limits; bits 0–2: how many split-size bytes follow), the split sizes, then
/// the bytes of the stream.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOriginHTTPParser(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    let control = input.byte()
    let limits = OriginEntryPoints.limits(small: control & 0x80 != 0)
    let sizes = input.take(Int(control & 0x07))
    let stream = input.rest()
    let whole = OriginEntryPoints.parseStream([stream[...]], limits: limits)
    let split = OriginEntryPoints.parseStream(FuzzBytes.split(stream, sizes: sizes, maximum: 64), limits: limits)
    fuzzInvariant(whole == split, "whole \(whole) != split \(split)")
    return 0
}
