/// Target `origin-json`: LocalOrigin's JSON parser (`JSONParser`), which reads every published message, `meta`
/// and presence state. Whatever it accepts must survive the origin's own writer: parse → write → parse gives the
/// same value, and writing again gives the same bytes. The validator the publish path uses (`JSONValidator`) must
/// give the parser's verdict on every input.
///
/// Input: one mode byte (even: the rest is the text as it is; odd: the rest steers `FuzzJSONText`, which always
/// builds valid JSON — that text must parse).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOriginJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    let built = input.byte() & 1 == 1
    let text: [UInt8]
    if built {
        var builder = FuzzJSONText()
        builder.value(&input)
        text = Array(builder.text.utf8)
    } else {
        text = input.rest()
    }
    let parsed = OriginEntryPoints.parseJSON(text)
    fuzzInvariant(
        OriginEntryPoints.isValidJSON(text) == (parsed != nil),
        "validator and parser disagree (parser \(parsed != nil)) on \(text)"
    )
    guard let value = parsed else {
        fuzzInvariant(!built, "valid JSON refused: \(String(decoding: text, as: UTF8.self))")
        return 0
    }
    let written = OriginEntryPoints.serialize(value)
    let reparsed = OriginEntryPoints.parseJSON(written)
    fuzzInvariant(reparsed == value, "round trip changed \(value) into \(String(describing: reparsed))")
    fuzzInvariant(OriginEntryPoints.serialize(value) == written, "writing is not deterministic")
    return 0
}
