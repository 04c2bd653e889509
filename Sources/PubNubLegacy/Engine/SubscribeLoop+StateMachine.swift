// The decisions of the v2 subscribe loop (docs/BEHAVIOR.md §3): which channels and which cursor the next request
// carries, when a change of the channel list completes, and how failures are handled. No I/O, clocks or queues:
// `SubscribeLoop` carries out the returned actions in order and tests drive this struct directly.

extension SubscribeLoop {
    /// The loop's decisions; see the file comment.
    struct StateMachine: Equatable {
        /// Malformed answers are re-requested at most this many attempts in total (docs/BEHAVIOR.md §3.8).
        static let maximumMalformedAttempts = 3
        /// Consecutive transport failures with a reachable origin before the loop is declared failed.
        static let maximumTransportRetries = 3

        private(set) var channels: [String] = []
        private(set) var cursor: Cursor?
        private(set) var phase: Phase = .idle
        private var nextRequestID = 0
        private var change: Change?
        private var malformedAttempts = 0
        private var transportFailures = 0

        /// A pending channel-list change and what to roll back to.
        private struct Change: Equatable {
            var op: Int
            var union: [String]
            var previousChannels: [String]
            var previousCursor: Cursor?
            /// Cursor to continue from after the handshake (`keepTimeTokenOnListChange`), nil = handshake's own.
            var continueFrom: Cursor?
        }

        /// The request in flight, if any.
        var requestInFlight: Int? {
            switch self.phase {
            case .polling(let id), .changing(let id), .restoring(let id): return id
            case .idle, .suspended, .stopped: return nil
            }
        }

        // MARK: - Channel-list changes

        /// Adds `adding` (full names, `-pnpres` companions included) for operation `op`.
        ///
        /// - Parameters:
        ///   - withPresenceEvent: true: handshake (`tt=0`) so the origin registers the new channels; false: continue
        ///     from the current cursor without a handshake (3.4 `withPresenceEvent:NO`).
        ///   - keepTimeToken: `keepTimeTokenOnListChange`: after the handshake continue from the previous cursor.
        ///   - continuingFrom: a cursor to keep instead of the current one (soft reset: the list was just emptied).
        mutating func subscribe(
            op: Int,
            adding: [String],
            withPresenceEvent: Bool,
            keepTimeToken: Bool,
            continuingFrom: Cursor? = nil
        ) -> [Action] {
            let added = Self.unique(adding.filter { !self.channels.contains($0) })
            if added.isEmpty {
                return [.changeCompleted(op: op)]
            }
            let union = self.channels + added
            var actions = self.cancelIfInFlight()
            let base = continuingFrom ?? self.cursor
            if !withPresenceEvent, let base, base.timetoken != 0 {
                self.channels = union
                self.cursor = base
                actions.append(.send(self.makeRequest(cursor: base, wait: .idle, phase: { .polling(request: $0) })))
                actions.append(.changeCompleted(op: op))
                return actions
            }
            let keep = (keepTimeToken || !withPresenceEvent) ? base.flatMap { $0.timetoken == 0 ? nil : $0 } : nil
            self.change = Change(
                op: op,
                union: union,
                previousChannels: self.channels,
                previousCursor: self.cursor,
                continueFrom: keep
            )
            actions.append(
                .send(self.makeRequest(channels: union, cursor: nil, wait: .handshake) { .changing(request: $0) })
            )
            return actions
        }

        /// How an unsubscribe made while the connection is in `connection` is carried out (docs/DESIGN.md A3).
        static func unsubscribeRoute(connection: ConnectionStateMachine.State) -> UnsubscribeRoute {
            switch connection {
            case .connected:
                return .online
            case .disconnectedOnNetworkError, .disconnectingOnNetworkError:
                // After a network loss the channels leave the restore list at once; no leave is sent.
                return .restoreListOnly
            case .created, .connecting, .disconnecting, .disconnectingOnConfigurationChange, .disconnected, .reset:
                return .refused
            }
        }

        /// Removes `removing` (full names). Returns the names that were subscribed; no leave is decided here.
        mutating func unsubscribe(removing: [String]) -> (removed: [String], actions: [Action]) {
            let removed = self.channels.filter { removing.contains($0) }
            guard !removed.isEmpty else { return ([], []) }
            self.channels.removeAll { removing.contains($0) }
            if self.channels.isEmpty {
                self.cursor = nil
            }
            switch self.phase {
            case .suspended:
                return (removed, [])
            case .idle, .polling, .changing, .restoring, .stopped:
                var actions = self.cancelIfInFlight()
                actions += self.continuePolling()
                return (removed, actions)
            }
        }

