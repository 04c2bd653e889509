// What `%@` and the other conversions of a 3.4 `PNLog`/`NSLog` format print, reproduced in Swift so ported log
// calls format the same on every platform. Foundation's `String(format:)` cannot do it on Linux: there `%@` takes
// only the few types that conform to `CVarArg`, not `NSObject`s, arrays or optionals. So the format string is
// parsed here; every numeric conversion is still printed by `String(format:)`, one conversion at a time, with a
// value converted to the C type the conversion names.

import Foundation

/// `format` with its conversions replaced by `arguments`, as `NSLog`/`+stringWithFormat:` would print them.
///
/// `%@` prints an object's description (`nil` as `(null)`; arrays and dictionaries in the property-list style of
/// `NSArray`/`NSDictionary`); `%d`, `%i`, `%u`, `%x`, `%o`, `%f`, `%e`, `%g`, `%c`, `%s`, `%p` (with flags, width,
/// precision and length modifiers) print the argument converted to the C type they name; `%%` prints `%`. Extra
/// arguments are ignored and missing ones print as `(null)` or 0, where C would read garbage.
func formatLogMessage(_ format: String, _ arguments: [Any?]) -> String {
    var output = ""
    var remaining = arguments[...]
    var characters = format[...]
    func nextArgument() -> Any? {
        remaining.popFirst() ?? nil
    }
    while let character = characters.popFirst() {
        guard character == "%" else {
            output.append(character)
            continue
        }
        var spec = LogConversion()
        guard spec.parse(&characters, starArgument: { intValue(of: nextArgument()) }) else {
            output.append("%")  // a lone `%` at the end, or an unknown conversion: printed as written
            output += spec.text
            continue
        }
        output += spec.render(spec.conversion == "%" ? nil : nextArgument())
    }
    return output
}

/// One parsed `%…` conversion: flags, width, precision, length modifier and conversion character.
private struct LogConversion {
    var flags = ""
    var width: Int?
    var precision: Int?
    var length = ""
    var conversion: Character = "@"
    /// What was read after the `%`, for conversions that are printed as written.
    var text = ""

    private static let flagCharacters: Set<Character> = ["-", "+", " ", "#", "0", "'"]
    private static let lengthCharacters: Set<Character> = ["h", "l", "q", "L", "z", "t", "j"]
    private static let conversions: Set<Character> = [
        "@", "d", "D", "i", "u", "U", "x", "X", "o", "O", "f", "F", "e", "E", "g", "G", "a", "A", "c", "C", "s",
        "S", "p", "%",
    ]

    /// Reads the conversion after a `%`; false (with `text` set) when it is not one.
    mutating func parse(_ characters: inout Substring, starArgument: () -> Int) -> Bool {
        while let next = characters.first, Self.flagCharacters.contains(next) {
            self.flags.append(next)
            self.text.append(characters.removeFirst())
        }
        self.width = Self.number(&characters, text: &self.text, starArgument: starArgument)
        if characters.first == "." {
            self.text.append(characters.removeFirst())
            self.precision = Self.number(&characters, text: &self.text, starArgument: starArgument) ?? 0
        }
        while let next = characters.first, Self.lengthCharacters.contains(next) {
            self.length.append(next)
            self.text.append(characters.removeFirst())
        }
        guard let next = characters.first, Self.conversions.contains(next) else {
            return false
        }
        self.conversion = characters.removeFirst()
        return true
    }

    private static func number(_ characters: inout Substring, text: inout String, starArgument: () -> Int) -> Int? {
        if characters.first == "*" {
            text.append(characters.removeFirst())
            return starArgument()
        }
        var digits = ""
        while let next = characters.first, next.isASCII, next.isNumber {
            digits.append(characters.removeFirst())
        }
        text += digits
        return digits.isEmpty ? nil : Int(digits)
    }

    /// The printf spec without length modifier, for `String(format:)` with a 64-bit or `Double` value.
    private func cSpec(_ conversion: String) -> String {
        var spec = "%" + self.flags
        if let width = self.width { spec += String(width) }
        if let precision = self.precision { spec += "." + String(precision) }
        return spec + conversion
    }

