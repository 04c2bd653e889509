import Foundation

// The order of an object's keys. corelibs' `JSONSerialization` sorts them with
// `a.compare(b, options: [.numeric, .caseInsensitive, .forcedOrdering], range: a.startIndex..<a.endIndex,
// locale: NSLocale.system) == .orderedAscending`. With a locale, CoreFoundation's comparison walks both keys: runs
// of ASCII digits compare by value (a UInt64 that wraps past 19 digits), and at the first other difference it hands
// what remains of both keys to an ICU root-locale collator (numeric collation on, punctuation not ignorable) and
// returns its answer. So `"a9" < "a10" < "a" < "A" < "ab" < "aB" < "b"`, and `" " < "_" < "-" < "~" < "0"`.
// Each such call costs about a microsecond, more than the rest of a small message, so KeyOrder answers most pairs
// itself and asks Foundation only for the others:
// - keys made of ASCII letters, digits and ASCII punctuation (`_ - , ; : ! ? . ' " ( ) [ ] { } @ * / \ & # %`),
//   with no digit run longer than 19, are walked the way CoreFoundation walks them; at the first difference the
//   rests are compared as the collator's primary level does (case folded; punctuation in root-collation order,
//   then numbers by value, then letters). A primary difference is the collator's answer; without one (the keys
//   differ only in case or in leading zeros) Foundation decides.
// - any other key (space, symbols such as `$ + < = > ^ | ~` and the backquote, controls, non-ASCII): Foundation.
// Symbols and spaces are left out because CoreFoundation may then compare the rests piecewise.
// On plain keys Foundation's comparison is a strict total order (JSONFragmentEncoderKeyOrderTests check it), so the
// sorted order is the only one. On keys with other characters it need not be: experiments on this package's
// platforms found cycles such as "bßba" < "bsa" < "bss" < "bßba" (U+00DF expands to "ss" in the collator but not in
// CoreFoundation's walk) and "a١١" < "a1٩" < "a11" < "a١١" (non-ASCII digits mixed with ASCII ones), and pairs that
// compare equal or ascending both ways (ligatures such as U+FB01, U+FEFF, combining marks after other marks).
// Sorting such keys gives an order that depends on where the sort starts: corelibs starts from a dictionary's
// iteration order, which Swift seeds afresh in every process, so corelibs wrote those objects with a different key
// order from one run of a program to the next. KeyOrder starts such a sort from the keys' UTF-8 order, and so writes
// one of the orders corelibs wrote, the same every time. Mixed case, accented letters, surrogate pairs, combining
// marks and the empty string alone gave no cycle.
// JSONFragmentEncoderTests check KeyOrder against Foundation on every pair of short keys over an alphabet of each
// kind of character, and on random keys.

extension JSONFragmentEncoder {
    /// Sorts object keys as corelibs' `JSONSerialization` does under `.sortedKeys`.
    enum KeyOrder {
        /// A dictionary entry, with what KeyOrder learnt about its key.
        struct Entry {
            let key: String
            let value: Any
            /// The key is one KeyOrder can compare itself.
            let plain: Bool
        }

        /// The entries of `dictionary` in corelibs' order. Where that order is not defined (keys on which
        /// Foundation's comparison is no order, see above), one order corelibs may write, the same in every process.
        static func sorted(_ dictionary: [String: Any]) -> [Entry] {
            self.sorted(entries: dictionary.map { Entry(key: $0.key, value: $0.value, plain: self.isPlain($0.key)) })
        }

        /// `entries` (one per key) in the order of `sorted(_:)`.
        static func sorted(entries: [Entry]) -> [Entry] {
            var entries = entries
            guard entries.count > 1 else {
                return entries
            }
            if !entries.allSatisfy(\.plain) {
                // A fixed starting order, so the sort below ends the same way in every process.
                entries.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            }
            entries.sort { self.precedes($0, $1) }
            return entries
        }

        /// Whether `first`'s key sorts before `second`'s.
        static func precedes(_ first: Entry, _ second: Entry) -> Bool {
            if first.plain, second.plain,
                let answer = first.key.utf8.withContiguousStorageIfAvailable({ a in
                    second.key.utf8.withContiguousStorageIfAvailable { b in self.quickOrder(a, b) }
                }),
                let precedes = answer ?? nil
            {
                return precedes
            }
            return self.foundationPrecedes(first.key, second.key)
        }

        /// corelibs' own comparison, as `JSONSerialization` calls it.
        static func foundationPrecedes(_ first: String, _ second: String) -> Bool {
            first.compare(
                second,
                options: [.numeric, .caseInsensitive, .forcedOrdering],
                range: first.startIndex..<first.endIndex,
                locale: NSLocale.system
            ) == .orderedAscending
        }

