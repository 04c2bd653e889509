// Apple platforms only: Apple's Foundation reads the elements of an `NSArray` or `NSDictionary` without bridging
// them, so the payload check reads them plainly. (Their mirror is no help here: a Swift array bridged to `NSArray`
// mirrors its storage object, not its elements.) Type-checked on Linux by `Scripts/check-apple-branches.py`; the
// counterpart of `StoredElements+Corelibs.swift`.

#if canImport(Darwin)
import Foundation

/// The elements of Foundation containers as they are stored, without bridging them to Swift values.
enum StoredElements {
    /// The elements of `array` as stored.
    static func elements(of array: NSArray) -> [Any] {
        array.map { $0 }
    }

    /// The keys and values of `dictionary` as stored.
    static func members(of dictionary: NSDictionary) -> [(key: Any, value: Any)] {
        dictionary.map { (key: $0.key, value: $0.value) }
    }
}
#endif
