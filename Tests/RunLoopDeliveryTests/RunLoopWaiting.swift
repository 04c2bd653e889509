import Foundation
import LocalOrigin
import PlatformSupport
import PubNubLegacy
import XCTest

// How PubNub's own 3.x tests (SenTestingKit, on the main thread of an app host) and 3.x apps waited for a callback:
// by running the current run loop in short slices until a flag was set or a deadline passed. XCTest on Linux runs
// every test method on the main thread and waits the same way, so these tests are XCTest cases (Package.swift).

/// Runs the current run loop with `run(until:)` in slices of 50 ms until `condition` holds or `seconds` pass;
/// returns whether it holds.
@discardableResult
func spinRunLoop(upTo seconds: TimeInterval = 15, until condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() && Date() < deadline {
        RunLoop.current.run(until: min(deadline, Date(timeIntervalSinceNow: 0.05)))
    }
    return condition()
}

/// The other 3.x idiom: `-runMode:beforeDate:` in the default mode, each with a limit a few seconds ahead, until
/// `condition` holds or `seconds` pass.
@discardableResult
func runDefaultModeBeforeDate(upTo seconds: TimeInterval = 15, until condition: () -> Bool) -> Bool {
    let deadline = Date(timeIntervalSinceNow: seconds)
    while !condition() && Date() < deadline {
        _ = RunLoop.current.run(mode: .default, before: min(deadline, Date(timeIntervalSinceNow: 2)))
    }
    return condition()
}

/// An in-process origin and a client connected to it with the default delivery queue (the main queue).
final class MainQueueClient {
    let origin: LocalOrigin
    let client: PubNub

    init(delegate: (any PNDelegate)? = nil) throws {
        self.origin = try LocalOrigin.start()
        let configuration = PNConfiguration(
            origin: self.origin.address,
            publishKey: "demo",
            subscribeKey: "demo",
            secretKey: nil,
            cipherKey: nil
        )
        configuration.useSecureConnection = false
        self.client = PubNub(configuration: configuration, delegate: delegate)
    }

    /// Connects and waits for the success block by running the run loop.
    func connect(file: StaticString = #filePath, line: UInt = #line) {
        var connected = false
        var failure: PNError?
        self.client.connectWithSuccessBlock({ _ in connected = true }, errorBlock: { failure = $0 })
        XCTAssertTrue(spinRunLoop { connected || failure != nil }, "no connect outcome", file: file, line: line)
        XCTAssertNil(failure, file: file, line: line)
    }

    /// Disconnects, waits for the disconnect to be delivered, and stops the origin.
    func stop() {
        let disconnected = Locked(false)
        let observer = NotificationCenter.default.addObserver(
            forName: kPNClientDidDisconnectFromOriginNotification,
            object: self.client,
            queue: nil
        ) { _ in disconnected.set(true) }
        self.client.disconnect()
        spinRunLoop { disconnected.current }
        NotificationCenter.default.removeObserver(observer)
        self.origin.stop()
    }
}