        /// Drops the whole list locally (user disconnect, restore with resubscribe disabled). Returns it.
        mutating func removeAll() -> (removed: [String], actions: [Action]) {
            let removed = self.channels
            var actions = self.cancelIfInFlight()
            if let change = self.change {
                self.change = nil
                actions.append(.changeFailed(op: change.op, .connectionLost))
            }
            self.channels = []
            self.cursor = nil
            self.phase = .idle
            self.malformedAttempts = 0
            self.transportFailures = 0
            return (removed, actions)
        }

        // MARK: - Answers

        /// A subscribe request answered with a cursor and `messageCount` events.
        mutating func responseReceived(
            request: Int,
            cursor next: Cursor,
            messageCount: Int,
            messageCountThreshold: Int
        ) -> [Action] {
            guard request == self.requestInFlight else { return [] }
            self.malformedAttempts = 0
            self.transportFailures = 0
            var actions: [Action] = []
            if messageCountThreshold > 0 && messageCount >= messageCountThreshold {
                actions.append(.messageCountExceeded(count: messageCount))
            }
            if messageCount > 0 {
                actions.append(.deliverEvents)
            }
            switch self.phase {
            case .changing:
                let change = self.change
                self.change = nil
                if let change { self.channels = change.union }
                let continued = change?.continueFrom ?? next
                self.cursor = continued
                actions.append(.send(self.makeRequest(cursor: continued, wait: .idle) { .polling(request: $0) }))
                if let change { actions.append(.changeCompleted(op: change.op)) }
            case .restoring:
                self.cursor = next
                actions.append(.send(self.makeRequest(cursor: next, wait: .idle) { .polling(request: $0) }))
                actions.append(.restored(channels: self.channels))
            case .polling:
                self.cursor = next
                actions.append(.send(self.makeRequest(cursor: next, wait: .idle) { .polling(request: $0) }))
            case .idle, .suspended, .stopped:
                return []
            }
            return actions
        }

        /// A subscribe request failed.
        mutating func requestFailed(request: Int, _ failure: SubscribeFailure) -> [Action] {
            guard request == self.requestInFlight else { return [] }
            switch self.phase {
            case .changing:
                return self.changeFailed(failure)
            case .restoring:
                return self.loopFailed(failure, restoring: true)
            case .polling:
                return self.loopFailed(failure, restoring: false)
            case .idle, .suspended, .stopped:
                return []
            }
        }

        /// A catch-up restore had its moment without an answer: it is now the running long-poll.
        mutating func restoreSettled(request: Int) -> [Action] {
            guard case .restoring(let id) = self.phase, id == request else { return [] }
            self.phase = .polling(request: id)
            return [.restored(channels: self.channels)]
        }

        /// The answer to `.checkConnection` when the origin still answers: retry the same cursor.
        mutating func connectionChecked() -> [Action] {
            guard self.phase == .stopped, !self.channels.isEmpty else { return [] }
            self.transportFailures += 1
            if self.transportFailures > Self.maximumTransportRetries {
                self.transportFailures = 0
                return [.loopFailed(channels: self.channels, .connectionLost), .startRecovery]
            }
            return self.continuePolling()
        }

        /// The idle interval passed: re-issue the subscription with the last cursor, without events.
        mutating func idleTimerFired(catchUp: Bool) -> [Action] {
            switch self.phase {
            case .polling, .stopped:
                guard !self.channels.isEmpty else { return [] }
                var actions = self.cancelIfInFlight()
                if !catchUp { self.cursor = nil }
                actions += self.continuePolling()
                return actions
            case .idle, .changing, .restoring, .suspended:
                return []
            }
        }

        /// The request in flight is still unanswered `subscribeMaximumIdleTime` after it was sent, however many bytes
        /// of its answer have trickled in. A running long-poll is given up and re-issued as after the idle timer
        /// (docs/BEHAVIOR.md §3.3): silently, from the kept cursor (token 0 without catch-up). A handshake or a restore
        /// still waiting has its own timers and is left to them.
        mutating func deadlinePassed(request: Int, catchUp: Bool) -> [Action] {
            guard case .polling(let id) = self.phase, id == request else { return [] }
            return self.idleTimerFired(catchUp: catchUp)
        }

        // MARK: - Connection

