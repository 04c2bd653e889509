import Foundation

/// Target `client-arguments`: the validation every public call applies to what the user passes — channel names,
/// message payloads (Swift and Foundation values: NaN and infinite numbers, strings bridged from `NSString` with lone
/// UTF-16 surrogates, dates, data, deep and cyclic `NSMutableArray`/`NSMutableDictionary`), uuids, auth keys and the
/// origin setting. Validation must never crash; whatever it lets through must build a request URL, and a message it
/// accepts must be JSON text that Foundation reads back.
///
/// Input: selector byte, then 0: a channel name, a uuid and an auth key (UTF-8 or, with the next byte odd, UTF-16
/// through `NSString`), each up to a 0 byte; 1: a message string; 2: a message value built by `FuzzValue`;
/// 3: an origin setting.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzBytes(data, size)
    switch input.choice(4) {
    case 0:
        let utf16 = input.flag()
        let channel = fuzzString(input.field(), utf16: utf16)
        let uuid = fuzzString(input.field(), utf16: utf16)
        let authKey = fuzzString(input.field(), utf16: utf16)
        guard ClientEntryPoints.channelError(channel) == nil else { return 0 }
        for url in ClientEntryPoints.requestURLs(channel: channel, message: "1", uuid: uuid, authKey: authKey) {
            fuzzInvariant(url != nil, "no URL for channel \(Array(channel.utf8)) uuid \(uuid) auth \(authKey)")
        }
    case 1:
        checkMessage(fuzzString(input.rest(), utf16: false))
    case 2:
        var builder = FuzzValue()
        checkMessage(builder.value(&input, depth: 8))
        builder.breakCycles()
    default:
        let origin = String(decoding: input.rest(), as: UTF8.self)
        if ClientEntryPoints.originParts(origin) != nil {
            fuzzInvariant(ClientEntryPoints.timeURL(origin: origin) != nil, "accepted origin \(origin) has no URL")
        }
    }
    return 0
}

/// `bytes` as UTF-8 (invalid sequences repaired, as Swift decodes them) or as UTF-16 code units bridged from an
/// `NSString` (lone surrogates allowed there).
private func fuzzString(_ bytes: [UInt8], utf16: Bool) -> String {
    guard utf16 else { return String(decoding: bytes, as: UTF8.self) }
    var units: [unichar] = []
    var index = 0
    while index + 1 < bytes.count {
        units.append(unichar(bytes[index]) << 8 | unichar(bytes[index + 1]))
        index += 2
    }
    return NSString(characters: units, length: units.count) as String
}

/// A message either fails with a message code or becomes JSON that builds a request and that Foundation reads back.
private func checkMessage(_ message: Any?) {
    switch ClientEntryPoints.messageText(message) {
    case .failure(let error):
        fuzzInvariant([110, 121, 122].contains(error.code), "message refused with code \(error.code)")
    case .success(let text):
        fuzzInvariant(
            (try? JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed)) != nil,
            "accepted message is not JSON: \(text)"
        )
        for url in ClientEntryPoints.requestURLs(channel: "c", message: text, uuid: "u", authKey: "") {
            fuzzInvariant(url != nil, "no URL for message \(text)")
        }
    }
}

/// Builds message values from fuzz bytes: every kind of value a ported app could hand to `sendMessage`, including
/// ones JSON cannot express and containers that contain themselves.
struct FuzzValue {
    /// Mutable containers made so far, so cycles can be closed (and broken again after the check, so the run does
    /// not leak them).
    private var containers: [AnyObject] = []

    mutating func value(_ input: inout FuzzBytes, depth: Int) -> Any? {
        let kind = depth <= 0 ? input.choice(14) : input.choice(20)
        switch kind {
        case 0: return nil
        case 1: return NSNull()
        case 2: return input.flag()
        case 3: return Int(Int8(bitPattern: input.byte()))
        case 4: return [Double.nan, .infinity, -.infinity, 0.1, -0.0, 1e308, .leastNonzeroMagnitude][input.choice(7)]
        case 5: return NSNumber(value: [Double.nan, .infinity, 1.5][input.choice(3)])
        case 6: return NSNumber(value: input.flag())
        case 7: return UInt64.max - UInt64(input.byte())
        case 8: return Decimal(string: "1e\(Int(Int8(bitPattern: input.byte())))") ?? Decimal(1)
        case 9: return fuzzString(input.take(input.choice(16)), utf16: false)
        case 10: return fuzzString(input.take(input.choice(16)), utf16: true) as NSString
        case 11: return Date(timeIntervalSince1970: Double(input.byte()))
        case 12: return Data(input.take(4))
        case 13: return Float(input.byte()) / 3
        case 14, 15:
            var array: [Any] = []
            for _ in 0..<input.choice(4) { array.append(self.value(&input, depth: depth - 1) as Any) }
            return array
        case 16:
            var dictionary: [String: Any] = [:]
            for _ in 0..<input.choice(4) {
                dictionary[fuzzString(input.take(input.choice(4)), utf16: false)] =
                    self.value(&input, depth: depth - 1) as Any
            }
            return dictionary
        case 17:
            let array = NSMutableArray()
            self.containers.append(array)
            for _ in 0..<input.choice(4) { array.add(self.value(&input, depth: depth - 1) ?? NSNull()) }
            return array
        case 18:
            let dictionary = NSMutableDictionary()
            self.containers.append(dictionary)
            for _ in 0..<input.choice(4) {
                // Keys that are not strings, too: JSON cannot express them.
                let key: AnyHashable =
                    input.flag()
                    ? NSNumber(value: input.byte()) : NSString(string: fuzzString(input.take(3), utf16: false))
                dictionary.setObject(self.value(&input, depth: depth - 1) ?? NSNull(), forKey: key)
            }
            return dictionary
        default:
            // A container made earlier: inside itself, or shared between branches.
            guard !self.containers.isEmpty else { return [Any]() }
            return self.containers[input.choice(self.containers.count)]
        }
    }

    /// Empties every mutable container, so reference cycles do not outlive the input.
    func breakCycles() {
        for container in self.containers {
            (container as? NSMutableArray)?.removeAllObjects()
            (container as? NSMutableDictionary)?.removeAllObjects()
        }
    }
}
