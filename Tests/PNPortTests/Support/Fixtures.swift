import Foundation
import PlatformSupport
import TestSupport
import Testing

@testable import PNPort

/// The ChatApp fixture: Objective-C written for these tests in the 3.4 style (not PubNub's code), and the stubs of
/// its own names the type check compiles with.
enum ChatAppFixture {
    static let folder = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent(
        "ChatApp"
    )
    static let stubs = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!
        .appendingPathComponent("ChatAppStubs.swift")

    /// The fixture's file names, sorted as the assistant reads a folder.
    static var fileNames: [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.filter {
            SourceFile.extensions.contains(($0 as NSString).pathExtension)
        }.sorted() ?? []
    }

    /// The assistant's report on the fixture, each file shown by its name alone.
    static func report() throws -> Report {
        var report = Report()
        for name in fileNames {
            report.files.append(try SourceFile.read(folder.appendingPathComponent(name).path, displayPath: name))
        }
        #expect(report.files.count == 7, "the fixture has 7 files, read \(report.files.map(\.path))")
        return Assistant().scan(report)
    }

    /// The report on Objective-C given as text, as a file called `name`.
    static func report(of source: String, name: String = "Test.m") throws -> Report {
        Assistant().scan(Report(files: [try SourceFile(path: name, text: source)]))
    }
}

/// Where `swift build` put the products the tests use: the `pnport` executable and the `Modules` folder with
/// `PubNubLegacy.swiftmodule`. First beside this test bundle (any scratch path), else in the package's `.build/debug`,
/// which `Scripts/test.sh` builds first (as `LegacyDemoTests` find `LegacyDemo`).
enum BuildProducts {
    private static var folders: [URL] {
        let packageRoot = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Support
            .deletingLastPathComponent()  // PNPortTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
        return [
            Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
            packageRoot.appendingPathComponent(".build/debug"),
        ]
    }

    private static func first(_ relative: String) -> URL {
        let candidates = folders.map { $0.appendingPathComponent(relative) }
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) } ?? candidates[candidates.count - 1]
    }

    static var pnport: URL { first("pnport") }
    static var modules: URL { first("Modules/PubNubLegacy.swiftmodule").deletingLastPathComponent() }
}

/// One run of a command with its output, stopped at a deadline (killed if it runs past it), never left behind.
struct ToolRun {
    let status: Int32
    let output: String
    let errors: String

    /// Runs `executable arguments…` to its end, at most `timeout` seconds; throws if it cannot start or overruns.
    /// The wait is on a thread of its own (`onOwnThread`): a swiftc run lasts seconds, and a test waiting for it on a
    /// pool thread of Swift concurrency held that thread — with another such test, every async test of the process.
    static func run(_ executable: URL, _ arguments: [String], timeout: TimeInterval = 120) async throws -> ToolRun {
        try await onOwnThread("ToolRun") { try Self.runBlocking(executable, arguments, timeout: timeout) }
    }

    private static func runBlocking(_ executable: URL, _ arguments: [String], timeout: TimeInterval) throws -> ToolRun {
        let process = SpawnedProcess()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let exited = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        // Both pipes are drained on threads of their own so a full pipe can never block the process. Not on
        // DispatchQueue.global(): on Linux its threads are capped at the core count, and two reads that last as long
        // as a swiftc run held every global-queue block of the other tests in this process back.
        let group = DispatchGroup()
        let stdout = Collected()
        let stderr = Collected()
        for (pipe, collected) in [(out, stdout), (err, stderr)] {
            group.enter()
            Thread {
                collected.data = pipe.fileHandleForReading.readToEndRetrying()
                group.leave()
            }.start()
        }
        if exited.wait(timeout: .now() + timeout) == .timedOut {
            process.terminate()
            _ = exited.wait(timeout: .now() + 5)
            throw ToolRunError.timedOut(([executable.path] + arguments).joined(separator: " "))
        }
        _ = group.wait(timeout: .now() + 10)
        return ToolRun(
            status: process.terminationStatus,
            output: String(decoding: stdout.data, as: UTF8.self),
            errors: String(decoding: stderr.data, as: UTF8.self)
        )
    }

    /// One pipe's bytes. @unchecked: written once by its reading thread, read after `group.wait` returns.
    private final class Collected: @unchecked Sendable {
        var data = Data()
    }
}

enum ToolRunError: Error {
    case timedOut(String)
}
