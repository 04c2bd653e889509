import Foundation

// Whether the decoder is used is found out, not assumed per platform: the facts in `JSONPayloadDecoder.swift` were
// found on swift-corelibs-foundation, and Apple's `JSONSerialization` is another implementation that returns its own
// `NSDictionary`, `NSArray` and `NSString` subclasses. At its first use the decoder decodes a probe text holding every
// kind it builds, `JSONSerialization` decodes the same text, and the decoder is used only when the two values are the
// same at every node — so a Foundation that builds other values than the ones this file was written against turns the
// decoder off instead of changing what applications receive.

extension JSONPayloadDecoder {
    /// True when this process's `JSONSerialization` builds exactly the decoder's values for the probe text. Decided
    /// once, at the first use, from any thread.
    static let isEnabled: Bool = {
        let bytes = Array(Self.probeText.utf8)
        guard let own = bytes.withUnsafeBytes({ Self.decodeSubset($0) }),
            let foundation = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
        else { return false }
        return Self.same(own, foundation)
    }()

    /// Every kind of value the decoder builds: objects (empty too), arrays, strings with escapes and non-ASCII text,
    /// integers in and out of corelibs' cached small range, reals, both Booleans and null.
    static let probeText = #"""
        {"o":{"a":[0,-1,12,13,-2,1234567890123,-123456789012345678,1.5,-0.0,1e-3,2.0],"s":"a\u00e9\n\"é😀"},
        "b":[true,false,null],"e":[],"d":{}}
        """#

    /// Whether `a` and `b` are the same value: the same dynamic type at every node, numbers of the same `objCType`
    /// and value (the same bits for reals; the same object for Booleans), strings of the same Unicode scalars, the
    /// same keys.
    static func same(_ a: Any, _ b: Any) -> Bool {
        guard type(of: a) == type(of: b) else { return false }
        switch (a, b) {
        case (let a as [String: Any], let b as [String: Any]):
            return a.count == b.count && a.allSatisfy { key, value in b[key].map { Self.same(value, $0) } ?? false }
        case (let a as [Any], let b as [Any]):
            return a.count == b.count && zip(a, b).allSatisfy { Self.same($0, $1) }
        case (let a as String, let b as String):
            return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (let a as NSNumber, let b as NSNumber):
            let isBoolean = a === NSNumber(value: true) || a === NSNumber(value: false)
            guard String(cString: a.objCType) == String(cString: b.objCType) else { return false }
            if isBoolean { return a === b }
            return a.int64Value == b.int64Value && a.doubleValue.bitPattern == b.doubleValue.bitPattern
        case (is NSNull, is NSNull):
            return true
        default:
            return false
        }
    }
}
