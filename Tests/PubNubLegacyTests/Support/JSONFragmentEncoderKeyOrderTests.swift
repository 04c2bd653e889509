import Foundation
import Testing

@testable import PubNubLegacy

/// `JSONFragmentEncoder.KeyOrder` orders keys as corelibs' `JSONSerialization` does under `.sortedKeys` (a
/// localized, numeric, case-insensitive comparison with forced ordering), answering most pairs without asking
/// Foundation. Checked against Foundation's comparison on every pair of short keys over alphabets that hold each
/// kind of character its fast path knows, and on random keys.
@Suite struct JSONFragmentEncoderKeyOrderTests {
    typealias KeyOrder = JSONFragmentEncoder.KeyOrder

    /// Every string over `alphabet` up to `length` characters, the empty one included.
    static func strings(over alphabet: String, upTo length: Int) -> [String] {
        var all = [""]
        var last = [""]
        for _ in 0..<length {
            last = last.flatMap { prefix in alphabet.map { prefix + String($0) } }
            all += last
        }
        return all
    }

    static func entry(_ key: String) -> KeyOrder.Entry {
        KeyOrder.Entry(key: key, value: 0, plain: KeyOrder.isPlain(key))
    }

    /// KeyOrder's own answer for two plain keys (nil: it would ask Foundation).
    static func quickOrder(_ first: String, _ second: String) -> Bool? {
        Array(first.utf8).withUnsafeBufferPointer { a in
            Array(second.utf8).withUnsafeBufferPointer { b in KeyOrder.quickOrder(a, b) }
        }
    }

    /// KeyOrder's answer, which `checkEveryPair` has shown to be Foundation's.
    static func precedesFast(_ first: String, _ second: String) -> Bool {
        KeyOrder.precedes(Self.entry(first), Self.entry(second))
    }

    /// Checks every ordered pair of distinct keys; returns how many KeyOrder answered itself.
    static func checkEveryPair(of keys: [String]) -> Int {
        var answered = 0
        var failures = 0
        for first in keys {
            for second in keys where first != second && failures < 5 {
                let truth = KeyOrder.foundationPrecedes(first, second)
                if KeyOrder.isPlain(first), KeyOrder.isPlain(second), let quick = Self.quickOrder(first, second) {
                    answered += 1
                    if quick != truth {
                        failures += 1
                        let pair = "\(first.debugDescription) < \(second.debugDescription)"
                        Issue.record("quick order says \(pair) is \(quick), Foundation says \(truth)")
                    }
                }
                if KeyOrder.precedes(Self.entry(first), Self.entry(second)) != truth {
                    failures += 1
                    Issue.record("\(first.debugDescription) < \(second.debugDescription) should be \(truth)")
                }
            }
        }
        return answered
    }

    @Test(arguments: [
        ("aAbB09_-.", 3),  // case, digit runs, punctuation
        ("a0A1", 4),  // longer digit runs, leading zeros, case after a numeric tie
        (#"_-,;:!?.'"()[]{}@*/\&#%0aZ"#, 2),  // every punctuation character the fast path knows
    ])
    func everyPairOfShortKeysIsOrderedAsFoundationOrdersIt(alphabet: String, length: Int) {
        let keys = Self.strings(over: alphabet, upTo: length)
        let pairs = keys.count * (keys.count - 1)
        let answered = Self.checkEveryPair(of: keys)
        // On plain keys Foundation's comparison is a strict total order (so corelibs' order is defined and KeyOrder
        // need not fix a starting order): sorted with it, every earlier key precedes every later one.
        let sorted = keys.sorted(by: KeyOrder.foundationPrecedes)
        var disorders = 0
        for (index, first) in sorted.enumerated() where disorders < 5 {
            for second in sorted[(index + 1)...] where !Self.precedesFast(first, second) {
                disorders += 1
                Issue.record(
                    "\(first.debugDescription) sorts before \(second.debugDescription) but does not precede it"
                )
            }
        }
        // Only keys that differ in nothing but case or leading zeros need Foundation.
        #expect(answered > pairs * 95 / 100, "KeyOrder answered \(answered) of \(pairs) pairs itself")
    }

    @Test func randomKeysAreOrderedAsFoundationOrdersThem() {
        var generator = MessageValueGenerator(seed: 0x6b65_7973)
        let keys = (0..<300).map { _ in generator.key() }
        _ = Self.checkEveryPair(of: keys)
    }

    @Test func keysWithOtherCharactersAreLeftToFoundation() {
        for key in ["a b", "$set", "a~", "x|y", "a`", "a^", "a+", "é", "\u{1}", "中", "a\u{7F}"] {
            #expect(!KeyOrder.isPlain(key), "\(key.debugDescription)")
        }
        #expect(KeyOrder.isPlain("user_id-2.x#[0]"))
        #expect(KeyOrder.isPlain("a" + String(repeating: "9", count: 19)))
        #expect(!KeyOrder.isPlain("a" + String(repeating: "9", count: 20)))  // CoreFoundation's count would wrap
    }

    @Test func onlyCaseOrLeadingZerosNeedFoundation() {
        #expect(Self.quickOrder("a", "A") == nil)
        #expect(Self.quickOrder("userId", "userid") == nil)
        #expect(Self.quickOrder("x01", "x1") == false)  // equal numbers: the shorter run first, decided without ICU
        #expect(Self.quickOrder("a9", "a10") == true)
        #expect(Self.quickOrder("_", "0") == true)
        #expect(Self.quickOrder("a", "B") == true)
    }

    @Test func sortedKeepsEveryEntry() {
        let dictionary: [String: Any] = ["b": 2, "a": 1, "A": 3, "a10": 4, "a9": 5, "$": 6]
        let sorted = KeyOrder.sorted(dictionary)
        #expect(sorted.map(\.key) == ["$", "a", "A", "a9", "a10", "b"])
        #expect(sorted.map { $0.value as? Int } == [6, 1, 3, 5, 4, 2])
    }
}
