import Foundation
import TestSupport
import Testing

/// `LegacyDemo console` driven as scripts drive it: commands piped into the built binary, its transcript read back.
@Suite(.serialized, .holdsAThread)
struct ConsoleSessionTests {
    @Test func pipedSessionOnTheEmbeddedOriginShowsEveryChannelInOrder() throws {
        let (lines, status) = try ConsoleTranscript.session([
            "connect",
            "presence on a",
            "subscribe a --presence",
            "wait presence",
            "publish a hello",
            "wait message",
            "publish a --json {\"k\": [1, true]}",
            "wait message",
            "history a",
            "herenow a",
            "status",
            "unsubscribe a --presence",
            "disconnect",
        ])
        #expect(status == 0, "\(lines.joined(separator: "\n"))")
        let origin = try #require(lines.first { $0.hasPrefix("embedded origin listening on 127.0.0.1:") })
        let address = String(origin.dropFirst("embedded origin listening on ".count))

        ConsoleTranscript.expectInOrder(
            ConsoleTranscript.section(lines, "connect"),
            [
                "[delegate] willConnectToOrigin origin=\(address)",
                "[notification] PNClientWillConnectToOriginNotification origin=\(address)",
                "[delegate] didConnectToOrigin origin=\(address)",
                "[observer] connectionState origin=\(address) connected=true error=-",
                "[notification] PNClientDidConnectToOriginNotification origin=\(address)",
                "[block] connect success origin=\(address)",
            ],
            "connect"
        )
        ConsoleTranscript.expectInOrder(
            ConsoleTranscript.section(lines, "presence on a"),
            [
                "[delegate] didEnablePresenceObservationOnChannels channels=a",
                "[observer] presenceEnabling channels=a error=-",
                "[notification] PNClientPresenceEnablingDidCompleteNotification channels=a",
                "[block] presence on channels=a error=-",
            ],
            "presence on"
        )
        ConsoleTranscript.expectInOrder(
            ConsoleTranscript.section(lines, "subscribe a --presence"),
            [
                "[delegate] didSubscribeOnChannels channels=a",
                "[observer] subscriptionState state=subscribed channels=a error=-",
                "[notification] PNClientSubscriptionDidCompleteNotification channels=a",
                "[block] subscribe state=subscribed channels=a error=-",
            ],
            "subscribe"
        )
        // Our own join arrives on the presence channel (no block: presence events have none), before `wait` returns.
        let afterSubscribe = Array(lines.drop { $0 != "> subscribe a --presence" })
        let beforePublish = Array(afterSubscribe.prefix { $0 != "> publish a hello" })
        ConsoleTranscript.expectInOrder(
            beforePublish,
            [
                "[delegate] didReceivePresenceEvent channel=a type=join uuid=",
                "[observer] presenceEvent channel=a type=join uuid=",
                "[notification] PNClientDidReceivePresenceEventNotification channel=a type=join uuid=",
            ],
            "presence event"
        )
        #expect(!lines.contains { $0.hasPrefix("[block] ") && $0.contains("type=join") })

        ConsoleTranscript.expectInOrder(
            ConsoleTranscript.section(lines, "publish a hello"),
            [
                "[delegate] willSendMessage channel=a message=\"hello\"",
                "[observer] messageProcessing state=sending channel=a message=\"hello\"",
                "[notification] PNClientWillSendMessageNotification channel=a message=\"hello\"",
                "[block] publish state=sending channel=a message=\"hello\"",
                "[delegate] didSendMessage channel=a message=\"hello\"",
                "[observer] messageProcessing state=sent channel=a message=\"hello\"",
                "[notification] PNClientDidSendMessageNotification channel=a message=\"hello\"",
                "[block] publish state=sent channel=a message=\"hello\"",
            ],
            "publish text"
        )
        let json = "{\"k\":[1,true]}"
        ConsoleTranscript.expectInOrder(
            ConsoleTranscript.section(lines, "publish a --json {\"k\": [1, true]}"),
            [
                "[delegate] willSendMessage channel=a message=\(json)",
                "[delegate] didSendMessage channel=a message=\(json)",
                "[observer] messageProcessing state=sent channel=a message=\(json)",
                "[notification] PNClientDidSendMessageNotification channel=a message=\(json)",
                "[block] publish state=sent channel=a message=\(json)",
            ],
            "publish JSON"
        )
        // Each message is received once per channel (no block: received messages have none), in publish order,
        // before the history request.
        let beforeHistory = Array(lines.prefix { $0 != "> history a" })
        for message in ["\"hello\"", json] {
            for prefix in [
                "[delegate] didReceiveMessage channel=a message=\(message)",
                "[observer] messageReceive channel=a message=\(message)",
                "[notification] PNClientDidReceiveMessageNotification channel=a message=\(message)",
            ] {
                #expect(ConsoleTranscript.count(beforeHistory, prefix) == 1, "\(prefix)")
                #expect(ConsoleTranscript.count(lines, prefix) == 1, "\(prefix)")
            }
        }
        ConsoleTranscript.expectInOrder(
            beforeHistory,
            [
                "[delegate] didReceiveMessage channel=a message=\"hello\"",
                "[delegate] didReceiveMessage channel=a message=\(json)",
            ],
            "receive order"
        )
        // Each `wait` names what it reports — also when the event was printed before the wait began.
        let waits = lines.filter { $0.hasPrefix("wait ") }
        #expect(waits.count == 3, "\(waits)")
        #expect(waits.first?.hasPrefix("wait presence: channel=a type=join uuid=") == true, "\(waits)")
        #expect(waits.dropFirst().first?.hasPrefix("wait message: channel=a message=\"hello\" (arrived ") == true)
        #expect(waits.last?.hasPrefix("wait message: channel=a message=\(json) (arrived ") == true, "\(waits)")

        let page = "count=2 messages=[\"hello\",\(json)]"
        let history = ConsoleTranscript.section(lines, "history a")
        ConsoleTranscript.expectInOrder(
            history,
            [
                "[delegate] didReceiveMessageHistory channel=a start=",
                "[observer] messageHistory channel=a start=",
                "[notification] PNClientDidReceiveMessagesHistoryNotification channel=a start=",
                "[block] history channel=a start=",
            ],
            "history"
        )
        #expect(history.filter { $0.contains(page) }.count == 4, "\(history)")

        let hereNow = ConsoleTranscript.section(lines, "herenow a")
        ConsoleTranscript.expectInOrder(
            hereNow,
            [
                "[delegate] didReceiveParticipantsList channel=a count=1 uuids=",
                "[observer] participantsList channel=a count=1 uuids=",
                "[notification] PNClientDidReceiveParticipantsListNotification channel=a count=1 uuids=",
                "[block] herenow channel=a count=1 uuids=",
            ],
            "herenow"
        )
        let statusLines = ConsoleTranscript.section(lines, "status").filter { $0.hasPrefix("status ") }
        #expect(statusLines.count == 1)
        #expect(
            statusLines.first?.hasPrefix("status connection=connected subscribed=1 channels=a occupancy=a:1 uuid=")
                == true
        )

