import Foundation
import Testing

@testable import LegacyDemo

/// The console's command parser (`ConsoleCommand+Parsing.swift`): a pure function from a line to a command or a
/// one-line error with the command's usage.
@Suite struct ConsoleCommandParsingTests {
    private func parse(_ line: String) throws -> ConsoleCommand? {
        try ConsoleCommand.parse(line)
    }

    /// The error a line gives, or nil when it parses.
    private func failure(_ line: String) -> ConsoleParseError? {
        do {
            _ = try ConsoleCommand.parse(line)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: ["", "   ", "# a comment", "  #connect"])
    func blankLinesAndCommentsAreNoCommand(line: String) throws {
        #expect(try self.parse(line) == nil)
    }

    @Test(arguments: [
        ("config keys pub sub sec-c-0123456789abcdef", "config keys pub sub set (…cdef)"),
        ("config keys pub sub", "config keys pub sub"),
        ("config  cipher   key-1234", "config cipher set (…34)"),
        ("config auth short", "config auth set"),
        ("config auth off", "config auth off"),
        ("config origin host:1", "config origin host:1"),
        ("publish a config auth x", "publish a config auth x"),
    ])
    func echoRedactsKeys(_ line: String, _ echoed: String) {
        #expect(ConsoleCommand.redactingKeys(line) == echoed)
    }

    @Test func simpleCommands() throws {
        #expect(try self.parse("connect") == .connect)
        #expect(try self.parse("  disconnect  ") == .disconnect)
        #expect(try self.parse("time") == .time)
        #expect(try self.parse("status") == .status)
        #expect(try self.parse("reset") == .reset)
        #expect(try self.parse("resend") == .resend)
        #expect(try self.parse("quit") == .quit)
        #expect(try self.parse("exit") == .quit)
        #expect(try self.parse("help") == .help(topic: nil))
        #expect(try self.parse("help push") == .help(topic: "push"))
        #expect(try self.parse("delegate off") == .delegate(false))
    }

    @Test func subscribeTakesCommaListsSeveralWordsAndThePresenceFlag() throws {
        #expect(try self.parse("subscribe a") == .subscribe(["a"], presenceEvent: false))
        #expect(try self.parse("subscribe a,b --presence") == .subscribe(["a", "b"], presenceEvent: true))
        #expect(try self.parse("subscribe --presence a, b,a") == .subscribe(["a", "b"], presenceEvent: true))
        #expect(try self.parse("unsubscribe b,c --presence") == .unsubscribe(["b", "c"], presenceEvent: true))
        #expect(try self.parse("subscribed") == .subscribed([]))
        #expect(try self.parse("subscribed a b") == .subscribed(["a", "b"]))
    }

    @Test func presenceObservation() throws {
        #expect(try self.parse("presence on a,b") == .presence(enable: true, ["a", "b"]))
        #expect(try self.parse("presence off a b") == .presence(enable: false, ["a", "b"]))
        #expect(try self.parse("presence status a") == .presenceStatus(["a"]))
    }

    @Test func publishKeepsTheTextAsTypedAndChecksJSON() throws {
        #expect(try self.parse("publish a hello   world ") == .publish(channel: "a", .text("hello   world")))
        #expect(try self.parse("publish a --json {\"k\": [1, 2]}") == .publish(channel: "a", .json("{\"k\": [1, 2]}")))
        #expect(try self.parse("publish a --json 42") == .publish(channel: "a", .json("42")))
        #expect(try self.parse("publish a --json \"s\"") == .publish(channel: "a", .json("\"s\"")))
        // A word that only starts like the flag is text.
        #expect(try self.parse("publish a --jsonish") == .publish(channel: "a", .text("--jsonish")))
    }

    @Test func hereNowListsTheUuidsWithOrWithoutTheFlag() throws {
        #expect(try self.parse("herenow a") == .hereNow("a"))
        #expect(try self.parse("herenow a --uuids") == .hereNow("a"))
    }

    @Test func historyOptions() throws {
        #expect(try self.parse("history a") == .history(channel: "a", .init()))
        let query = ConsoleCommand.HistoryQuery(from: 10, to: 20, limit: 5, reverse: true)
        #expect(try self.parse("history a --from 10 --to 20 --limit 5 --reverse") == .history(channel: "a", query))
    }

    @Test func configuration() throws {
        #expect(try self.parse("config show") == .configShow)
        #expect(try self.parse("config origin 127.0.0.1:8090") == .configOrigin("127.0.0.1:8090"))
        #expect(try self.parse("config origin example.com") == .configOrigin("example.com"))
        #expect(try self.parse("config keys p s") == .configKeys(publish: "p", subscribe: "s", secret: nil))
        #expect(try self.parse("config keys p \"\" x") == .configKeys(publish: "p", subscribe: "", secret: "x"))
        #expect(try self.parse("config cipher enigma") == .configCipher("enigma"))
        #expect(try self.parse("config cipher off") == .configCipher(nil))
        #expect(try self.parse("config auth off") == .configAuth(nil))
        #expect(try self.parse("config tls on") == .configTLS(true))
        #expect(try self.parse("config uuid me") == .configUUID("me"))
        #expect(try self.parse("config uuid random") == .configUUID(nil))
    }

    @Test func pushTokensAreHexadecimal() throws {
        let token = Data([0x0A, 0xFF])
        #expect(try self.parse("push enable a,b 0aff") == .pushEnable(["a", "b"], token: token))
        #expect(try self.parse("push disable a 0AFF") == .pushDisable(["a"], token: token))
        #expect(try self.parse("push list 0aff") == .pushList(token: token))
        #expect(try self.parse("push remove 0aff") == .pushRemove(token: token))
    }

    @Test func waitForUnsolicitedEvents() throws {
        #expect(try self.parse("wait message") == .wait(.message, seconds: nil))
        #expect(try self.parse("wait presence 2.5") == .wait(.presence, seconds: 2.5))
    }

    @Test(arguments: [
        ("frobnicate", "unknown command \"frobnicate\"", "type \"help\""),
        ("subscribe", "needs at least one channel", "subscribe CH[,CH...] [--presence]"),
        ("subscribe a --later", "unknown option --later", "subscribe CH"),
        ("subscribe ,,", "needs at least one channel", "subscribe CH"),
        ("publish a", "publish needs a message", "publish CH TEXT | publish CH --json JSON"),
        ("publish a --json {bad", "invalid JSON: {bad (nothing was sent)", "publish CH --json JSON"),
        ("publish a --json", "publish --json needs a JSON value", "publish CH"),
        ("history a --limit many", "--limit needs a whole number", "history CH [--from T]"),
        ("history a --from yesterday", "--from needs a time token", "history CH"),
        ("history a --sideways", "unknown option --sideways", "history CH"),
        ("history", "history needs a channel", "history CH"),
        ("herenow a b", "unexpected \"b\"", "herenow CH [--uuids]"),
        ("herenow a --state", "here-now reports no presence state", "herenow CH"),
        ("herenow --uuids", "herenow needs a channel", "herenow CH"),
        ("push enable a 0g", "hexadecimal", "push enable|disable CH[,CH...] TOKEN"),
        ("push enable a abc", "hexadecimal", "push list TOKEN"),
        ("push list", "push list needs a device token", "push remove TOKEN"),
        ("push shout a", "unknown push action \"shout\"", "push list TOKEN"),
        ("presence maybe a", "unknown presence action \"maybe\"", "presence on|off CH[,CH...]"),
        ("config tls maybe", "expected on or off", "config tls on|off"),
        ("config origin http://example.com", "without scheme or path", "config origin HOST[:PORT]"),
        ("config origin host:0", "without scheme or path", "config origin"),
        ("config colour blue", "unknown setting \"colour\"", "config show"),
        ("connect now", "unexpected \"now\"", "connect"),
        ("wait forever", "wait needs message or presence", "wait message|presence [SECONDS]"),
        ("wait message -1", "from 0 to 31536000", "wait message"),
        ("wait message 1e10", "from 0 to 31536000", "wait message"),
        ("wait message nan", "from 0 to 31536000", "wait message"),
        ("wait presence inf", "from 0 to 31536000", "wait message"),
        ("wherenow", "PubNub 3.4 has no where-now API", "type \"help\""),
        ("state a", "PubNub 3.4 has no presence state API", "type \"help\""),
    ])
    func mistakesNameTheProblemAndTheUsage(line: String, message: String, usage: String) throws {
        let error = try #require(self.failure(line), "\(line) parsed")
        #expect(error.message.contains(message), "\(error.message)")
        #expect(error.usage.contains(usage), "\(error.usage)")
    }

    @Test func originAddresses() {
        #expect(ConsoleCommand.originAddress("127.0.0.1:8090") == "127.0.0.1:8090")
        #expect(ConsoleCommand.originAddress("ps.pndsn.com") == "ps.pndsn.com")
        #expect(ConsoleCommand.originAddress("") == nil)
        #expect(ConsoleCommand.originAddress(":80") == nil)
        #expect(ConsoleCommand.originAddress("a:b:c") == nil)
        #expect(ConsoleCommand.originAddress("a:99999") == nil)
        #expect(ConsoleCommand.originAddress("a/b") == nil)
    }
}
