import Foundation

// What the engine's log lines say about its machines' actions and the transport's failures: short text a user can
// read in a log ("connect failed (network): The name … could not be resolved"), never Swift's dump of the value
// (`connectFailed(networkClass: true, …, Optional(PubNubLegacy.ConnectionWork(operation: …)))`).

extension ConnectionWork: CustomStringConvertible {
    /// The operation carrying the connect, by its name and number, as a log line shows it.
    var description: String {
        "\"\(self.operation.name)\" #\(self.operation.id)"
    }
}

extension ConnectionStateMachine.Action: CustomStringConvertible {
    var description: String {
        switch self {
        case .beginConnectAttempt:
            return "will connect: sending a connect attempt"
        case .submitAutomaticConnect:
            return "queueing an automatic connect"
        case .retryConnectAttempt(let delay):
            return "retrying the connect attempt in \(Self.seconds(delay))"
        case .connected(let work):
            return "connected" + Self.ending(work)
        case .connectedRestoring:
            return "connected; restoring the subscription"
        case .connectFailed(let networkClass, let clearsSubscription, let work):
            return "connect failed (\(networkClass ? "network" : "not a network condition"))"
                + (clearsSubscription ? "; subscription forgotten" : "; subscription kept for the restore")
                + Self.ending(work)
        case .deferConnect(let work):
            return "no network: the client connects by itself once the origin answers" + Self.ending(work)
        case .beginNetworkLoss:
            return "network lost: failing requests in flight"
        case .finishNetworkLoss:
            return "network lost: disconnected"
        case .askReconnect:
            return "asking whether to reconnect"
        case .scheduleProbe:
            return "probing the origin every few seconds"
        }
    }

    private static func ending(_ work: ConnectionWork?) -> String {
        work.map { "; ends \($0)" } ?? ""
    }

    static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

extension SubscribeLoop.StateMachine.Request: CustomStringConvertible {
    /// The request number, its channels, its cursor and its kind: handshake, catch-up or long-poll.
    var description: String {
        let cursor = self.cursor.map { "tt=\($0.timetoken)" + ($0.region.map { " tr=\($0)" } ?? "") } ?? "tt=0"
        let wait: String
        switch self.wait {
        case .handshake: wait = "handshake"
        case .settle: wait = "catch-up"
        case .idle: wait = "long-poll"
        }
        return "#\(self.id) \(self.channels.joined(separator: ",")) \(cursor) (\(wait))"
    }
}

extension SubscribeLoop.StateMachine.Action: CustomStringConvertible {
    var description: String {
        switch self {
        case .cancelInFlight: return "cancelling the subscribe request in flight"
        case .send(let request): return "sending subscribe \(request)"
        case .deliverEvents: return "delivering the answer's events"
        case .messageCountExceeded(let count): return "\(count) messages in one answer: reporting the overflow"
        case .changeCompleted(let op): return "channel change of #\(op) in effect"
        case .changeFailed(let op, let failure): return "channel change of #\(op) failed: \(failure)"
        case .restored(let channels): return "restored \(channels.joined(separator: ","))"
        case .restoreAbandoned: return "restore abandoned"
        case .loopFailed(let channels, let failure):
            return "subscribe on \(channels.joined(separator: ",")) failed: \(failure)"
        case .checkConnection: return "checking the origin after a transport failure"
        case .startRecovery: return "probing the origin until it answers, then restoring"
        case .scheduleIdleRestart: return "restarting after the idle interval"
        }
    }
}

extension SubscribeFailure: CustomStringConvertible {
    var description: String {
        switch self {
        case .timeout: return "no answer within the subscription timeout"
        case .response(let failure): return "\(failure)"
        case .transport(let failure): return "\(failure)"
        case .connectionLost: return "the connection was lost"
        }
    }
}

extension TransportFailure: CustomStringConvertible {
    /// The failure as a user reads it: what happened, in the transport's own words where it has them.
    var description: String {
        switch self {
        case .cancelled: return "cancelled"
        case .timedOut: return "timed out"
        case .network(let code, let text): return "\(text) (network error \(code))"
        case .tls(let code, let text): return "\(text) (TLS error \(code))"
        case .other(let domain, let code, let text): return "\(text) (\(domain) \(code))"
        case .responseTooLarge(let why): return "response too large: \(why)"
        }
    }
}

extension ResponseFailure: CustomStringConvertible {
    var description: String {
        switch self {
        case .accessDenied(let status, let message, let channels):
            return "access denied (HTTP \(status))" + (message.map { ": \($0)" } ?? "")
                + (channels.isEmpty ? "" : " on \(channels.joined(separator: ","))")
        case .serverMessage(let text, let status): return "the origin refused it (HTTP \(status)): \(text)"
        case .notUTF8: return "the answer is not UTF-8"
        case .malformedJSON: return "the answer is not the JSON expected"
        case .malformedField(let reason): return "the answer is JSON, but \(reason)"
        case .unexpectedStatus(let status): return "unexpected HTTP status \(status)"
        }
    }
}
