// Builds JSON text from fuzz bytes, so the harnesses of JSON-reading code spend their time past the JSON decoder
// (which the fuzzer cannot see into: Foundation is not instrumented). The vocabulary holds the keys and values of
// PubNub answers plus the values that tempt type confusion: booleans, floats, negatives, numbers past UInt64.max,
// numeric strings.

/// Emits one JSON value per call, steered by the input; the text is always valid JSON.
struct FuzzJSONText {
    /// Object keys of PubNub answers and error payloads.
    static let keys = [
        "t", "r", "m", "c", "b", "d", "p", "i", "k", "f", "e", "a", "uuids", "uuid", "occupancy", "payload",
        "channels", "total_occupancy", "total_channels", "status", "error", "message", "service", "action",
        "timestamp", "state", "data", "timetoken", "meta", "",
    ]
    /// Number texts: ordinary, boundary and confusing.
    static let numbers = [
        "0", "1", "2", "-1", "-0", "1.0", "1.5", "1e3", "1E+2", "0.5e-1", "100", "255", "4294967296",
        "9007199254740993", "17000000000000000", "9223372036854775807", "9223372036854775808",
        "18446744073709551615", "18446744073709551616", "99999999999999999999999", "-9223372036854775809",
        "1e308", "1e400", "-1e400", "123456789012345678901234567890",
    ]
    /// String contents (without quotes, already escaped for JSON).
    static let strings = [
        "", "Sent", "OK", "a", "chat", "chat-pnpres", "17000000000000000", "-1", "1.5", "true", "null", "0x10",
        "18446744073709551616", "join", "leave", "timeout", "Invalid Key", "Forbidden", "\\u0000", "\\ud800",
        "\\udc00x", "\\u00e9", "é", "😀", "\\\"", "a,b", "a/b", " ", "PNED",
    ]

    private(set) var text = ""
    private var budget: Int

    /// `budget` caps the number of values one build emits, so a short input cannot ask for a huge text.
    init(budget: Int = 200) {
        self.budget = budget
    }

    /// Appends one value read from `input`, nesting at most `depth` more levels.
    mutating func value(_ input: inout FuzzBytes, depth: Int = 6) {
        self.budget -= 1
        let kind = self.budget <= 0 || depth <= 0 ? input.choice(6) : input.choice(9)
        switch kind {
        case 0: self.text += "true"
        case 1: self.text += "false"
        case 2: self.text += "null"
        case 3: self.text += Self.numbers[input.choice(Self.numbers.count)]
        case 4: self.text += "\"" + Self.strings[input.choice(Self.strings.count)] + "\""
        case 5: self.string(&input)
        case 6, 7: self.object(&input, depth: depth)
        default: self.array(&input, depth: depth)
        }
    }

    /// A string of raw input bytes: printable ASCII kept, others written as `\u00XX` escapes.
    private mutating func string(_ input: inout FuzzBytes) {
        let count = input.choice(12)
        self.text += "\""
        for byte in input.take(count) {
            if byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\") {
                self.text.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                self.text += "\\u00" + String(byte, radix: 16, uppercase: false).leftPadded(to: 2)
            }
        }
        self.text += "\""
    }

    private mutating func object(_ input: inout FuzzBytes, depth: Int) {
        let count = input.choice(5)
        self.text += "{"
        for member in 0..<count {
            if member > 0 { self.text += "," }
            self.text += "\"" + Self.keys[input.choice(Self.keys.count)] + "\":"
            self.value(&input, depth: depth - 1)
        }
        self.text += "}"
    }

    private mutating func array(_ input: inout FuzzBytes, depth: Int) {
        let count = input.choice(5)
        self.text += "["
        for element in 0..<count {
            if element > 0 { self.text += "," }
            self.value(&input, depth: depth - 1)
        }
        self.text += "]"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - self.count)) + self
    }
}
