import Foundation

// LegacyDemo: the command-line face of the package (docs/DESIGN.md §9). Only this target prints, through `say`.

let usage = """
    usage:
    \(SoakCommand.usage)
    \(OriginCommand.usage)
    \(ConsoleSession.usage)
    \(BenchCommand.usage)
    \(CostCommand.usage)
    """

let arguments = CommandLine.arguments.dropFirst()
let mode = arguments.first
do {
    switch mode {
    case nil:
        exit(try SoakCommand.run([]))
    case "soak":
        exit(try SoakCommand.run(arguments.dropFirst()))
    case "origin":
        exit(try OriginCommand.run(arguments.dropFirst()))
    case "console":
        exit(try ConsoleSession.run(arguments.dropFirst()))
    case "bench":
        exit(try BenchCommand.run(arguments.dropFirst()))
    case "cost":
        exit(try CostCommand.run(arguments.dropFirst()))
    case "help", "--help", "-h":
        say(usage)
        exit(0)
    default:
        throw UsageError(message: "unknown mode \(mode ?? "")")
    }
} catch let error as UsageError {
    complain("LegacyDemo: \(error.message)\n\(usage)")
    exit(2)
} catch {
    complain("LegacyDemo: \(error)")
    exit(1)
}
