import Foundation
import PlatformSupport

/// The workloads `LegacyDemo bench` runs in a child process of its own. The fan-out and the batch do not use the
/// clients of the network workloads and make transient peaks no client makes — the fan-out queues 100,000 events at
/// once through a probe, and the batch runs an origin of its own in the process to send one 13 MB answer. Run in the
/// bench's process, the allocator kept their freed memory (about 60 MB) and every later resident-memory figure
/// measured these workloads instead of the client. The idle client needs a process that holds nothing else. Each child is `LegacyDemo bench --workload NAME` with the parent's counts; its
/// figures are printed as its own lines, and its progress goes to stderr as it comes.
enum BenchChild {
    enum Workload: String {
        case fanOut = "fan-out"
        case batch
        /// One subscribed client left idle: a process holding nothing else (`BenchIdle`).
        case idle
    }

    /// Runs `workload` in a child process and prints its `BENCH` lines; throws when it fails. `origin`: the
    /// address of the origin the workload uses (`idle`), with the keys and TLS settings of `settings`.
    static func run(_ workload: Workload, settings: BenchSettings, origin: String? = nil) throws {
        guard let executable = Bundle.main.executableURL else {
            throw BenchError("\(workload.rawValue): cannot find this program to run the workload in a child process")
        }
        var arguments = ["bench", "--workload", workload.rawValue]
        if let origin {
            arguments += [
                "--origin", origin, "--publish-key", settings.publishKey, "--subscribe-key", settings.subscribeKey,
            ]
            if settings.secure { arguments.append("--secure") }
            if let caFile = settings.caFile { arguments += ["--ca-file", caFile] }
        }
        if let messages = settings.messages {
            arguments += ["--messages", String(messages)]
        } else if settings.quick {
            arguments.append("--quick")
        }
        let child = Process()
        child.executableURL = executable
        child.arguments = arguments
        let output = Pipe()
        child.standardOutput = output
        // Progress goes straight to this process's stderr.
        child.standardError = FileHandle.standardError
        try child.run()
        let text = String(decoding: output.fileHandleForReading.readToEndRetrying(), as: UTF8.self)
        child.waitUntilExit()
        for line in text.split(separator: "\n") where line.hasPrefix("BENCH ") {
            say(String(line))
        }
        guard child.terminationStatus == 0 else {
            throw BenchError("\(workload.rawValue): the child process ended with status \(child.terminationStatus)")
        }
    }
}
