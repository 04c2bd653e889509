#if canImport(Darwin)
import CoreFoundation

// Apple platforms: one version-0 source in the main run loop's common modes, added when the first main-queue client is
// made and kept, so the run loop always has a source to wait for, as with 3.4.2's streams. Any thread signals it and
// wakes the loop (`CFRunLoopSourceSignal` and `CFRunLoopWakeUp` are thread-safe; NSRunLoop's methods are not, so no
// `RunLoop.main.add` from here). CFRunLoop clears the signal before it calls the source, so a signal sent while the
// source's callback waits in the run loop is performed in that nested run; a handled source ends
// `run(mode:before:)`, as 3.4.2's stream sources did.

extension MainRunLoopDrain {
    static func prepareMainRunLoop() {
        _ = mainRunLoopSource
    }

    static func signalMainRunLoop() {
        CFRunLoopSourceSignal(mainRunLoopSource.source)
        CFRunLoopWakeUp(CFRunLoopGetMain())
    }
}

// @unchecked: a CFRunLoopSource may be signalled from any thread; nothing else touches it after it is added.
private struct SourceBox: @unchecked Sendable {
    let source: CFRunLoopSource
}

private let mainRunLoopSource: SourceBox = {
    var context = CFRunLoopSourceContext(
        version: 0,
        info: nil,
        retain: nil,
        release: nil,
        copyDescription: nil,
        equal: nil,
        hash: nil,
        schedule: nil,
        cancel: nil,
        perform: { _ in MainRunLoopDrain.shared.fire() }
    )
    guard let source = CFRunLoopSourceCreate(kCFAllocatorDefault, 0, &context) else {
        preconditionFailure("CFRunLoopSourceCreate failed: out of memory")
    }
    CFRunLoopAddSource(CFRunLoopGetMain(), source, CFRunLoopMode.commonModes)
    return SourceBox(source: source)
}()
#endif
