import Foundation
import LocalOrigin
import PlatformSupport
import PubNubAsync
import TestSupport

@testable import PubNubLegacy

/// A deadline passed while waiting for something.
struct Timeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(self.what)" }
}

/// Consumes a stream in its own task and keeps what it yields, so tests wait on it with deadlines.
final class Collector<Element: Sendable>: Sendable {
    let items = Locked<[Element]>([])
    let ended = Locked(false)
    private let task: Task<Void, Never>

    init(_ stream: AsyncStream<Element>) {
        let items = self.items
        let ended = self.ended
        self.task = Task {
            for await item in stream {
                items.withLock { $0.append(item) }
            }
            ended.set(true)
        }
    }

    deinit {
        self.task.cancel()
    }

    /// The elements so far once at least `count` arrived.
    @discardableResult
    func wait(for count: Int, within seconds: Double = 30) async throws -> [Element] {
        try await eventually("\(count) element(s)", within: seconds) { self.items.current.count >= count }
        return self.items.current
    }

    /// The first element so far that satisfies `predicate`, once there is one.
    @discardableResult
    func wait(within seconds: Double = 30, for what: String, _ predicate: (Element) -> Bool) async throws -> Element {
        var found: Element?
        try await eventually(what, within: seconds) {
            found = self.items.current.first(where: predicate)
            return found != nil
        }
        return found!
    }
}

/// A 3.4-style delegate that records callback names and statuses.
final class RecordingDelegate: PNDelegate, Sendable {
    let names = Locked<[String]>([])
    let statuses = Locked<[PNStatus]>([])
    let messages = Locked<[String]>([])

    func pubnubClient(_ client: PubNub, didConnectToOrigin: String) {
        self.names.withLock { $0.append("didConnect") }
    }

    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String) {
        self.names.withLock { $0.append("didDisconnect") }
    }

    func pubnubClient(_ client: PubNub, didReceiveMessage: PNMessage) {
        self.names.withLock { $0.append("didReceiveMessage") }
        self.messages.withLock { $0.append("\(didReceiveMessage.message ?? "nil")") }
    }

    func pubnubClient(_ client: PubNub, willRestoreSubscriptionOnChannels: [PNChannel]) {
        self.names.withLock { $0.append("willRestoreSubscription") }
    }

    func pubnubClient(_ client: PubNub, didRestoreSubscriptionOnChannels: [PNChannel]) {
        self.names.withLock { $0.append("didRestoreSubscription") }
    }

    func pubnubClient(
        _ client: PubNub,
        didReceiveMessageHistory: [PNMessage],
        forChannel: PNChannel,
        startingFrom: PNDate?,
        to: PNDate?
    ) {
        self.names.withLock { $0.append("didReceiveMessageHistory") }
    }

    func pubnubClient(_ client: PubNub, didSubscribeOnChannels: [PNChannel]) {
        self.names.withLock { $0.append("didSubscribe") }
    }

    func pubnubClient(_ client: PubNub, didReceiveStatus: PNStatus) {
        self.statuses.withLock { $0.append(didReceiveStatus) }
        self.names.withLock { $0.append("status:\(didReceiveStatus.category)") }
    }

    func count(_ name: String) -> Int {
        self.names.current.filter { $0 == name }.count
    }
}

/// Test configurations and clients against a `LocalOrigin`.
enum AsyncFixture {
    /// A plain-HTTP configuration for `origin` with its own serial delivery queue.
    static func configuration(_ origin: LocalOrigin, configure: (PNConfiguration) -> Void = { _ in }) -> PNConfiguration
    {
        let configuration = PNConfiguration(
            origin: origin.address,
            publishKey: "pub-c-async",
            subscribeKey: "sub-c-async",
            secretKey: nil,
            cipherKey: nil
        )
        configuration.useSecureConnection = false
        configuration.deliveryQueue = DispatchQueue(label: "pubnub-async-tests")
        configure(configuration)
        return configuration
    }

    /// A connected overlay client; reachability probes every `probeInterval` seconds.
    static func connected(
        _ origin: LocalOrigin,
        probeInterval: TimeInterval = 1_000,
        configure: (PNConfiguration) -> Void = { _ in }
    ) async throws -> PubNubClient {
        var timings = EngineTimings.standard
        timings.probeInterval = probeInterval
        let legacy = PubNub(
            configuration: Self.configuration(origin, configure: configure),
            delegate: nil,
            eventSinks: [],
            timings: timings
        )
        let client = PubNubClient(wrapping: legacy)
        try await client.connect()
        return client
    }

    /// A channel name no other test uses.
    static func unique(_ base: String) -> String {
        "\(base)-\(UUID().uuidString.prefix(8))"
    }

    /// The `tt` parameter of a subscribe target.
    static func token(_ target: String) -> String? {
        target.split(separator: "?").last?.split(separator: "&")
            .first { $0.hasPrefix("tt=") }
            .map { String($0.dropFirst(3)) }
    }
}