    func render(_ argument: Any?) -> String {
        switch self.conversion {
        case "%":
            return "%"
        case "d", "D", "i":
            return String(format: self.cSpec("lld"), Int64(truncatingIfNeeded: intValue(of: argument)))
        case "u", "U", "x", "X", "o", "O":
            let conversion = self.conversion == "U" ? "u" : self.conversion == "O" ? "o" : String(self.conversion)
            return String(format: self.cSpec("ll" + conversion), UInt64(truncatingIfNeeded: intValue(of: argument)))
        case "f", "F", "e", "E", "g", "G", "a", "A":
            return String(format: self.cSpec(String(self.conversion)), doubleValue(of: argument))
        case "c", "C":
            let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: intValue(of: argument))) ?? " "
            return self.padded(String(Character(scalar)))
        case "p":
            return self.padded(unwrappedValue(argument).map(pointerText) ?? "0x0")
        case "s", "S":
            return self.padded(self.truncated(unwrappedValue(argument).map { "\($0)" } ?? "(null)"))
        default:
            return self.padded(self.truncated(objectDescription(argument)))
        }
    }

    private func truncated(_ text: String) -> String {
        self.precision.map { String(text.prefix($0)) } ?? text
    }

    private func padded(_ text: String) -> String {
        guard let width = self.width, text.count < width else {
            return text
        }
        let padding = String(repeating: " ", count: width - text.count)
        return self.flags.contains("-") ? text + padding : padding + text
    }
}

/// `%@` of a value: `(null)` for nil, strings as they are, arrays and dictionaries as `NSArray`/`NSDictionary`
/// print them on Apple platforms (one element per line, indented, quoted when not a plain word), any other value
/// by its `description`.
func objectDescription(_ value: Any?) -> String {
    describe(value, indent: 0)
}

private func describe(_ value: Any?, indent: Int) -> String {
    guard let value = unwrappedValue(value) else {
        return "(null)"
    }
    let pad = String(repeating: "    ", count: indent)
    switch value {
    case let string as String:
        return string
    case let bool as Bool:
        return bool ? "1" : "0"
    case let array as [Any?]:
        guard !array.isEmpty else { return "(\n\(pad))" }
        let items = array.map { "\(pad)    " + quotedIfNeeded(describe($0, indent: indent + 1), $0) }
        return "(\n" + items.joined(separator: ",\n") + "\n\(pad))"
    case let set as Set<AnyHashable>:
        return describe(Array(set).sorted { "\($0)" < "\($1)" } as [Any?], indent: indent)
    case let dictionary as [AnyHashable: Any?]:
        let entries = dictionary.map { (key: describe($0.key.base, indent: indent + 1), value: $0.value) }
            .sorted { $0.key < $1.key }
            .map { entry -> String in
                let value = quotedIfNeeded(describe(entry.value, indent: indent + 1), entry.value)
                return "\(pad)    \(quotedIfNeeded(entry.key, entry.key)) = \(value);"
            }
        return "{\n" + entries.map { $0 + "\n" }.joined() + "\(pad)}"
    case let array as NSArray:
        return describe(array.map { $0 } as [Any?], indent: indent)
    case let dictionary as NSDictionary:
        var converted: [AnyHashable: Any?] = [:]
        for (key, element) in dictionary {
            converted[key as? AnyHashable ?? AnyHashable("\(key)")] = element
        }
        return describe(converted, indent: indent)
    default:
        return String(describing: value)
    }
}

/// An element of an array or dictionary description in quotes, as Apple's property-list style writes strings
/// (and descriptions) that are not a plain word or number.
private func quotedIfNeeded(_ text: String, _ element: Any?) -> String {
    if let element = unwrappedValue(element), element is [Any?] || element is [AnyHashable: Any?] {
        return text
    }
    let plain = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "_$.:/"))
    guard text.isEmpty || text.unicodeScalars.contains(where: { !plain.contains($0) }) else {
        return text
    }
    return "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        + "\""
}

/// `value` with any levels of `Optional` removed; nil when one of them is empty.
private func unwrappedValue(_ value: Any?) -> Any? {
    guard let value else {
        return nil
    }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else {
        return value
    }
    return mirror.children.first.flatMap { unwrappedValue($0.value) }
}

private func pointerText(_ value: Any) -> String {
    type(of: value) is AnyClass ? pointerDescription(value as AnyObject) : "0x0"
}

private func intValue(of argument: Any?) -> Int {
    switch unwrappedValue(argument) {
    case let value as Int: return value
    case let value as Bool: return value ? 1 : 0
    case let value as any BinaryInteger: return Int(truncatingIfNeeded: value)
    case let value as Double: return value.isFinite ? Int(exactly: value.rounded(.towardZero)) ?? 0 : 0
    case let value as NSNumber: return value.intValue
    case let value as String: return Int(value) ?? 0
    default: return 0
    }
}

private func doubleValue(of argument: Any?) -> Double {
    switch unwrappedValue(argument) {
    case let value as Double: return value
    case let value as Float: return Double(value)
    case let value as any BinaryInteger: return Double(value)
    case let value as NSNumber: return value.doubleValue
    case let value as String: return Double(value) ?? 0
    default: return 0
    }
}
