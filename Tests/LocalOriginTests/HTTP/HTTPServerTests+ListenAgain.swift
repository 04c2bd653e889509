import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import LocalOrigin

// Listening again on a port given up for an instant (a restart, `stopAccepting()`): a socket that took the port in
// that instant and lets it go within moments delays the listening, one that keeps it makes it fail.

extension HTTPServerTests {
    @Test func listeningAgainWaitsForAPortHeldForAMoment() throws {
        // A bound socket without SO_REUSEADDR: nothing can listen on its port while it is open.
        let holder = LoopbackSocket.tcp()
        #expect(LoopbackSocket.bind(holder, port: 0) == 0)
        let port = try #require(LoopbackSocket.localPort(holder))
        let listen = { () throws(HTTPServerError) in try POSIXSocket.listen(host: "127.0.0.1", port: port) }
        #expect(throws: HTTPServerError.addressInUse(host: "127.0.0.1", port: port)) {
            try HTTPServer.retryingWhilePortInUse(patience: 0.1, listen)
        }
        let letGo = Latch()
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
            letGo.open()  // before the close, so a listen that succeeds finds it open
            POSIXSocket.closeDescriptor(holder)
        }
        let (listener, bound) = try HTTPServer.retryingWhilePortInUse(patience: 30, listen)
        #expect(bound == port)
        #expect(letGo.wait(timeout: 0))  // it listened only once the holder was letting go
        POSIXSocket.closeDescriptor(listener)
    }
}
