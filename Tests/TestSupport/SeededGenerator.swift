import Foundation

/// SplitMix64: a small deterministic generator, so a property test that fails can be run again with its seed.
public struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// The next number of the sequence.
    public mutating func next() -> UInt64 {
        self.state &+= 0x9e37_79b9_7f4a_7c15
        var z = self.state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }

    /// `count` random bytes.
    public mutating func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &self) }
    }
}

/// The seeds of one run of a random test: the value of the environment variable `variable` alone when it is set
/// (to run a failing seed again), otherwise three fixed seeds and a fresh one (printed by the test on failure).
public func randomTestSeeds(overriddenBy variable: String) -> [UInt64] {
    if let seed = ProcessInfo.processInfo.environment[variable].flatMap(UInt64.init) {
        return [seed]
    }
    return [1, 2, 3, UInt64.random(in: 1...UInt64.max)]
}
