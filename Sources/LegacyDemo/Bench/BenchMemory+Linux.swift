// Everywhere but Apple platforms: there is no Mach task info; `BenchMemory` reads /proc instead. The counterpart of
// `BenchMemory+Darwin.swift`.

#if !canImport(Darwin)
extension BenchMemory {
    /// No Mach task info here: nil, and the /proc figures are used.
    static func taskMemory() -> (residentKiB: Int, peakKiB: Int)? { nil }
}
#endif
