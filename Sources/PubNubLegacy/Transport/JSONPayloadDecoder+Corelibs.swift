// swift-corelibs-foundation (every platform but Apple's): the `JSONSerialization` whose values `JSONPayloadDecoder`
// builds. The counterpart of `JSONPayloadDecoder+Darwin.swift`.

#if !canImport(Darwin)
extension JSONPayloadDecoder {
    /// True: the facts in `JSONPayloadDecoder.swift`'s header were found on corelibs, and its tests check them here.
    static let isEnabled = true
}
#endif
