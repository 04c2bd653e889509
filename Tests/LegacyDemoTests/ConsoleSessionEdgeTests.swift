import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Issue 31: console commands at their edges. A duration no clock can hold is refused with the command's usage (a
/// far `wait` used to crash the console); `quit` after a connect that failed for good ends at once (it waited 5 s
/// for a did-disconnect that never comes and printed a timeout); a refused identifier is reported as soon as the
/// client refuses it (the command waited the whole `--timeout` for the getter to change).
@Suite(.serialized, .holdsAThread)
struct ConsoleSessionEdgeTests {
    @Test func durationsNoClockCanHoldAreRefusedAndTheSessionGoesOn() throws {
        let (lines, status) = try ConsoleTranscript.session([
            "wait message 1e10",
            "wait presence inf",
            "wait message nan",
            "wait message 0.1",
            "time",
        ])
        #expect(status == 0, "\(lines.joined(separator: "\n"))")
        let refused = "error: wait takes a number of seconds from 0 to 31536000 (a year)"
        for command in ["wait message 1e10", "wait presence inf", "wait message nan"] {
            #expect(ConsoleTranscript.section(lines, command).first == refused, "\(command)")
        }
        #expect(
            ConsoleTranscript.section(lines, "wait message 0.1") == ["timeout wait message: none arrived in 0.1 s"]
        )
        #expect(ConsoleTranscript.section(lines, "time").contains { $0.hasPrefix("[block] time token=- error=105") })
        #expect(lines.last == "bye")
    }

    @Test func quitAfterAConnectThatFailedForGoodEndsWithoutWaiting() throws {
        // A bound port nobody listens on: every connect attempt is refused at once.
        let socket = LoopbackSocket.tcp()
        defer { close(socket) }
        #expect(LoopbackSocket.bind(socket, port: 0) == 0)
        let port = try #require(LoopbackSocket.localPort(socket))
        let (lines, status) = try ConsoleTranscript.session(
            ["connect", "quit"],
            arguments: ["--origin", "127.0.0.1:\(port)", "--publish-key", "p", "--subscribe-key", "s", "--insecure"]
        )
        #expect(status == 0, "\(lines.joined(separator: "\n"))")
        #expect(
            ConsoleTranscript.section(lines, "connect").contains { $0.hasPrefix("[block] connect failure error=102") },
            "\(lines.joined(separator: "\n"))"
        )
        #expect(!lines.contains { $0.hasPrefix("timeout") }, "\(lines.joined(separator: "\n"))")
        #expect(lines.last == "bye")
    }

    @Test func aRefusedIdentifierIsReportedAtOnce() throws {
        let tooLong = String(repeating: "u", count: 93)
        // A command that waited for its timeout would make the session outlive the test's 90 s.
        let (lines, status) = try ConsoleTranscript.session(
            ["config uuid \(tooLong)", "config uuid console-user"],
            arguments: ["--timeout", "600"]
        )
        #expect(status == 0, "\(lines.joined(separator: "\n"))")
        ConsoleTranscript.expectInOrder(
            ConsoleTranscript.section(lines, "config uuid \(tooLong)"),
            [
                "[delegate] error error=100",
                "[notification] PNClientErrorNotification error=100",
                "config uuid refused; still -",
            ],
            "refused uuid"
        )
        #expect(ConsoleTranscript.section(lines, "config uuid console-user").first == "config uuid console-user")
    }
}