        /// The connection was lost: cancel the poll, fail a pending change, keep the list for the restore.
        mutating func connectionLost() -> [Action] {
            var actions = self.cancelIfInFlight()
            if let change = self.change {
                self.change = nil
                self.channels = change.previousChannels
                self.cursor = change.previousCursor
                actions.append(.changeFailed(op: change.op, .connectionLost))
            }
            if case .restoring = self.phase {
                actions.append(.restoreAbandoned)
            }
            self.phase = self.channels.isEmpty ? .idle : .suspended
            return actions
        }

        /// Re-issues the kept list after a reconnect, hard reset or recovery. `catchUp`: continue from the last
        /// cursor (messages of the outage are delivered before `restored`); otherwise handshake from 0.
        mutating func restore(catchUp: Bool) -> [Action] {
            guard !self.channels.isEmpty else {
                self.phase = .idle
                return []
            }
            var actions = self.cancelIfInFlight()
            self.malformedAttempts = 0
            self.transportFailures = 0
            if catchUp, let cursor = self.cursor, cursor.timetoken != 0 {
                actions.append(.send(self.makeRequest(cursor: cursor, wait: .settle) { .restoring(request: $0) }))
            } else {
                self.cursor = nil
                actions.append(.send(self.makeRequest(cursor: nil, wait: .handshake) { .restoring(request: $0) }))
            }
            return actions
        }

        // MARK: - Helpers

        private mutating func changeFailed(_ failure: SubscribeFailure) -> [Action] {
            guard let change = self.change else { return [] }
            self.change = nil
            self.channels = change.previousChannels
            self.cursor = change.previousCursor
            self.phase = .stopped
            var actions: [Action] = [.changeFailed(op: change.op, failure)]
            switch failure {
            case .timeout, .connectionLost, .transport(.responseTooLarge):
                actions += self.continuePolling()
            case .transport:
                if !self.channels.isEmpty { actions.append(.checkConnection) }
            case .response(.accessDenied), .response(.serverMessage):
                if !self.channels.isEmpty { actions.append(.scheduleIdleRestart) }
            case .response:
                actions += self.continuePolling()
            }
            return actions
        }

        private mutating func loopFailed(_ failure: SubscribeFailure, restoring: Bool) -> [Action] {
            self.phase = .stopped
            let abandon: [Action] = restoring ? [.restoreAbandoned] : []
            switch failure {
            case .transport(.timedOut):
                // The 310 s idle timeout of a parked long-poll: re-issue silently (docs/BEHAVIOR.md §3.3).
                return abandon + self.continuePolling()
            case .transport(.responseTooLarge), .response(.malformedJSON), .response(.malformedField),
                .response(.notUTF8):
                self.malformedAttempts += 1
                if self.malformedAttempts < Self.maximumMalformedAttempts {
                    return abandon + self.continuePolling()
                }
                self.malformedAttempts = 0
                return [.loopFailed(channels: self.channels, failure)] + abandon + [.startRecovery]
            case .transport, .connectionLost:
                return abandon + [.checkConnection]
            case .response(.serverMessage(_, let status)) where status >= 500:
                // A 5xx is the origin failing, not refusing: its error payload names the failure, but the loop
                // recovers like any unknown non-200 (docs/BEHAVIOR.md §3.8, S-42) instead of waiting 310 s.
                return [.loopFailed(channels: self.channels, failure)] + abandon + [.startRecovery]
            case .response(.accessDenied), .response(.serverMessage):
                return [.loopFailed(channels: self.channels, failure)] + abandon + [.scheduleIdleRestart]
            case .response(.unexpectedStatus), .timeout:
                return [.loopFailed(channels: self.channels, failure)] + abandon + [.startRecovery]
            }
        }

        /// Sends the next long-poll for the current list and cursor, or goes idle when the list is empty.
        private mutating func continuePolling() -> [Action] {
            guard !self.channels.isEmpty else {
                self.phase = .idle
                return []
            }
            let wait: Wait = self.cursor == nil ? .handshake : .idle
            return [.send(self.makeRequest(cursor: self.cursor, wait: wait) { .polling(request: $0) })]
        }

        private mutating func cancelIfInFlight() -> [Action] {
            guard self.requestInFlight != nil else { return [] }
            self.phase = .idle
            return [.cancelInFlight]
        }

        private mutating func makeRequest(
            channels: [String]? = nil,
            cursor: Cursor?,
            wait: Wait,
            phase: (Int) -> Phase
        ) -> Request {
            self.nextRequestID += 1
            let id = self.nextRequestID
            self.phase = phase(id)
            return Request(id: id, channels: channels ?? self.channels, cursor: cursor, wait: wait)
        }

        private static func unique(_ names: [String]) -> [String] {
            var seen = Set<String>()
            return names.filter { seen.insert($0).inserted }
        }
    }
}
