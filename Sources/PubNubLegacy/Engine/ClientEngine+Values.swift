import Foundation

// The small values the engine hands around: the getters' snapshot, and the boxes that carry closures between its
// queue, the transports and the delivery queue.

/// What the getters read from any thread, copied from the queue-confined state after each change.
struct ClientSnapshot: Sendable {
    var connected = false
    var uuid: String?
    /// The identifier of the latest `setClientIdentifier` (or configuration `uuid`) until the engine has applied
    /// it: the facade writes it before handing the change to the queue, so the getter returns the new value at once
    /// (read-your-writes, as 3.4's setter stored it synchronously).
    var requestedUUID: String?
    /// A copy of the configuration the app applied last (valid ones only), written by the facade at once.
    var configuration: PNConfiguration?
    /// Full names, `-pnpres` companions included.
    var subscribed: [String] = []
    /// The origin of the applied configuration.
    var origin: String?
}

/// Carries a queue-confined closure through a transport callback back to the queue.
// @unchecked: the closure is created on the client queue and called only on it (`ClientEngine.send`).
struct QueueBox<Value>: @unchecked Sendable {
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}

/// A subscription change waiting for the loop: what to emit when it completes or fails.
struct SubscriptionChange {
    var onSuccess: () -> Void
    var onFailure: (SubscribeFailure) -> Void
}

/// A user block held until it is called on the delivery queue.
// @unchecked: `block` is only ever called inside a `DeliveryBlock`, i.e. on the delivery queue.
struct UserBlock<Block>: @unchecked Sendable {
    let block: Block

    init?(_ block: Block?) {
        guard let block else { return nil }
        self.block = block
    }
}
