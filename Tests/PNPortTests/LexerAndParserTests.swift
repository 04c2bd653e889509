import Testing

@testable import PNPort

/// The Objective-C the assistant reads: tokens, and the expressions built from them.
@Suite struct LexerAndParserTests {
    @Test func commentsStringsAndDirectivesAreTokensOfTheirOwn() throws {
        let source = """
            #import "PNImports.h" // the library
            #define kPNOriginHost \\
                @"chat.example.com"
            /* [PubNub connect]; is a comment */
            NSString *s = @"a \\"quoted\\" [PubNub connect]" @"more";
            char c = '\\'';
            """
        let tokens = try Lexer.tokenize(source)
        #expect(tokens[0].kind == .directive && tokens[0].text == "#import \"PNImports.h\" ")
        #expect(tokens[1].kind == .directive && tokens[1].text.contains("@\"chat.example.com\""))
        #expect(!tokens.contains { $0.isIdentifier("PubNub") }, "nothing inside comments or strings is code")
        let strings = tokens.filter { $0.kind == .objcString }
        #expect(strings.map(\.text) == ["a \\\"quoted\\\" [PubNub connect]", "more"])
        #expect(strings[0].line == 5)
        #expect(tokens.contains { $0.kind == .character && $0.text == "\\'" })
    }

    @Test func whatIsNotObjectiveCIsALexError() {
        #expect(throws: LexError(line: 2, reason: "a /* comment that is never closed")) {
            try Lexer.tokenize("int a;\n/* open\n")
        }
        #expect(throws: LexError(line: 1, reason: "a string or character literal that is never closed")) {
            try Lexer.tokenize("@\"open\n\"")
        }
        #expect(throws: LexError(line: 1, reason: "a NUL byte: this is a binary file, not source code")) {
            try Lexer.tokenize("a\u{0}b")
        }
    }

    private func parse(_ source: String) throws -> Expr {
        var parser = ExpressionParser(
            tokens: try Lexer.tokenize(source),
            position: 0,
            isTypeName: { $0.hasPrefix("PN") }
        )
        return parser.parseAssignment()
    }

    @Test func aSendOverManyLinesWithNestedBracketsAndBlocks() throws {
        let expression = try self.parse(
            """
            [[PNObservationCenter defaultCenter] addClientConnectionStateObserver:self
                                                                withCallbackBlock:^(NSString *origin,
                                                                                    BOOL connected,
                                                                                    PNError *error) {
                [PubNub sendMessage:[NSString stringWithFormat:@"%@", origin] toChannel:channel];
            }]
            """
        )
        guard case .send(let send) = expression, case .send(let receiver) = send.receiver else {
            Issue.record("not a send to a send: \(expression)")
            return
        }
        #expect(receiver.selector == "defaultCenter")
        #expect(send.selector == "addClientConnectionStateObserver:withCallbackBlock:")
        guard case .block(let block) = send.arguments[1] else {
            Issue.record("the second argument is not a block")
            return
        }
        #expect(block.parameters?.map(\.name) == ["origin", "connected", "error"])
        #expect(block.parameters?.map(\.type.name) == ["NSString", "BOOL", "PNError"])
    }

    @Test func ternariesCastsVariadicsAndSubscriptsStayInTheirArgument() throws {
        let expression = try self.parse(
            "[PubNub sendMessage:flag ? @\"a\" : @\"b\" toChannel:(PNChannel *)list[0] withCompletionBlock:nil]"
        )
        guard case .send(let send) = expression else {
            Issue.record("not a send")
            return
        }
        #expect(send.selector == "sendMessage:toChannel:withCompletionBlock:")
        guard case .ternary = send.arguments[0], case .cast(_, .index) = send.arguments[1] else {
            Issue.record("arguments: \(send.arguments)")
            return
        }
        let variadic = try self.parse("[NSArray arrayWithObjects:a, b, nil]")
        guard case .send(let list) = variadic else {
            Issue.record("not a send")
            return
        }
        #expect(list.selector == "arrayWithObjects:" && list.variadic.count == 2)
    }

    @Test func theTranslatorCarriesTheArgumentsOver() throws {
        let report = try ChatAppFixture.report(
            of: """
                @implementation A
                - (void)go:(PNChannel *)channel {
                    [PubNub sendMessage:@{@"n": @(42), @"ok": @YES, @"none": [NSNull null]}
                              toChannel:channel withCompletionBlock:^(PNMessageState state, id data) {
                    }];
                    [PubNub requestHistoryForChannel:channel from:nil to:nil limit:10u reverseHistory:NO];
                    PNLog(PNLogGeneralLevel, self, @"tab\\t\\u00e9 %@" @" and more", NULL);
                    [PubNub setClientIdentifier:[[UIDevice currentDevice] name]];
                    PNLog(PNLogGeneralLevel, self, [NSString stringWithFormat:@"%@ as %@", channel, [PubNub clientIdentifier]]);
                }
                @end
                """
        )
        #expect(
            report.entries.compactMap(\.swift) == [
                "PubNub.sendMessage([\"n\": 42, \"ok\": true, \"none\": NSNull()], toChannel: channel, "
                    + "withCompletionBlock: { state, data in })",
                "PubNub.requestHistoryForChannel(channel, from: nil, to: nil, limit: 10, reverseHistory: false)",
                "PNLog(PNLogGeneralLevel, self, \"tab\\t\\u{00e9} %@ and more\", nil)",
                "PubNub.setClientIdentifier(UIDevice.currentDevice().name)",
                "PNLog(PNLogGeneralLevel, self, \"%@ as %@\", channel, PubNub.clientIdentifier())",
            ]
        )
        #expect(report.entries[0].checks.isEmpty)
        #expect(
            report.entries[3].checks == [
                "`[UIDevice currentDevice]` is not PubNub: spelled by the naming rule, check it"
            ]
        )
    }
}
