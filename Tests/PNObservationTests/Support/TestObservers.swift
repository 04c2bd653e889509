import Foundation
import PlatformSupport
import PubNubLegacy

@testable import PNObservation

/// An object to register as an observer; carries a name so failures say which one fired.
final class TestObserver: CustomStringConvertible, Sendable {
    let name: String

    init(_ name: String = "observer") {
        self.name = name
    }

    var description: String { self.name }
}

/// The calls the blocks under test made, in order; safe to append to from any thread. A log made with
/// `keepingCalls: false` only counts, for stress tests that make many calls.
final class CallLog: Sendable {
    private let entries = Locked<(calls: [String], count: Int)>(([], 0))
    private let keepingCalls: Bool

    init(keepingCalls: Bool = true) {
        self.keepingCalls = keepingCalls
    }

    func append(_ entry: String) {
        self.entries.withLock { entries in
            entries.count += 1
            if self.keepingCalls {
                entries.calls.append(entry)
            }
        }
    }

    var calls: [String] { self.entries.withLock { $0.calls } }

    var count: Int { self.entries.withLock { $0.count } }
}

/// A flag that is raised once; `raise()` tells whether this call raised it.
final class OnceFlag: Sendable {
    private let raised = Locked(false)

    func raise() -> Bool {
        self.raised.withLock { raised in
            defer { raised = true }
            return !raised
        }
    }
}

/// A weak reference for checking that an object went away.
final class WeakReference<Object: AnyObject>: @unchecked Sendable {
    // @unchecked: tests read `object` only after the threads that could release it have finished.
    weak var object: Object?

    init(_ object: Object) {
        self.object = object
    }
}

/// An object whose `deinit` runs a closure: shows when a block capturing it is released, and lets that release
/// call back into the center.
final class DeinitProbe: @unchecked Sendable {
    // @unchecked: `onDeinit` is set in `init` and only read by `deinit`.
    private let onDeinit: () -> Void

    init(onDeinit: @escaping () -> Void = {}) {
        self.onDeinit = onDeinit
    }

    deinit {
        self.onDeinit()
    }
}

/// A mutable strong reference that a block can clear, to drop the last reference to an observer mid-round.
final class StrongBox<Object: AnyObject>: @unchecked Sendable {
    // @unchecked: tests touch `object` from one thread only (the test's, or the delivering thread it waits for).
    var object: Object?

    init(_ object: Object?) {
        self.object = object
    }
}
