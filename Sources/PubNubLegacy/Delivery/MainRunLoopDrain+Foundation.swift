#if !canImport(Darwin)
import Foundation

// Linux: corelibs Foundation has no public run-loop source a thread can signal (its `Port`s are sockets), but a
// `Timer` added to the main run loop from any thread wakes it (`CFRunLoopAddTimer` takes the run loop's lock and
// re-arms its timer descriptor) and fires on the main thread, inside a main-queue block's nested run as well. While
// the main thread never runs its run loop (`dispatchMain()`, a server), the one timer waits there and the
// main-queue blocks deliver; `MainRunLoopDrain` adds no second timer before the first has fired.
//
// A timer is not an input source: `run(mode:before:)` returns after it only when the mode has nothing else left
// (as in a test host), otherwise at its limit date; `run(until:)` is unaffected (MIGRATION.md §4).

extension MainRunLoopDrain {
    static func signalMainRunLoop() {
        let timer = Timer(timeInterval: 0, repeats: false) { _ in
            MainRunLoopDrain.shared.fire()
        }
        RunLoop.main.add(timer, forMode: .common)
    }
}
#endif
