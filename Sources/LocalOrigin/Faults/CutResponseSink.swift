/// The sink the origin answers into under a `closeMidResponse` fault: writes only the first part of the answer (up
/// to the cut point) and closes the connection. Everything else passes straight through.
final class CutResponseSink: HTTPResponseSink, @unchecked Sendable {
    // @unchecked: every stored property is an immutable `let` of a thread-safe type.
    private let base: any HTTPResponseSink
    private let point: OriginFault.CutPoint

    /// A sink that cuts answers to `base` at `point`.
    init(base: any HTTPResponseSink, point: OriginFault.CutPoint) {
        self.base = base
        self.point = point
    }

    func respond(_ response: HTTPResponse) {
        self.base.respondRaw(FaultReply.cut(response, at: self.point), thenClose: true)
    }

    /// Raw bytes are cut in half, never sent whole.
    func respondRaw(_ bytes: [UInt8], thenClose: Bool) {
        self.base.respondRaw(Array(bytes.prefix(bytes.count / 2)), thenClose: true)
    }

    func close() {
        self.base.close()
    }

    var isClosed: Bool { self.base.isClosed }

    func onClose(_ handler: @escaping @Sendable () -> Void) {
        self.base.onClose(handler)
    }
}
