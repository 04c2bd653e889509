import Dispatch
import Foundation
import PubNubLegacy

/// One client of `LegacyDemo bench`, driven as a 3.x app drives it: a `PNDelegate` on a serial delivery queue of its
/// own, with the workload's handlers for acknowledged publishes, failures and received messages.
final class BenchClient: PNDelegate, @unchecked Sendable {
    // @unchecked: the handlers are only read or written on `queue` (the delegate is called there, and `handle`
    // sets them with `queue.sync`); `client` is immutable and thread-safe; the counters lock themselves.
    typealias Handlers = (
        sent: (@Sendable (PNMessage) -> Void)?,
        received: (@Sendable (PNMessage) -> Void)?,
        failed: (@Sendable (String) -> Void)?
    )

    let name: String
    let queue: DispatchQueue
    let client: PubNub
    private var handlers: Handlers = (nil, nil, nil)
    private let connection = BenchCounter()
    private let subscription = BenchCounter()
    private let disconnection = BenchCounter()

    /// A client of `address` (HOST:PORT; TLS with `secure`, trusting `caFile` when set) with the given keys; not
    /// connected yet.
    init(
        name: String,
        address: String,
        publishKey: String,
        subscribeKey: String,
        secure: Bool = false,
        caFile: String? = nil,
        pipelineDepth: Int = 1
    ) {
        self.name = name
        self.queue = DispatchQueue(label: "LegacyDemo.bench.\(name)")
        let configuration = PNConfiguration(
            origin: address,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secretKey: nil,
            cipherKey: nil
        )
        configuration.useSecureConnection = secure
        configuration.anchorCertificatesFile = caFile
        configuration.publishPipelineDepth = pipelineDepth
        configuration.deliveryQueue = self.queue
        self.client = PubNub(configuration: configuration)
        self.client.setDelegate(self)
    }

    /// Connects and blocks until `didConnectToOrigin:`; throws on a connection failure or after `timeout` seconds.
    func connect(timeout: Double) throws {
        self.client.connect()
        try self.connection.wait(for: 1, until: deadline(in: timeout), what: "\(self.name): connect")
    }

    /// Subscribes to `channels` and blocks until `didSubscribeOnChannels:`; throws on a subscribe failure or after
    /// `timeout` seconds.
    func subscribe(_ channels: [PNChannel], timeout: Double) throws {
        self.client.subscribeOnChannels(channels)
        try self.subscription.wait(for: 1, until: deadline(in: timeout), what: "\(self.name): subscribe")
    }

    /// Disconnects and waits up to `timeout` seconds for `didDisconnectFromOrigin:` (a bench that is ending anyway
    /// does not fail on a slow disconnect).
    func disconnect(timeout: Double) {
        self.handle((nil, nil, nil))
        self.client.disconnect()
        try? self.disconnection.wait(for: 1, until: deadline(in: timeout), what: "\(self.name): disconnect")
    }

    /// Replaces the workload handlers; events delivered after this returns go to the new ones.
    func handle(_ handlers: Handlers) {
        self.queue.sync { self.handlers = handlers }
    }

    // MARK: - PNDelegate (on `queue`)

    func pubnubClient(_ client: PubNub, didConnectToOrigin: String) {
        self.connection.record(0)
    }

    func pubnubClient(_ client: PubNub, connectionDidFailWithError: PNError) {
        self.connection.fail("connection failed: \(connectionDidFailWithError.localizedDescription)")
    }

    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String) {
        self.disconnection.record(0)
    }

    func pubnubClient(_ client: PubNub, didDisconnectFromOrigin: String, withError: PNError) {
        self.disconnection.record(0)
        self.handlers.failed?("disconnected: \(withError.localizedDescription)")
    }

    func pubnubClient(_ client: PubNub, error: PNError) {
        self.connection.fail("client error \(error.code): \(error.localizedDescription)")
        self.handlers.failed?("client error \(error.code): \(error.localizedDescription)")
    }

    func pubnubClient(_ client: PubNub, didSubscribeOnChannels: [PNChannel]) {
        self.subscription.record(0)
    }

    func pubnubClient(_ client: PubNub, subscriptionDidFailWithError: PNError) {
        self.subscription.fail("subscribe failed: \(subscriptionDidFailWithError.localizedDescription)")
        self.handlers.failed?("subscribe failed: \(subscriptionDidFailWithError.localizedDescription)")
    }

    func pubnubClient(_ client: PubNub, didSendMessage: PNMessage) {
        self.handlers.sent?(didSendMessage)
    }

    func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage?, withError: PNError) {
        self.handlers.failed?("publish failed: \(withError.code) \(withError.localizedDescription)")
    }

    func pubnubClient(_ client: PubNub, didReceiveMessage: PNMessage) {
        self.handlers.received?(didReceiveMessage)
    }
}
