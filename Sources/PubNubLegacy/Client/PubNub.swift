/// The PubNub 3.4 client: the facade that ported code calls as `PubNub.connect()`, `PubNub.sendMessage(_:toChannel:)`
/// and so on, plus instances for several clients in one process (DESIGN.md §3).
///
/// Only the type exists here so that the model layer (block types, notifications) can name it; the facade's
/// methods are added by the engine work.
public final class PubNub: @unchecked Sendable {}  // @unchecked: no stored state yet
