import PlatformSupport
import PubNubLegacy

/// The persistent registrations of one `PNObservationCenter` bucket: `(observer, block)` pairs in registration
/// order, safe to change from any thread, including from inside one of its own blocks.
///
/// Facts kept from 3.4.2's `PNObservationCenter.m`: every `add` appends a new entry, so registering the same
/// observer twice gives two entries that both fire; `remove` drops only the first entry whose observer is that
/// object; a delivery round walks a copy of the list. Differences (docs/DESIGN.md §4): observers are held weakly, and
/// an entry removed during a round is skipped for the rest of that round.
///
/// Rules for one delivery round (`forEachBlock`):
/// - the list is copied under the lock when the round starts; blocks are called with the lock released, so a
///   block may add or remove registrations of any bucket;
/// - an entry added during the round is not in the copy: it starts with the next event;
/// - an entry removed during the round (explicitly, or because its observer went away) is checked again under
///   the lock just before its turn and skipped, so it gets nothing more;
/// - the observer is held strongly only while its block runs, so it cannot go away half-way through a call.
///
/// An entry whose observer has gone away is skipped and pruned, and its block released, the next time the
/// table is touched (add, remove, count or a delivery).
///
/// No observer is ever loaded strongly while the lock is held, except one that the caller of `remove` keeps
/// alive anyway: releasing the last reference to an observer (or to a block) runs its `deinit`, which is user
/// code and must not run inside the lock. Removed blocks are likewise released after the lock is dropped.
final class ObserverTable<Block>: Sendable {
    /// One registration. `block == nil` marks an entry that was removed or pruned.
    private final class Entry: @unchecked Sendable {
        // @unchecked: `block` is read and written only inside `ObserverTable.entries.withLock`. `observer` is
        // written only by `init`, before the entry is published through that lock; Swift's weak loads are atomic,
        // so reading it from any thread afterwards is safe.
        weak var observer: AnyObject?
        let observerID: ObjectIdentifier
        var block: DeliveryBlock<Block>?

        init(observer: AnyObject, block: Block) {
            self.observer = observer
            self.observerID = ObjectIdentifier(observer)
            self.block = DeliveryBlock(block: block)
        }

        /// Marks the entry removed and hands back its block, so the caller can release it outside the lock.
        func takeBlock() -> DeliveryBlock<Block>? {
            defer { self.block = nil }
            return self.block
        }
    }

    private let entries = Locked<[Entry]>([])

    init() {}

    /// Appends a registration; a second registration of the same observer is a second entry.
    func add(_ observer: AnyObject, block: Block) {
        self.pruneDeadEntries()
        let entry = Entry(observer: observer, block: block)
        self.entries.withLock { $0.append(entry) }
    }

    /// Removes the first (oldest) live registration of `observer`, compared by identity.
    ///
    /// - Returns: Whether a registration was removed.
    @discardableResult
    func remove(_ observer: AnyObject) -> Bool {
        self.pruneDeadEntries()
        let id = ObjectIdentifier(observer)
        let released: DeliveryBlock<Block>? = self.entries.withLock { list in
            // Only an entry with the caller's object identifier is loaded; a live load then is the caller's own
            // object (a dead one at a reused address loads nil), so this strong reference is never the last one.
            guard let index = list.firstIndex(where: { $0.observerID == id && $0.observer != nil }) else {
                return nil
            }
            return list.remove(at: index).takeBlock()
        }
        return released != nil
    }

    /// Calls `invoke` with the block of every live registration, in registration order: one delivery round.
    ///
    /// Called on the delivery queue; `invoke` runs without the lock held.
    func forEachBlock(_ invoke: (Block) -> Void) {
        let snapshot = self.snapshot()
        var sawDeadEntry = false
        for entry in snapshot {
            guard let observer = entry.observer else {
                sawDeadEntry = true
                continue
            }
            guard let block = self.entries.withLock({ _ in entry.block }) else {
                continue
            }
            withExtendedLifetime(observer) {
                invoke(block.block)
            }
        }
        if sawDeadEntry {
            self.pruneDeadEntries()
        }
    }

    /// The number of registrations whose observer is still alive.
    var count: Int {
        self.pruneDeadEntries()
        return self.entries.withLock { $0.count }
    }

    /// A copy of the entry list in a buffer of its own.
    ///
    /// Not a copy-on-write share of the locked array: once the copy was released, the next `add` or `remove`
    /// would change that buffer in place, ordered after the copy's reads only by the reference count, which
    /// ThreadSanitizer cannot see (it reports such pairs in optimised builds).
    private func snapshot() -> [Entry] {
        self.entries.withLock { list in list.map { $0 } }
    }

    /// Drops the entries whose observer has gone away and releases their blocks, outside the lock.
    private func pruneDeadEntries() {
        // Weak loads happen on the copy, outside the lock, so a final release there runs no `deinit` inside it.
        // `dead` keeps the entries alive until the lock is dropped, so their identifiers cannot be reused by a
        // newly added entry in between.
        let dead = self.snapshot().filter { $0.observer == nil }
        guard !dead.isEmpty else {
            return
        }
        let deadIDs = Set(dead.map { ObjectIdentifier($0) })
        let released: [DeliveryBlock<Block>] = self.entries.withLock { list in
            var blocks: [DeliveryBlock<Block>] = []
            list.removeAll { entry in
                guard deadIDs.contains(ObjectIdentifier(entry)) else {
                    return false
                }
                if let block = entry.takeBlock() {
                    blocks.append(block)
                }
                return true
            }
            return blocks
        }
        withExtendedLifetime((dead, released)) {}
    }
}
