/// The sink the origin answers into under a `delay` fault: holds the answer until its due time, then writes it to
/// the connection's sink. Everything else passes straight through.
final class DelayedAnswerSink: HTTPResponseSink, @unchecked Sendable {
    // @unchecked: every stored property is an immutable `let` of a thread-safe type.
    private let base: any HTTPResponseSink
    private let injector: FaultInjector
    private let fault: Int
    private let due: UInt64

    /// A sink that writes to `base` no earlier than `due` (monotonic nanoseconds), booked under `fault`.
    init(base: any HTTPResponseSink, injector: FaultInjector, fault: Int, due: UInt64) {
        self.base = base
        self.injector = injector
        self.fault = fault
        self.due = due
    }

    func respond(_ response: HTTPResponse) {
        self.injector.deliver(.response(response), to: self.base, fault: self.fault, due: self.due)
    }

    func respondRaw(_ bytes: [UInt8], thenClose: Bool) {
        self.injector.deliver(.raw(bytes, thenClose: thenClose), to: self.base, fault: self.fault, due: self.due)
    }

    /// Closes at once: the origin closes only when it stops, and a stopping origin waits for nothing.
    func close() {
        self.base.close()
    }

    var isClosed: Bool { self.base.isClosed }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        self.base.onClose(handler)
    }
}
