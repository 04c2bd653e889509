import Foundation

// pnport: reads PubNub 3.x Objective-C and says how every PubNub line ports to the 3.4 compatibility layer
// (MIGRATION.md §10). The report goes to standard output, progress and errors to standard error.

let usage = """
    usage: pnport [options] PATH...

    Reads the Objective-C files (.h, .m, .mm) at each PATH, folders recursively, and prints every use of the
    PubNub 3.4 API: file:line, the 3.4 text, its Swift spelling by the naming rule of MIGRATION.md §2, and the
    MIGRATION.md section of each edit the line needs beyond the rule. Then a summary: files, lines, uses by kind,
    edits by kind, what it could not spell and the names it did not recognise.

    options:
      --summary             print only the summary
      --emit-check FILE     also write every Swift spelling into FILE, wrapped so that `swiftc -typecheck`
                            checks it against the layer (with stubs of the app's own names)
      --progress            report progress on standard error for every file (default: once a second, after
                            the first second)
      --no-progress         never report progress
      -h, --help            this text

    Exit status: 0 when every input was read, 1 when some could not be (each is named), 2 for a usage error.
    """

enum ProgressMode {
    case throttled
    case everyFile
    case off
}

var paths: [String] = []
var summaryOnly = false
var checkPath: String?
var progressMode = ProgressMode.throttled
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help":
        print(usage)
        exit(0)
    case "--summary": summaryOnly = true
    case "--progress": progressMode = .everyFile
    case "--no-progress": progressMode = .off
    case "--emit-check":
        guard let path = arguments.popFirst() else {
            FileHandle.standardError.write(Data("pnport: --emit-check needs a file name\n\(usage)\n".utf8))
            exit(2)
        }
        checkPath = path
    case "--":
        paths += arguments
        arguments = []
    default:
        guard !argument.hasPrefix("-") || argument == "-" else {
            FileHandle.standardError.write(Data("pnport: unknown option \(argument)\n\(usage)\n".utf8))
            exit(2)
        }
        paths.append(argument)
    }
}
guard !paths.isEmpty else {
    FileHandle.standardError.write(Data("pnport: no files or folders given\n\(usage)\n".utf8))
    exit(2)
}

var assistant = Assistant()
let started = Date()
nonisolated(unsafe) var lastProgress = Date.distantPast
assistant.progress = { step, done, total in
    guard progressMode != .off, total > 0 else { return }
    let now = Date()
    // By default a run is quiet until it has taken a second, then says where it is once a second, and its end.
    let due = now.timeIntervalSince(started) >= 1 && now.timeIntervalSince(lastProgress) >= 1
    let finished = done == total && step == "scanning" && lastProgress != .distantPast
    guard progressMode == .everyFile || due || finished else { return }
    lastProgress = now
    let seconds = String(format: "%.1f", now.timeIntervalSince(started))
    FileHandle.standardError.write(Data("pnport: \(step) \(done)/\(total) files (\(seconds) s)\n".utf8))
}
let report = assistant.run(paths)
let printer = ReportPrinter(table: assistant.table)
if !summaryOnly { print(printer.entries(report), terminator: "") }
print(printer.summary(report), terminator: "")
for failure in report.failures {
    FileHandle.standardError.write(Data("pnport: \(failure.path): \(failure.reason)\n".utf8))
}
if let checkPath {
    let (text, count) = CheckFile.render(report, table: assistant.table)
    do {
        try text.write(toFile: checkPath, atomically: true, encoding: .utf8)
        FileHandle.standardError.write(Data("pnport: wrote \(count) spellings to \(checkPath)\n".utf8))
    } catch {
        FileHandle.standardError.write(Data("pnport: cannot write \(checkPath): \(error.localizedDescription)\n".utf8))
        exit(1)
    }
}
exit(report.failures.isEmpty ? 0 : 1)
