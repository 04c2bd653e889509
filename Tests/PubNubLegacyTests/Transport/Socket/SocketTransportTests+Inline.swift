import Dispatch
import Foundation
import LocalOrigin
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

// A worker reporting an answer runs the code of its completion itself, and a request sent from there waits for that
// worker instead of waking another (WorkerThread.swift): a sequential publish costs no thread hand-over.

/// Sends request `index` of a chain from inside the completion of request `index - 1`, recording on which thread
/// each completion ran.
private final class CompletionChain: Sendable {
    let transport: SocketTransport
    let url: String
    let length: Int
    let log = CompletionLog()
    let threads = Locked<[Int: ObjectIdentifier]>([:])

    init(transport: SocketTransport, url: String, length: Int) {
        self.transport = transport
        self.url = url
        self.length = length
    }

    func send(_ index: Int) {
        let report = self.log.completion(index)
        self.transport.send(SocketTransportTests.get("\(self.url)?n=\(index)")) { result in
            self.threads.withLock { $0[index] = ObjectIdentifier(Thread.current) }
            if index + 1 < self.length { self.send(index + 1) }
            report(result)
        }
    }
}

extension SocketTransportTests {
    @Test func aRequestSentFromACompletionIsCarriedByTheWorkerThatReportedTheAnswer() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        // Room for more workers: without the hand-over to the reporting worker, the next request would start one.
        let transport = SocketTransport(maximumConnections: 4, label: "test")
        defer { transport.invalidate() }
        let chain = CompletionChain(transport: transport, url: "http://\(origin.address)/time/0", length: 6)
        chain.send(0)
        try await chain.log.waitFor(6)
        for index in 0..<6 {
            #expect((try? chain.log.results(index).first?.get().status) == 200)
            #expect(chain.log.results(index).count == 1)
        }
        let threads = chain.threads.withLock { $0 }
        #expect(Set(threads.values).count == 1, "every answer reported on one worker thread: \(threads)")
        #expect(origin.requestLog.count == 6)
        #expect(transport.idleConnectionCount == 1)
    }

    @Test(arguments: [1, 2])
    func requestsSentFromOneCompletionAllGoOut(maximumConnections: Int) async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = SocketTransport(maximumConnections: maximumConnections, label: "test")
        defer { transport.invalidate() }
        let log = CompletionLog()
        let url = "http://\(origin.address)/time/0"
        let first = log.completion(0)
        transport.send(Self.get(url)) { result in
            // The first is left for this worker; the second needs another worker, or this one after the first.
            transport.send(Self.get(url + "?n=1"), completion: log.completion(1))
            transport.send(Self.get(url + "?n=2"), completion: log.completion(2))
            first(result)
        }
        try await log.waitFor(3)
        for index in 0..<3 {
            #expect(log.results(index).count == 1)
            #expect((try? log.results(index).first?.get().status) == 200)
        }
        try await eventually("every report returned") { transport.outstandingReportCount == 0 }
        #expect(transport.queuedRequestCount == 0)
    }

    @Test func workHandedToAQueueFromACompletionRunsThereOnTheWorkerBeforeItReturns() async throws {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let transport = SocketTransport(maximumConnections: 1, label: "test")
        defer { transport.invalidate() }
        let queue = DispatchQueue(label: "test.engine")
        let key = DispatchSpecificKey<Bool>()
        queue.setSpecific(key: key, value: true)
        let seen = Locked<(onQueue: Bool, sameThread: Bool, beforeReturn: Bool)?>(nil)
        let done = Latch()
        transport.send(Self.get("http://\(origin.address)/time/0")) { _ in
            let worker = ObjectIdentifier(Thread.current)
            let ran = Locked(false)
            WorkerThread.hand(to: queue) {
                ran.set(true)
                let onQueue = DispatchQueue.getSpecific(key: key) == true
                let sameThread = ObjectIdentifier(Thread.current) == worker
                seen.set((onQueue, sameThread, false))
            }
            seen.withLock { $0?.beforeReturn = ran.current }
            done.open()
        }
        #expect(done.wait(timeout: 20))
        let result = try #require(seen.current)
        #expect(result.onQueue && result.sameThread && result.beforeReturn)
        // Anywhere else the work is queued, not run in place: behind a queue held busy, it has not run on return.
        let gate = DispatchSemaphore(value: 0)
        queue.async { _ = gate.wait(timeout: .now() + 60) }
        let ranInPlace = Locked(false)
        let queued = Latch()
        WorkerThread.hand(to: queue) {
            ranInPlace.set(true)
            queued.open()
        }
        let ranBeforeReturn = ranInPlace.current
        gate.signal()
        #expect(!ranBeforeReturn)
        #expect(queued.wait(timeout: 20))
    }
}