        ConsoleTranscript.expectInOrder(
            ConsoleTranscript.section(lines, "unsubscribe a --presence"),
            [
                "[delegate] didUnsubscribeOnChannels channels=a",
                "[observer] unsubscription channels=a error=-",
                "[notification] PNClientUnsubscriptionDidCompleteNotification channels=a",
                "[block] unsubscribe channels=a error=-",
            ],
            "unsubscribe"
        )
        let disconnect = ConsoleTranscript.section(lines, "disconnect")
        ConsoleTranscript.expectInOrder(
            disconnect,
            [
                "[delegate] didDisconnectFromOrigin origin=\(address)",
                "[observer] connectionState origin=\(address) connected=false error=-",
                "[notification] PNClientDidDisconnectFromOriginNotification origin=\(address)",
                "bye",
            ],
            "disconnect"
        )
        #expect(!disconnect.contains { $0.hasPrefix("[block]") })
        #expect(!lines.contains { $0.hasPrefix("timeout ") }, "\(lines.joined(separator: "\n"))")
        // Piped output carries no terminal control characters.
        #expect(!lines.contains { $0.contains("\u{1B}") })
    }

    @Test func mistakesAndFailedCallsAreReportedAndTheSessionGoesOn() throws {
        let (lines, status) = try ConsoleTranscript.session([
            "frobnicate",
            "subscribe",
            "history a --limit lots",
            "publish a too early",
            "time",
            "connect",
            "publish a --json {not json",
            "history a",
            "config keys \"\" sub",
            "config show",
        ])
        #expect(status == 0, "\(lines.joined(separator: "\n"))")
        #expect(
            ConsoleTranscript.section(lines, "frobnicate") == [
                "error: unknown command \"frobnicate\"", "usage: type \"help\" for the list of commands",
            ]
        )
        #expect(
            ConsoleTranscript.section(lines, "subscribe") == [
                "error: needs at least one channel", "usage: subscribe CH[,CH...] [--presence]",
            ]
        )
        #expect(
            ConsoleTranscript.section(lines, "history a --limit lots").first
                == "error: --limit needs a whole number (0 = 100)"
        )

        // Before connect: 105, through the block only (3.4 gates delegate, observers and notification).
        let early = ConsoleTranscript.section(lines, "publish a too early")
        #expect(
            early == [
                "[block] publish state=error channel=a message=\"too early\" error=105"
                    + " description=\"PubNub client can't perform request\""
            ]
        )
        #expect(
            ConsoleTranscript.section(lines, "time") == [
                "[block] time token=- error=105 description=\"PubNub client can't perform request\""
            ]
        )

        // Invalid JSON: an error line, nothing sent — the history stays empty.
        #expect(
            ConsoleTranscript.section(lines, "publish a --json {not json").first
                == "error: invalid JSON: {not json (nothing was sent)"
        )
        #expect(!lines.contains { $0.contains("willSendMessage") || $0.contains("state=sending") })
        #expect(
            ConsoleTranscript.section(lines, "history a").contains {
                $0.hasPrefix("[block] history channel=a") && $0.contains("count=0 messages=[]")
            }
        )

        // An invalid configuration is refused through `pubnubClient(_:error:)` and the notification; the applied
        // one stays.
        ConsoleTranscript.expectInOrder(
            ConsoleTranscript.section(lines, "config keys \"\" sub"),
            [
                "[delegate] error error=100", "[notification] PNClientErrorNotification error=100",
                "config keys refused",
            ],
            "configuration error"
        )
        #expect(ConsoleTranscript.section(lines, "config show").first?.contains("publish-key=\"demo\"") == true)
        // End of input while connected: a clean disconnect, then exit 0.
        #expect(lines.suffix(2).first?.hasPrefix("[notification] PNClientDidDisconnectFromOriginNotification") == true)
        #expect(lines.last == "bye")
    }

    #if os(Linux)
    /// One 64 MiB line without a newline (issue: it took the console to 286 MB): refused with a clear error, the
    /// session goes on, and the console never holds more than its 64 KiB line limit of it.
    @Test func aHugeLineIsRefusedWithoutHoldingIt() throws {
        let huge = String(repeating: "z", count: 64 << 20)
        let demo = try DemoProcess(["console"], input: huge + "\nhelp time\nwait message 60\n")
        defer { demo.stop() }
        let refusal = try #require(demo.waitForLine(containing: "error: a line of ", timeout: 60), "\(demo.output)")
        #expect(
            refusal == "error: a line of 67108864 bytes is longer than the 65536 a command may have; it was not"
                + " run (a message may be at most 32 KiB)"
        )
        #expect(demo.waitForLine(containing: "→ requestServerTimeTokenWithCompletionBlock", timeout: 60) != nil)
        // Peak resident memory (VmHWM) while the session still runs (blocked in `wait`): far below the line's size.
        let status = try String(contentsOfFile: "/proc/\(demo.processIdentifier)/status", encoding: .utf8)
        let peak = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }.flatMap { Int($0.filter(\.isNumber)) }
        let kib = try #require(peak)
        #expect(kib < 64 * 1_024, "peak RSS \(kib) KiB for a 64 MiB line")
        #expect(demo.errors.isEmpty, "\(demo.errors)")
    }
    #endif

    @Test func keysAreNeverPrintedNeitherByConfigShowNorInTheEcho() throws {
        let secret = "sec-c-0123456789abcdef"
        let cipher = "cipher-key-7531"
        let auth = "auth-token-abcdef0123"
        let (lines, status) = try ConsoleTranscript.session([
            "config keys demo demo \(secret)",
            "config cipher \(cipher)",
            "config auth \(auth)",
            "config show",
            "config cipher",  // a mistake: the usage error's echo is redacted too (nothing to redact here)
            "config auth off",
        ])
        #expect(status == 0, "\(lines.joined(separator: "\n"))")
        let transcript = lines.joined(separator: "\n")
        for key in [secret, cipher, auth] { #expect(!transcript.contains(key), "\(transcript)") }
        #expect(lines.contains("> config keys demo demo set (…cdef)"))
        #expect(lines.contains("> config cipher set (…31)"))
        #expect(lines.contains("> config auth set (…0123)"))
        #expect(lines.contains("> config auth off"))
        let show = try #require(ConsoleTranscript.section(lines, "config show").first)
        #expect(show.contains("secret-key=set (…cdef) cipher-key=set (…31) auth-key=set (…0123)"), "\(show)")
    }

    @Test func consoleAgainstASeparateOriginProcess() throws {
        let origin = try DemoProcess(["origin", "--port", "0", "--verbose"])
        defer { origin.stop() }
        let address = String(
            try #require(origin.waitForLine(containing: "listening on ")).dropFirst("listening on ".count)
        )
        let (lines, status) = try ConsoleTranscript.session(
            ["connect", "subscribe x", "publish x over there", "wait message", "quit", "time"],
            arguments: ["--origin", address, "--publish-key", "pk", "--subscribe-key", "sk", "--insecure"]
        )
        #expect(status == 0, "\(lines.joined(separator: "\n"))")
        #expect(!lines.contains { $0.contains("embedded origin") })
        #expect(lines.contains("[block] connect success origin=\(address)"))
        #expect(lines.contains("[delegate] didReceiveMessage channel=x message=\"over there\""))
        // `quit` ends the session: the line after it is never run.
        #expect(!lines.contains("> time"))
        #expect(lines.last == "bye")
        origin.stop()
        #expect(origin.output.split(separator: "\n").contains { $0.contains("/publish/pk/sk/0/x/") })
    }

    @Test(arguments: [
        (["console", "--bogus"], "unknown flag --bogus"),
        (["console", "--origin", "127.0.0.1:1"], "--origin needs --publish-key and --subscribe-key"),
        (["console", "--publish-key", "k"], "--publish-key needs --origin"),
        (["console", "--timeout", "0"], "--timeout must be more than 0 seconds"),
        // Issue 31: a far timeout crashed the console at its first command.
        (["console", "--timeout", "1e10"], "--timeout must be a number of seconds from 0 to 31536000 (a year)"),
        (["console", "--timeout", "nan"], "--timeout must be a number of seconds from 0 to 31536000 (a year)"),
        (["console", "--origin", "http://h", "--publish-key", "p", "--subscribe-key", "s"], "without scheme or path"),
    ])
    func badFlagsGiveTheUsageAndExitTwo(arguments: [String], message: String) throws {
        let demo = try DemoProcess(arguments)
        let status = demo.waitForExit(timeout: 30)
        demo.stop()
        #expect(status == 2)
        #expect(demo.errors.contains(message), "stderr: \(demo.errors)")
        #expect(demo.errors.contains("usage:"))
        #expect(demo.errors.contains("LegacyDemo console [--origin HOST[:PORT]"))
        #expect(demo.output.isEmpty)
    }

    @Test func helpFlagListsTheFlagsAndTheCommands() throws {
        let demo = try DemoProcess(["console", "--help"])
        let status = demo.waitForExit(timeout: 30)
        demo.stop()
        #expect(status == 0)
        for text in [
            "--origin HOST[:PORT]", "--timeout SECONDS", "--secure|--insecure", "publish CH TEXT", "push list TOKEN",
        ] {
            #expect(demo.output.contains(text), "\(text)")
        }
    }
}
