import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The tests' spawner (Tests/TestSupport/SpawnedProcess.swift): what the suites rely on from it, and the case it
/// exists for — a child started while this process holds more descriptors open than glibc's directory buffer lists
/// at once, where Foundation's `Process.run()` could crash.
@Suite struct SpawnedProcessTests {
    @Test func aChildStartsWithManyDescriptorsOpenAndInheritsNoneOfThem() throws {
        // 2,000 extra descriptors (the suite's own peak is about 2,500), released at the end.
        var held: [Int32] = []
        defer { for fd in held { close(fd) } }
        for _ in 0..<1_000 {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0, "pipe failed: errno \(errno)")
            held += ends
        }
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ls /proc/self/fd | wc -l"]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        // `ls` sees its three standard descriptors and the directory it lists, nothing of this process's 2,000.
        let count = try #require(Int(text.trimmingCharacters(in: .whitespacesAndNewlines)), "output: \(text)")
        #expect(count <= 5, "the child inherited \(count) descriptors")
    }

    @Test func exitCodesSignalsEnvironmentAndTheHandlerAreReported() throws {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "test \"$SPAWNED_PROCESS_TEST\" = yes && exit 7"]
        process.environment = ["SPAWNED_PROCESS_TEST": "yes"]
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        #expect(ended.wait(timeout: .now() + 30) == .success)
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 7)

        let sleeper = SpawnedProcess()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        #expect(sleeper.isRunning)
        // SIGKILL: a child inherits the signals the spawning thread blocks, as with Foundation's `Process`.
        sleeper.send(SIGKILL)
        sleeper.waitUntilExit()
        // As Foundation's `Process` reports a child a signal ended: the signal's number.
        #expect(sleeper.terminationStatus == SIGKILL)
    }

    @Test func aProgramThatCannotBeStartedThrows() {
        let process = SpawnedProcess()
        process.executableURL = URL(fileURLWithPath: "/nonexistent/program")
        #expect(throws: SpawnedProcessError.self) { try process.run() }
        #expect(!process.isRunning)
    }
}
