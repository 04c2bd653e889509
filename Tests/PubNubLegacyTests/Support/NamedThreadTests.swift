import Foundation
import LocalOrigin
import PlatformSupport
import Testing

@testable import PubNubLegacy

/// `NamedThread` gives threads names the system keeps. On Linux a name Foundation drops (one set before `start()`, or
/// set by the new thread before `start()` returned) or the kernel refuses (over 15 bytes) leaves the thread showing,
/// in `top -H`, `perf` and `/proc`, the name of the thread that started it.
@Suite struct NamedThreadTests {
    @Test func namesAreCutToFifteenBytesOnACharacterBoundary() {
        #expect(NamedThread.kept("pn.service") == "pn.service")
        #expect(NamedThread.kept("pn.request-cost") == "pn.request-cost")
        #expect(NamedThread.kept("LocalOrigin.HTTP.loop0") == "LocalOrigin.HTT")
        // "é" is two bytes: a cut at 15 bytes would split it, so it goes whole.
        #expect(NamedThread.kept("pn.abcdefghijké") == "pn.abcdefghijk")
        #expect(NamedThread.kept("") == "")
    }

    #if canImport(Glibc)
    /// The kernel's name of the calling thread.
    static func kernelName() -> String? {
        guard let text = try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8) else { return nil }
        return text.trimmingCharacters(in: .newlines)
    }

    @Test(arguments: ["pn.short", "a.name.longer.than.fifteen.bytes"])
    func theKernelKeepsTheName(name: String) async throws {
        let seen = Locked<String?>(nil)
        let done = Latch()
        NamedThread.start(name) {
            seen.set(Self.kernelName())
            done.open()
        }
        #expect(done.wait(timeout: 20))
        #expect(seen.withLock { $0 } == NamedThread.kept(name))
    }

    /// The socket workers, whose completions run on their own thread, are named after their lane: their names set
    /// before `start()` (and over 15 bytes) left them named as the dispatch worker that started them.
    @Test func aSocketWorkerIsNamedAfterItsLane() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "service")
        defer { transport.invalidate() }
        let request = TransportRequest(
            method: "GET",
            url: try #require(URL(string: "http://\(origin.address)/time/0?uuid=t")),
            body: nil,
            timeout: 20
        )
        let name = await withCheckedContinuation { continuation in
            transport.send(request) { _ in continuation.resume(returning: Self.kernelName()) }
        }
        #expect(name == "pn.service")
    }
    #endif
}
