import Foundation
import TestSupport
import Testing

@testable import LocalOrigin

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Android)
import Android
#elseif canImport(Darwin)
import Darwin
#endif

// Shared pieces of the fault tests: a started origin per test, one-shot requests over fresh raw-socket connections,
// and probes of what a client sees at the socket level (refused connects, silence, end of stream).

/// Starts an origin on 127.0.0.1 with a kernel-chosen port, runs `body`, and stops the origin afterwards.
func withOrigin<Result>(
    _ configure: (inout LocalOrigin.Configuration) -> Void = { _ in },
    _ body: (LocalOrigin) throws -> Result
) throws -> Result {
    var configuration = LocalOrigin.Configuration()
    configure(&configuration)
    let origin = try LocalOrigin.start(configuration)
    defer { origin.stop() }
    return try body(origin)
}

extension HTTPTestClient {
    /// Sends a keep-alive GET for `target` without reading the answer.
    func sendGet(_ target: String) throws {
        try self.send("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: */*\r\n\r\n")
    }

    /// Sends a keep-alive GET for `target` and reads its answer.
    func get(_ target: String, within timeout: Duration = .seconds(10)) throws -> HTTPTestResponse {
        try self.sendGet(target)
        return try self.readResponse(within: timeout)
    }

    /// True when at least one byte (or the end of stream) arrives within `window`. Used to show that nothing was
    /// sent: the window bounds a negative check, it never orders events.
    func hasInput(within window: Duration) -> Bool {
        var descriptor = pollfd(fd: self.fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            window.components.seconds * 1000 + window.components.attoseconds / 1_000_000_000_000_000
        )
        return poll(&descriptor, 1, milliseconds) > 0
    }
}

/// One GET on a fresh connection to `origin`.
func get(_ origin: LocalOrigin, _ target: String) throws -> HTTPTestResponse {
    try HTTPTestClient(port: origin.port).get(target)
}

/// The `errno` of a TCP connect to 127.0.0.1:`port` (0 when it connects).
func connectError(port: UInt16) -> Int32 {
    let fd = LoopbackSocket.tcp()
    guard fd >= 0 else { return errno }
    defer { close(fd) }
    return LoopbackSocket.connect(fd, port: port)
}

/// The body parsed as JSON (inside `callback(…)` when given).
func json(_ response: HTTPTestResponse, callback: String? = nil) throws -> Any {
    var text = response.bodyText
    if let callback {
        guard text.hasPrefix(callback + "("), text.hasSuffix(")") else {
            throw HTTPTestError("not wrapped in \(callback)(…): \(text)")
        }
        text = String(text.dropFirst(callback.count + 1).dropLast())
    }
    return try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
}

/// Publishes the JSON string `"text"` on `channel` over a fresh connection; returns the acknowledged timetoken.
func publish(_ origin: LocalOrigin, _ text: String, on channel: String) throws -> UInt64 {
    let response = try get(origin, "/publish/pub/sub/0/\(channel)/0/%22\(text)%22?uuid=publisher")
    guard response.status == 200, let array = try json(response) as? [Any], let token = array.last as? String,
        let timetoken = UInt64(token)
    else { throw HTTPTestError("publish failed: \(response.statusLine) \(response.bodyText)") }
    return timetoken
}

/// The origin's current time as a subscribe cursor.
func currentTimetoken(_ origin: LocalOrigin) throws -> UInt64 {
    guard let array = try json(try get(origin, "/time/0")) as? [NSNumber], let first = array.first else {
        throw HTTPTestError("no timetoken")
    }
    return first.uint64Value
}

/// The messages (as strings) and the next cursor of a v1 subscribe answer `[[…],"tt"(,"channels")]`.
func subscribeAnswer(_ response: HTTPTestResponse) throws -> (messages: [String], cursor: UInt64) {
    guard let array = try json(response) as? [Any], array.count >= 2, let messages = array[0] as? [Any],
        let token = array[1] as? String, let cursor = UInt64(token)
    else { throw HTTPTestError("not a subscribe answer: \(response.bodyText)") }
    return (messages.map { "\($0)" }, cursor)
}

/// The message payloads (as strings) of a v2 history answer `[[…],start,end]`.
func historyMessages(_ origin: LocalOrigin, _ channel: String) throws -> [String] {
    let response = try get(origin, "/v2/history/sub-key/sub/channel/\(channel)")
    guard let array = try json(response) as? [Any], let messages = array.first as? [Any] else {
        throw HTTPTestError("not a history answer: \(response.bodyText)")
    }
    return messages.map { "\($0)" }
}
