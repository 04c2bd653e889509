/// An observer's block, carried from the thread that registered it to the delivery queue that calls it.
///
/// The 3.4 block types are plain closures, not `@Sendable`, so that ported code which captures and mutates its
/// own state compiles (docs/DESIGN.md §3). This box is the one place where such a closure crosses threads.
struct DeliveryBlock<Block>: @unchecked Sendable {
    // @unchecked: the closure is stored from any thread but only ever called on the delivery queue of the client
    // the center observes (the adapter calls `PNObservationCenter.deliver…` there and nowhere else), so the state
    // it captures is touched by one queue at a time, as in 3.4 where every block ran on the main thread.
    let block: Block
}
