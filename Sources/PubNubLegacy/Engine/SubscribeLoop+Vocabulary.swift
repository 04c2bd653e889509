// The vocabulary of the subscribe loop's machine (`SubscribeLoop.StateMachine`): its cursor, its failures, its
// phases, the requests it decides and the actions it returns.

/// A subscribe cursor: the timetoken and its region (`tt` / `tr`).
struct Cursor: Equatable, Sendable {
    var timetoken: UInt64
    var region: Int?
}

/// Why a subscribe request did not produce events.
enum SubscribeFailure: Error, Equatable, Sendable {
    /// The observed handshake did not answer within `subscriptionRequestTimeout` (106).
    case timeout
    /// The origin answered with an error or an unreadable body.
    case response(ResponseFailure)
    /// No HTTP answer.
    case transport(TransportFailure)
    /// The connection was lost or closed while the request was pending.
    case connectionLost
}

extension SubscribeLoop.StateMachine {
    /// Where the loop is.
    enum Phase: Equatable {
        /// Nothing is being requested (no channels, or not started).
        case idle
        /// An unobserved long-poll is in flight.
        case polling(request: Int)
        /// An observed handshake for a channel-list change is in flight.
        case changing(request: Int)
        /// The first request after a reconnect is in flight; `didRestore` follows its answer or its settling.
        case restoring(request: Int)
        /// The connection is down; the channel list is kept for the restore.
        case suspended
        /// The loop stopped after a failure; a user call, the idle timer or a recovery restarts it.
        case stopped
    }

    /// What bounds a request's wait.
    enum Wait: Equatable {
        /// Observed: fails with 106 after `subscriptionRequestTimeout`.
        case handshake
        /// A catch-up restore: treated as issued long-poll once it has had a moment to answer.
        case settle
        /// A long-poll: only its overall deadline, `subscribeMaximumIdleTime` (310 s) after it was sent.
        case idle
    }

    /// How an unsubscribe is carried out (docs/DESIGN.md A3).
    enum UnsubscribeRoute: Equatable {
        /// Connected: the channels leave the subscription, the loop re-polls, a leave may follow.
        case online
        /// After a network loss: the channels leave the kept list at once and the call succeeds; no request.
        case restoreListOnly
        /// Never connected or disconnected by the user: the call fails its pre-flight.
        case refused
    }

    /// A subscribe request to send.
    struct Request: Equatable {
        var id: Int
        var channels: [String]
        /// nil means `tt=0` (handshake).
        var cursor: Cursor?
        var wait: Wait
    }

    /// Side effects, in order.
    enum Action: Equatable {
        /// Cancel the subscribe request in flight (its answer will be ignored).
        case cancelInFlight
        case send(Request)
        /// Deliver the events of the answer just received, in array order.
        case deliverEvents
        /// Emit the message-count-exceeded error before the events (docs/BEHAVIOR.md §3.9).
        case messageCountExceeded(count: Int)
        /// The channel-list change of operation `op` is in effect.
        case changeCompleted(op: Int)
        /// The change of operation `op` failed; the previous list is kept.
        case changeFailed(op: Int, SubscribeFailure)
        /// A restore finished: emit did-restore for these channels.
        case restored(channels: [String])
        /// A restore could not finish; the loop failed instead (a `loopFailed` precedes it).
        case restoreAbandoned
        /// The running loop failed outside any operation (`subscriptionDidFailWithError:`).
        case loopFailed(channels: [String], SubscribeFailure)
        /// A transport failure: check the origin; answer with `connectionChecked(reachable:)`.
        case checkConnection
        /// Probe the origin every 10 s and call `restore` after the first success (docs/BEHAVIOR.md §3.8).
        case startRecovery
        /// Restart the loop after the idle interval (stopped by an error payload / access denied).
        case scheduleIdleRestart
    }
}
