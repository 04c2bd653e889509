import Foundation

// LegacyDemo: the command-line face of the package (DESIGN.md §9). Only this target prints.
// Line-buffer stdout so `listening on …` and report lines reach a pipe at once.
setvbuf(stdout, nil, _IOLBF, 0)

let usage = """
    usage:
    \(OriginCommand.usage)
    """

let arguments = CommandLine.arguments.dropFirst()
let mode = arguments.first
do {
    switch mode {
    case "origin":
        exit(try OriginCommand.run(arguments.dropFirst()))
    case "help", "--help", "-h":
        print(usage)
        exit(0)
    case nil:
        throw UsageError(message: "the soak mode is not built yet; `LegacyDemo origin` is available")
    default:
        throw UsageError(message: "unknown mode \(mode ?? "")")
    }
} catch let error as UsageError {
    FileHandle.standardError.write(Data("LegacyDemo: \(error.message)\n\(usage)\n".utf8))
    exit(2)
} catch {
    FileHandle.standardError.write(Data("LegacyDemo: \(error)\n".utf8))
    exit(1)
}
