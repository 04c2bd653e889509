// What a fault needs to know about a request: its operation (for scoping), its JSONP callback (fault answers are
// wrapped like the origin's, since 3.4.2 matches an answer to its request only through the callback name), and the
// channels and groups it names (for the 403 payload). Mirrors the origin's router (`OriginStore+Router.swift`) for
// the callback slots of the 3.4 path forms.

/// The facts about one request that fault injection uses.
struct FaultTarget: Sendable {
    /// The operation, for `OriginFaultScope.operations`.
    let operation: OriginOperation
    /// The JSONP callback name, when the request names one other than `0`.
    let callback: String?
    /// The channels the request names, in request order, as sent (`-pnpres` names included).
    let channels: [String]
    /// The channel groups of a `channel-group=` parameter.
    let groups: [String]

    init(_ rawTarget: String) {
        let target = RequestTarget(rawTarget)
        let segments = target.segments
        let second = segments.count > 1 ? segments[1] : ""
        var callbackIndex: Int?
        var channelIndex: Int?
        switch segments.first {
        case "time":
            self.operation = .time
            callbackIndex = 1
        case "publish":
            self.operation = .publish
            (callbackIndex, channelIndex) = (5, 4)
        case "subscribe":
            self.operation = .subscribe
            (callbackIndex, channelIndex) = (3, 2)
        case "history":
            self.operation = .history
            (callbackIndex, channelIndex) = (3, 2)
        case "v2" where second == "subscribe":
            self.operation = .subscribe
            (callbackIndex, channelIndex) = (4, 3)
        case "v2" where second == "presence":
            self.operation = .presence
            channelIndex = segments.count > 4 && segments[4] == "channel" ? 5 : nil
        case "v2" where second == "history", "v3" where second == "history":
            self.operation = .history
            channelIndex = 5
        default:
            self.operation = .other
        }
        var callback = target.parameter("callback")
        if let callbackIndex, let segment = target.segment(callbackIndex) { callback = segment }
        self.callback = callback.flatMap { $0.isEmpty || $0 == "0" ? nil : $0 }
        if let channelIndex, channelIndex < segments.count {
            self.channels = RequestTarget.list(segments[channelIndex])
        } else {
            self.channels = []
        }
        self.groups = target.listParameter("channel-group")
    }
}
