import Foundation
import Testing

@testable import PNPort

/// Half-written and damaged Objective-C never crashes the assistant: every prefix of every fixture file (unclosed
/// brackets, blocks, strings, switches), and the files with bytes flipped by a fixed-seed generator, are scanned to
/// the end or refused with a reason.
@Suite struct RobustnessTests {
    /// A small fixed-seed generator (SplitMix64), so a failure reproduces.
    private struct Generator: RandomNumberGenerator {
        var state: UInt64

        mutating func next() -> UInt64 {
            self.state &+= 0x9E37_79B9_7F4A_7C15
            var value = self.state
            value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
            value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
            return value ^ (value >> 31)
        }
    }

    private func scan(_ text: String, name: String) -> (entries: Int, refused: Bool) {
        do {
            let report = Assistant().scan(Report(files: [try SourceFile(path: name, text: text)]))
            _ = ReportPrinter(table: .migration).entries(report) + ReportPrinter(table: .migration).summary(report)
            _ = CheckFile.render(report)
            return (report.entries.count, false)
        } catch {
            return (0, true)
        }
    }

    @Test func everyPrefixOfEveryFixtureIsScanned() throws {
        var scanned = 0
        for name in ChatAppFixture.fileNames {
            let text = try String(contentsOf: ChatAppFixture.folder.appendingPathComponent(name), encoding: .utf8)
            let characters = Array(text)
            for end in stride(from: 0, through: characters.count, by: 89) {
                _ = self.scan(String(characters[..<end]), name: name)
                scanned += 1
            }
            // The whole file finds more the longer it gets: the last prefix is the file.
            #expect(self.scan(text, name: name).entries > 0, "\(name)")
        }
        #expect(scanned > 150)
    }

    /// Files that end inside a construct, each of which once crashed or could: a method header's type, a C
    /// function's parameters, a send, a block, an interface's protocol list, a directive, a case label.
    @Test(arguments: [
        "@implementation A\n- (void)go:(", "@implementation A\n- (", "@implementation A\n-", "void f(", "void f() {",
        "[PubNub sendMessage:", "[[PubNub sharedInstance] ", "x = ^(PNMessage *", "x = ^{",
        "@interface A : NSObject <PNDelegate",
        "@property (nonatomic, pn_desired_weak", "#define kPNOriginHost", "switch (x) { case", "switch (x) { case A",
        "@selector(",
        "PNLog(PNLogGeneralLevel, self, @\"%@\", ", "__pn_desired_weak __typeof__(self", "(PNMessage *)",
    ])
    func aFileThatEndsInsideAConstructIsScanned(_ source: String) {
        _ = self.scan("@implementation B\n- (void)b {\n" + source, name: "Cut.m")
        _ = self.scan(source, name: "Cut.h")
    }

    @Test func flippedBytesAreScannedOrRefused() throws {
        var generator = Generator(state: 30)
        var refused = 0
        let marks = Array("[](){}^@:;,\"'*/#\n".utf8)
        for name in ChatAppFixture.fileNames {
            let bytes = Array(try Data(contentsOf: ChatAppFixture.folder.appendingPathComponent(name)))
            for _ in 0..<16 {
                var damaged = bytes
                for _ in 0..<8 {
                    let index = Int.random(in: 0..<damaged.count, using: &generator)
                    damaged[index] = marks.randomElement(using: &generator)!
                }
                if self.scan(String(decoding: damaged, as: UTF8.self), name: name).refused { refused += 1 }
            }
        }
        #expect(refused < ChatAppFixture.fileNames.count * 16, "most damaged files are still read")
    }
}
