// Apple's Foundation: `JSONSerialization` is another implementation there, whose values `JSONPayloadDecoder` does not
// build. The counterpart of `JSONPayloadDecoder+Corelibs.swift`.

#if canImport(Darwin)
extension JSONPayloadDecoder {
    /// False: Apple's `JSONSerialization` returns its own `NSDictionary`, `NSArray` and `NSString` subclasses and
    /// `NSNumber`s of other storage than corelibs', so every payload goes to it unchanged.
    static let isEnabled = false
}
#endif
