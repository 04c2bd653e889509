// swift-corelibs-foundation (every platform but Apple's): how the payload check reads the contents of an `NSArray` or
// `NSDictionary` without bridging them. The counterpart of `StoredElements+Darwin.swift`.

#if !canImport(Darwin)
import Foundation

/// The elements of Foundation containers as they are stored, without bridging them to Swift values.
enum StoredElements {
    /// The elements of `array` as stored. Here reading an element of an `NSArray` (subscript, iteration,
    /// `object(at:)`) bridges it to a Swift value, deeply: an array that contains itself recurses until the stack
    /// overflows. Its mirror shows the stored objects without bridging them; the bridged reading stays as a fallback
    /// should a Foundation release mirror arrays differently.
    static func elements(of array: NSArray) -> [Any] {
        let stored = Mirror(reflecting: array).children.map(\.value)
        return stored.count == array.count ? stored : array.map { $0 }
    }

    /// The keys and values of `dictionary` as stored, for the reason given at `elements(of:)`.
    static func members(of dictionary: NSDictionary) -> [(key: Any, value: Any)] {
        let stored = Mirror(reflecting: dictionary).children.compactMap { child -> (key: Any, value: Any)? in
            guard let pair = child.value as? (key: NSObject, value: AnyObject) else { return nil }
            return (key: pair.key, value: pair.value)
        }
        return stored.count == dictionary.count ? stored : dictionary.map { (key: $0.key, value: $0.value) }
    }
}
#endif
