import Foundation

@testable import PubNubLegacy

/// Compact JSON text (as `JSONSerialization` and `JSONFragmentEncoder` write it) cut into its structure, scalars kept
/// as written, for comparing two texts whose objects may list their keys in different orders.
indirect enum JSONTextShape: Equatable {
    /// A string, number, `true`, `false` or `null`, exactly as written (a string with its quotes and escapes).
    case scalar(String)
    case array([JSONTextShape])
    /// Keys as written (quotes and escapes included), in the text's order.
    case object([(key: String, value: JSONTextShape)])

    static func == (lhs: JSONTextShape, rhs: JSONTextShape) -> Bool {
        switch (lhs, rhs) {
        case (.scalar(let a), .scalar(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    /// The structure of `text`; nil when it is not compact JSON.
    init?(_ text: String) {
        var reader = Reader(bytes: Array(text.utf8))
        guard let shape = reader.value(), reader.index == reader.bytes.count else {
            return nil
        }
        self = shape
    }

    /// Whether `other` is this text with the keys of some objects in another order, and only of objects whose key
    /// set `JSONFragmentEncoder.KeyOrder.isOrdered` says Foundation's comparison does not order. `reordered` counts
    /// such objects whose order differed.
    func matches(_ other: JSONTextShape, reordered: inout Int) -> Bool {
        switch (self, other) {
        case (.scalar(let a), .scalar(let b)):
            return a == b
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.matches($1, reordered: &reordered) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else {
                return false
            }
            if a.map(\.key) == b.map(\.key) {
                return zip(a, b).allSatisfy { $0.value.matches($1.value, reordered: &reordered) }
            }
            let keys = a.map { Self.decodedKey($0.key) }
            guard !JSONTextShape.isOrdered(keys) else {
                return false
            }
            reordered += 1
            let others = Dictionary(b.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            return a.allSatisfy { entry in
                others[entry.key].map { entry.value.matches($0, reordered: &reordered) } ?? false
            }
        default:
            return false
        }
    }

    /// Whether Foundation's key comparison (the one corelibs' `.sortedKeys` uses) is a strict total order on `keys`:
    /// then exactly one order of them is sorted, whatever order a sort starts from.
    static func isOrdered(_ keys: [String]) -> Bool {
        let precedes = JSONFragmentEncoder.KeyOrder.foundationPrecedes
        for a in keys {
            for b in keys where a != b {
                guard precedes(a, b) != precedes(b, a) else {
                    return false
                }
                for c in keys where c != a && c != b && precedes(a, b) && precedes(b, c) {
                    guard precedes(a, c) else {
                        return false
                    }
                }
            }
        }
        return true
    }

    private static func decodedKey(_ written: String) -> String {
        (try? JSONSerialization.jsonObject(with: Data(written.utf8), options: [.fragmentsAllowed])) as? String ?? ""
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func value() -> JSONTextShape? {
            guard self.index < self.bytes.count else {
                return nil
            }
            switch self.bytes[self.index] {
            case UInt8(ascii: "["):
                self.index += 1
                var elements: [JSONTextShape] = []
                while self.index < self.bytes.count, self.bytes[self.index] != UInt8(ascii: "]") {
                    if !elements.isEmpty {
                        guard self.skip(",") else { return nil }
                    }
                    guard let element = self.value() else { return nil }
                    elements.append(element)
                }
                return self.skip("]") ? .array(elements) : nil
            case UInt8(ascii: "{"):
                self.index += 1
                var entries: [(key: String, value: JSONTextShape)] = []
                while self.index < self.bytes.count, self.bytes[self.index] != UInt8(ascii: "}") {
                    if !entries.isEmpty {
                        guard self.skip(",") else { return nil }
                    }
                    guard let key = self.string(), self.skip(":"), let value = self.value() else { return nil }
                    entries.append((key, value))
                }
                return self.skip("}") ? .object(entries) : nil
            case UInt8(ascii: "\""):
                return self.string().map { .scalar($0) }
            default:
                let start = self.index
                while self.index < self.bytes.count, !",]}:".utf8.contains(self.bytes[self.index]) {
                    self.index += 1
                }
                return start < self.index
                    ? .scalar(String(decoding: self.bytes[start..<self.index], as: UTF8.self)) : nil
            }
        }

        /// A string as written, quotes included.
        mutating func string() -> String? {
            let start = self.index
            guard self.skip("\"") else { return nil }
            while self.index < self.bytes.count, self.bytes[self.index] != UInt8(ascii: "\"") {
                self.index += self.bytes[self.index] == UInt8(ascii: "\\") ? 2 : 1
            }
            guard self.skip("\"") else { return nil }
            return String(decoding: self.bytes[start..<self.index], as: UTF8.self)
        }

        mutating func skip(_ character: Unicode.Scalar) -> Bool {
            guard self.index < self.bytes.count, self.bytes[self.index] == UInt8(ascii: character) else {
                return false
            }
            self.index += 1
            return true
        }
    }
}