        // MARK: - Plain keys

        /// The primary weight of each ASCII character a plain key may hold (0: not allowed). Punctuation in root
        /// collation order, then one weight for all digits (numbers compare by value), then letters, case folded.
        private static let weights: [UInt8] = {
            var weights = [UInt8](repeating: 0, count: 128)
            for (rank, character) in #"_-,;:!?.'"()[]{}@*/\&#%"#.utf8.enumerated() {
                weights[Int(character)] = UInt8(1 + rank)
            }
            for digit in UInt8(ascii: "0")...UInt8(ascii: "9") {
                weights[Int(digit)] = Self.digitWeight
            }
            for (rank, letter) in (UInt8(ascii: "a")...UInt8(ascii: "z")).enumerated() {
                weights[Int(letter)] = Self.digitWeight + 1 + UInt8(rank)
                weights[Int(letter - 0x20)] = Self.digitWeight + 1 + UInt8(rank)
            }
            return weights
        }()

        private static let digitWeight: UInt8 = 50

        /// Longest digit run whose value fits a UInt64 whatever its digits, so CoreFoundation's count cannot wrap.
        private static let longestRun = 19

        /// Whether KeyOrder compares `key` itself: only the characters of `weights`, no digit run over `longestRun`.
        static func isPlain(_ key: String) -> Bool {
            var run = 0
            for byte in key.utf8 {
                guard byte < 0x80, self.weights[Int(byte)] != 0 else {
                    return false
                }
                run = self.isDigit(byte) ? run + 1 : 0
                if run > self.longestRun {
                    return false
                }
            }
            return true
        }

        /// CoreFoundation's walk over two plain keys: true when `a` sorts first, false when `b` does, nil when only
        /// the collator's lower levels could tell (Foundation must decide).
        static func quickOrder(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool? {
            var i = 0
            var j = 0
            // Set by the first pair of digit runs of equal value and different lengths (the shorter sorts first);
            // from then on CoreFoundation folds case before comparing characters.
            var tie: Bool?
            while i < a.count, j < b.count {
                var x = a[i]
                var y = b[j]
                if tie != nil {
                    x = self.lowercased(x)
                    y = self.lowercased(y)
                }
                if self.isDigit(x), self.isDigit(y) {
                    let (first, firstEnd) = self.number(in: a, from: i)
                    let (second, secondEnd) = self.number(in: b, from: j)
                    if first != second {
                        return first < second
                    }
                    if tie == nil, firstEnd - i != secondEnd - j {
                        tie = firstEnd - i < secondEnd - j
                    }
                    i = firstEnd
                    j = secondEnd
                    continue
                }
                if x != y {
                    return self.primaryOrder(a, from: i, b, from: j)
                }
                i += 1
                j += 1
            }
            if i < a.count {
                return false
            }
            if j < b.count {
                return true
            }
            return tie
        }

        /// The collator's primary level on the rests of two keys: true when `a` sorts first, false when `b` does, nil
        /// when they are equal at that level.
        private static func primaryOrder(
            _ a: UnsafeBufferPointer<UInt8>,
            from start: Int,
            _ b: UnsafeBufferPointer<UInt8>,
            from otherStart: Int
        ) -> Bool? {
            var i = start
            var j = otherStart
            while i < a.count, j < b.count {
                if self.isDigit(a[i]), self.isDigit(b[j]) {
                    let (first, firstEnd) = self.number(in: a, from: i)
                    let (second, secondEnd) = self.number(in: b, from: j)
                    if first != second {
                        return first < second
                    }
                    i = firstEnd
                    j = secondEnd
                    continue
                }
                let x = self.weights[Int(a[i])]
                let y = self.weights[Int(b[j])]
                if x != y {
                    return x < y
                }
                i += 1
                j += 1
            }
            if i == a.count, j == b.count {
                return nil
            }
            return i == a.count
        }

        /// The value of the digit run starting at `start`, and the index after it.
        private static func number(in key: UnsafeBufferPointer<UInt8>, from start: Int) -> (UInt64, Int) {
            var value: UInt64 = 0
            var index = start
            while index < key.count, self.isDigit(key[index]) {
                value = value * 10 + UInt64(key[index] - UInt8(ascii: "0"))
                index += 1
            }
            return (value, index)
        }

        private static func isDigit(_ byte: UInt8) -> Bool {
            byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
        }

        private static func lowercased(_ byte: UInt8) -> UInt8 {
            byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
        }
    }
}
