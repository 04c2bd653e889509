import Foundation

/// Target `client-decrypt`: the cipher's decrypt path — base64 → AES-CBC → PKCS#7 → UTF-8 → JSON, in the three
/// schemes, with and without the `PNED` cryptor header — on hostile payloads, plus round trips that must hold: a
/// message the client encrypts (its JSON text) decrypts to the same value, and a current SDK's header payload of any
/// text decrypts to that text.
///
/// Input: control byte (bits 0–1: scheme, 0 standard, 1 the 3.3 scheme, 2 random IV; bit 2: refuse the other IV
/// layout; bits 3–5: path), the cipher key up to a 0 byte, then the path's bytes:
///   0: the rest as a received string value      1: the rest base64-encoded (reaches AES and padding)
///   2: "PNED" + the rest, base64-encoded         3: a JSON wire value built by `FuzzJSONText` (3.3 structures)
///   4: round trip of a JSON message built by `FuzzJSONText`
///   5: round trip of a header payload: 16 IV bytes, then the plaintext
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientDecrypt(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    let control = input.byte()
    let key = String(decoding: input.field().prefix(64), as: UTF8.self)
    let cipher = ClientEntryPoints.Cipher(
        key: key,
        mode: Int(control & 0x03),
        acceptsEitherIVLayout: control & 0x04 == 0
    )
    switch (control >> 3) & 0x07 {
    case 0:
        _ = cipher.decrypt(wireValue: String(decoding: input.rest(), as: UTF8.self))
    case 1:
        _ = cipher.decrypt(wireValue: ClientEntryPoints.base64(input.rest()))
    case 2:
        _ = cipher.decrypt(wireValue: ClientEntryPoints.base64(Array("PNED".utf8) + input.rest()))
    case 3:
        var builder = FuzzJSONText()
        builder.value(&input)
        if let wire = try? JSONSerialization.jsonObject(with: Data(builder.text.utf8), options: .fragmentsAllowed) {
            _ = cipher.decrypt(wireValue: wire)
        }
    case 4:
        var builder = FuzzJSONText()
        builder.value(&input)
        checkRoundTrip(of: builder.text, with: cipher)
    default:
        let iv = input.take(16)
        guard iv.count == 16 else { return 0 }
        let plaintext = input.rest()
        let text = String(validating: plaintext, as: UTF8.self)
        let decrypted = cipher.decryptPayload(cipher.encryptWithCryptorHeader(plaintext, iv: iv))
        fuzzInvariant(decrypted == text, "header payload of \(plaintext) decrypted to \(String(describing: decrypted))")
    }
    return 0
}

/// Encrypts `json` as a publish does and decrypts what went on the wire as a subscriber does: same value.
private func checkRoundTrip(of json: String, with cipher: ClientEntryPoints.Cipher) {
    // Only JSON the client itself would send: Foundation must read it (it refuses lone surrogate escapes).
    guard let original = try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed),
        let wireText = cipher.encrypt(messageJSONText: json)
    else { return }
    guard let wire = try? JSONSerialization.jsonObject(with: Data(wireText.utf8), options: .fragmentsAllowed) else {
        fuzzInvariant(false, "encrypted wire text is not JSON: \(wireText)")
        return
    }
    let decrypted = cipher.decrypt(wireValue: wire)
    fuzzInvariant(decrypted != nil, "\(json) encrypted to \(wireText), which does not decrypt")
    fuzzInvariant(
        canonical(decrypted) == canonical(original),
        "\(json) came back as \(String(describing: decrypted))"
    )
}

/// Sorted-key JSON text of a value, for comparing decoded values.
private func canonical(_ value: Any?) -> String? {
    guard let value,
        let data = try? JSONSerialization.data(withJSONObject: [value], options: [.sortedKeys, .fragmentsAllowed])
    else { return nil }
    return String(decoding: data, as: UTF8.self)
}
