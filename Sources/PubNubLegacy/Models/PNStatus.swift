import Foundation

// 4.x-style statuses, an addition to the 3.4 surface (MIGRATION.md "Modernising a ported app"). 3.4 reported the
// state of the connection through a dozen separate callbacks; 4.x code switches on one status category. The client
// derives each status from the 3.4 events it already emits (`StatusAdapter`), so both views always agree.

/// The kind of a `PNStatus`: the 4.x status categories (`PNConnectedCategory`, `PNReconnectedCategory`, …) that
/// describe the connection and the running subscription, plus `bufferOverflow` for the `PubNubAsync` streams.
public enum PNStatusCategory: Int, Sendable, CaseIterable, CustomStringConvertible {
    /// The client connected to the origin (`didConnectToOrigin:`), not after a network loss.
    case connected
    /// The connection came back after a network loss, or the subscription was restored after a forced reconnect,
    /// a configuration change (hard reset) or the recovery of a failed long-poll (`didRestoreSubscriptionOnChannels:`).
    case reconnected
    /// The network was lost while connected (`willDisconnectWithError:`, code 103); the client reconnects on its
    /// own when the origin answers again.
    case unexpectedDisconnect
    /// A connection attempt failed because the origin could not be reached (code 102), or the subscription failed
    /// for lack of a connection (104, 105).
    case networkIssues
    /// A subscribe request timed out (code 106).
    case timeout
    /// The TLS handshake failed and the configuration does not allow a downgrade.
    case tlsConnectionFailed
    /// The origin refused the subscription for missing or wrong authorization (codes 112, 113).
    case accessDenied
    /// The origin's answer to the subscription could not be decoded (codes 126, 127).
    case malformedResponse
    /// One subscribe response carried at least `PNConfiguration.requestMessageCountThreshold` messages: after a
    /// long outage, messages may have been lost (code 200, `kPNRequestMessageCountExceededError`).
    case messageCountExceeded
    /// A received message could not be decrypted (code 119); it was delivered as `DECRYPTION_ERROR`.
    case decryptionError
    /// A user `disconnect` finished (`didDisconnectFromOrigin:`).
    case disconnected
    /// A `PubNubAsync` stream whose consumer fell behind dropped its oldest elements (`PNStatus.droppedCount` says
    /// how many). Never reported to `PNDelegate` or the notification: only the async streams buffer.
    case bufferOverflow
    /// Any other failure of the connection or the subscription (a configuration error, 101, a server refusal).
    case unknown

    /// The category's 4.x-style name, e.g. `"PNReconnectedCategory"`.
    public var description: String {
        switch self {
        case .connected: return "PNConnectedCategory"
        case .reconnected: return "PNReconnectedCategory"
        case .unexpectedDisconnect: return "PNUnexpectedDisconnectCategory"
        case .networkIssues: return "PNNetworkIssuesCategory"
        case .timeout: return "PNTimeoutCategory"
        case .tlsConnectionFailed: return "PNTLSConnectionFailedCategory"
        case .accessDenied: return "PNAccessDeniedCategory"
        case .malformedResponse: return "PNMalformedResponseCategory"
        case .messageCountExceeded: return "PNRequestMessageCountExceededCategory"
        case .decryptionError: return "PNDecryptionErrorCategory"
        case .disconnected: return "PNDisconnectedCategory"
        case .bufferOverflow: return "PNBufferOverflowCategory"
        case .unknown: return "PNUnknownCategory"
        }
    }

    /// The status category of a failure classified as `category`.
    init(_ category: PNErrorCategory) {
        switch category {
        case .networkIssues: self = .networkIssues
        case .timeout: self = .timeout
        case .tlsFailure: self = .tlsConnectionFailed
        case .unexpectedDisconnect: self = .unexpectedDisconnect
        case .reconnected: self = .reconnected
        case .accessDenied: self = .accessDenied
        case .malformedResponse: self = .malformedResponse
        case .decryptionError: self = .decryptionError
        case .messageCountExceeded: self = .messageCountExceeded
        case .unknown: self = .unknown
        }
    }
}

/// A change of the connection or the subscription, in 4.x terms; new in this package.
///
/// Delivered to `PNDelegate.pubnubClient(_:didReceiveStatus:)`, posted as `kPNClientDidReceiveStatusNotification`
/// (payload: this object) and yielded by `PubNubClient.statuses` in `PubNubAsync`. Immutable.
public final class PNStatus: NSObject, Sendable {
    /// What happened.
    public let category: PNStatusCategory

    /// The regular (non `-pnpres`) channels concerned: the subscribed channels for connection statuses, the
    /// failed or restored ones for subscription statuses, the stream's channel for `bufferOverflow` (empty for a
    /// stream of every channel); empty when no channel is concerned.
    public let affectedChannels: [PNChannel]

    /// The 3.4 error behind the status (code and text as the 3.4 callbacks report it); nil for `connected`,
    /// `reconnected`, `disconnected` and `bufferOverflow`.
    public let error: PNError?

    /// `bufferOverflow` only: how many elements this status reports as dropped (the counts of an overflow's
    /// statuses add up to everything it dropped); 0 for the other categories.
    public let droppedCount: Int

    /// True for the categories that report a failure or a loss (everything except `connected`, `reconnected` and
    /// `disconnected`).
    public var isError: Bool {
        switch self.category {
        case .connected, .reconnected, .disconnected: return false
        default: return true
        }
    }

    /// A status; the client creates them, and `PubNubAsync` creates `bufferOverflow` ones.
    package init(
        category: PNStatusCategory,
        affectedChannels: [PNChannel] = [],
        error: PNError? = nil,
        droppedCount: Int = 0
    ) {
        self.category = category
        self.affectedChannels = affectedChannels
        self.error = error
        self.droppedCount = droppedCount
    }

    /// `<PNStatus PNReconnectedCategory channels=[a, b]>`, with the error code or dropped count when there is one.
    public override var description: String {
        var text = "<PNStatus \(self.category) channels=[\(self.affectedChannels.map(\.name).joined(separator: ", "))]"
        if let error = self.error {
            text += " error=\(error.code)"
        }
        if self.category == .bufferOverflow {
            text += " dropped=\(self.droppedCount)"
        }
        return text + ">"
    }
}

extension Notification.Name {
    /// Posted for every `PNStatus` (an addition: 3.4 had no statuses), right after the 3.4 notification of the event
    /// it derives from. Payload: `PNStatus`. Constant name: `kPNClientDidReceiveStatusNotification`.
    public static let pnClientDidReceiveStatus = Notification.Name("PNClientDidReceiveStatusNotification")
}

/// `Notification.Name.pnClientDidReceiveStatus` under a 3.4-style constant name: posted for every `PNStatus`.
public let kPNClientDidReceiveStatusNotification = Notification.Name.pnClientDidReceiveStatus

extension PNDelegate {
    /// Does nothing; implement it to receive 4.x-style statuses.
    public func pubnubClient(_ client: PubNub, didReceiveStatus: PNStatus) {}
}
