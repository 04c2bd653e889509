// The operations waiting for their turn (docs/BEHAVIOR.md §1.2): what `ClientEngine.submit` queues, what `pump`
// starts, and what leaves the queue without starting — a request whose timeout passed while it waited, a call the
// async overlay's caller cancelled, a call that found the queue full, and everything when the client is shut down.

/// What a call that never starts reports: its failure event (nil for calls without one) and its completion block.
struct Refusal {
    var event: ClientEvent?
    var block: DeliveryBlock?
}

/// An operation that was called and has not started. Queue-confined.
struct PendingOperation {
    let id: Int
    let name: String
    let pipelinable: Bool
    let start: (EngineOperation) -> Void
    /// The call's failure with `error`, without the operation starting; nil for internal operations. Its event goes
    /// to the listeners only when a live client refuses the call (the queue is full); when the client is shut down
    /// or the caller withdrew the call, the block runs alone.
    let refusal: ((PNError) -> Refusal)?
    /// Timers that run from the call (a request's deadline): cancelled when the call leaves the line without
    /// starting, handed to the operation when it starts.
    var timers: [any EngineTimer]
}

/// The waiting operations in the order they start: appended at the back (calls) or put at the front (the operations
/// the engine makes for itself), started from the front, removed from anywhere by id.
///
/// Removal at the front is O(1): a burst of calls can leave hundreds of thousands waiting, and `Array.removeFirst`
/// would move every one of them at each start. A removal by id leaves an empty slot that the front skips.
struct WaitingLine {
    private var slots: [PendingOperation?] = []
    /// The front: `slots[head]` holds an operation whenever the line is not empty.
    private var head = 0
    private(set) var count = 0

    var isEmpty: Bool { self.count == 0 }

    /// The operation that starts next.
    var first: PendingOperation? {
        self.isEmpty ? nil : self.slots[self.head]
    }

    mutating func append(_ operation: PendingOperation) {
        self.slots.append(operation)
        self.count += 1
        self.skipEmptySlots()
    }

    /// Puts `operation` before every waiting one.
    mutating func prepend(_ operation: PendingOperation) {
        if self.head > 0 {
            self.head -= 1
            self.slots[self.head] = operation
        } else {
            self.slots.insert(operation, at: 0)
        }
        self.count += 1
    }

    mutating func popFirst() -> PendingOperation? {
        guard let first = self.first else { return nil }
        self.slots[self.head] = nil
        self.count -= 1
        self.skipEmptySlots()
        return first
    }

    /// Takes operation `id` out of the line; nil when it is not waiting.
    mutating func remove(id: Int) -> PendingOperation? {
        guard let index = self.slots[self.head...].firstIndex(where: { $0?.id == id }) else { return nil }
        let removed = self.slots[index]
        self.slots[index] = nil
        self.count -= 1
        self.skipEmptySlots()
        return removed
    }

    /// Empties the line; returns its operations in order.
    mutating func removeAll() -> [PendingOperation] {
        let all = self.slots[self.head...].compactMap { $0 }
        self.slots = []
        self.head = 0
        self.count = 0
        return all
    }

    /// Moves the front past emptied slots, and drops the slots behind it once they are half the storage.
    private mutating func skipEmptySlots() {
        guard self.count > 0 else {
            self.slots.removeAll(keepingCapacity: self.slots.count <= 1_024)
            self.head = 0
            return
        }
        while self.slots[self.head] == nil {
            self.head += 1
        }
        if self.head >= 1_024 && self.head * 2 >= self.slots.count {
            self.slots.removeFirst(self.head)
            self.head = 0
        }
    }
}
