#if !canImport(Darwin)
import Foundation

// Linux: corelibs Foundation has no public run-loop source another thread can signal (its `Port`s are sockets), but
// a `Timer` added to the main run loop from any thread wakes it (`CFRunLoopAddTimer` takes the run loop's lock and
// re-arms its timer descriptor) and fires on the main thread, in a run nested inside a main-queue block as well.
// Each signal adds a new one-shot timer, so a signal sent while an earlier timer's callback runs (a callback that
// waits in the run loop) fires in that nested run. While the main thread never runs its run loop (`dispatchMain()`,
// a server), the one timer waits there and the main-queue blocks deliver: `MainRunLoopDrain` adds no second timer
// before the first has fired.
//
// A run loop whose mode has no source and no timer does not wait: `run(until:)` and `run(mode:before:)` return at
// once, and inside a main-queue block the main queue does not count. So the first main-queue client also adds a timer
// that never fires, which keeps the main run loop's common modes waiting as an app's run loop does. A timer is not
// an input source, so `run(mode:before:)` returns at its limit date rather than right after a callback
// (MIGRATION.md §4).

extension MainRunLoopDrain {
    static func prepareMainRunLoop() {
        _ = keepAliveTimer
    }

    static func signalMainRunLoop() {
        let timer = Timer(timeInterval: 0, repeats: false) { _ in
            MainRunLoopDrain.shared.fire()
        }
        RunLoop.main.add(timer, forMode: .common)
    }
}

/// Added to the main run loop once, on first use; it never fires.
private let keepAliveTimer: Void = {
    RunLoop.main.add(Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }, forMode: .common)
}()
#endif
