import Foundation

/// Runs the assistant over paths: reads every `.h`/`.m`/`.mm` file (folders recursively), learns the app's own
/// declarations from all of them, then finds the 3.4 uses of each. Files that cannot be read are reported and
/// skipped; nothing stops the run.
struct Assistant {
    let table: NameTable
    /// Called with (step, files done, files in all) as the run goes; `step` is "reading" or "scanning".
    var progress: (String, Int, Int) -> Void = { _, _, _ in }

    init(table: NameTable = .migration) { self.table = table }

    func run(_ paths: [String]) -> Report {
        var report = Report()
        let (inputs, missing) = Self.expand(paths)
        report.failures = missing
        for (number, input) in inputs.enumerated() {
            self.progress("reading", number, inputs.count)
            do {
                report.files.append(try SourceFile.read(input.path, displayPath: input.display))
            } catch {
                report.failures.append(error)
            }
        }
        return self.scan(report)
    }

    /// Scans files already read (tests give sources directly).
    func scan(_ initial: Report) -> Report {
        var report = initial
        let model = AppModel(files: report.files, table: self.table)
        let vocabulary = Vocabulary(table: self.table, model: model)
        let handlers = Scanner.notificationHandlers(in: report.files, table: self.table)
        for (number, file) in report.files.enumerated() {
            self.progress("scanning", number, report.files.count)
            var scanner = Scanner(
                table: self.table,
                model: model,
                vocabulary: vocabulary,
                file: file,
                notificationHandlers: handlers
            )
            scanner.scan()
            report.entries += scanner.entries
            report.unrecognised += scanner.unrecognised
        }
        self.progress("scanning", report.files.count, report.files.count)
        return report
    }

    /// The files the paths name: a file as given, a folder's `.h`/`.m`/`.mm` files (hidden folders skipped), sorted
    /// within each folder. A path that does not exist is a failure.
    static func expand(_ paths: [String]) -> (inputs: [(path: String, display: String)], failures: [SourceFile.Failure])
    {
        var inputs: [(String, String)] = []
        var failures: [SourceFile.Failure] = []
        let manager = FileManager.default
        for path in paths {
            var isFolder: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isFolder) else {
                failures.append(SourceFile.Failure(path: path, reason: "no such file or folder"))
                continue
            }
            guard isFolder.boolValue else {
                inputs.append((path, path))
                continue
            }
            guard let enumerator = manager.enumerator(atPath: path) else {
                failures.append(SourceFile.Failure(path: path, reason: "the folder cannot be read"))
                continue
            }
            var found: [String] = []
            while let relative = enumerator.nextObject() as? String {
                let name = (relative as NSString).lastPathComponent
                if name.hasPrefix(".") {
                    enumerator.skipDescendants()
                    continue
                }
                if SourceFile.extensions.contains((name as NSString).pathExtension.lowercased()) {
                    found.append(relative)
                }
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            inputs += found.sorted().map { ("\(base)/\($0)", "\(base)/\($0)") }
        }
        return (inputs, failures)
    }
}
