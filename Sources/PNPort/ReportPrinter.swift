import Foundation

/// The report as text: one block per entry, then the summary.
struct ReportPrinter {
    let table: NameTable

    func entries(_ report: Report) -> String {
        var out = ""
        for entry in report.entries {
            out += "\(entry.file):\(entry.line): \(entry.kind.rawValue)\n"
            out += "    3.4:   \(entry.objc)\n"
            if let swift = entry.swift {
                let lines = swift.isEmpty ? ["(delete the line)"] : swift.split(separator: "\n").map(String.init)
                out += "    Swift: \(lines[0])\n"
                for line in lines.dropFirst() { out += "           \(line)\n" }
            } else {
                out += "    Swift: (not spelled: \(entry.unspelled ?? "unknown"))\n"
            }
            for edit in entry.edits {
                out += "    edit:  \(self.table.cite(edit.section)): \(edit.advice)\n"
            }
            for check in entry.checks { out += "    check: \(check)\n" }
        }
        return out
    }

    func summary(_ report: Report) -> String {
        var out = "Summary\n"
        let lines = report.files.reduce(0) { $0 + $1.lineCount }
        let byExtension = Dictionary(grouping: report.files) { ($0.path as NSString).pathExtension }
            .sorted { $0.key < $1.key }.map { "\($0.value.count) .\($0.key)" }
        out += "  files: \(report.files.count)"
        if !byExtension.isEmpty { out += " (\(byExtension.joined(separator: ", ")))" }
        out += ", \(lines) lines"
        if !report.failures.isEmpty { out += "; \(report.failures.count) could not be read" }
        out += "\n"

        let uses = report.entries.flatMap(\.uses)
        out += "  API uses: \(uses.count) in \(report.entries.count) entries\n"
        out += Self.counts(uses.map(\.kind.rawValue), order: UseKind.allCases.map(\.rawValue))
        let foundation = report.entries.filter { $0.kind == .foundation }.count
        if foundation > 0 { out += "  entries that are Foundation calls around 3.4 values: \(foundation)\n" }

        let edits = report.entries.flatMap(\.edits)
        out +=
            "  edits beyond the naming rule: \(edits.count) in \(report.entries.filter { !$0.edits.isEmpty }.count) entries\n"
        out += Self.counts(
            edits.map { "\($0.kind.rawValue), MIGRATION.md §\($0.section)" },
            order: Edit.Kind.allCases.flatMap { kind in
                Set(edits.filter { $0.kind == kind }.map(\.section)).sorted().map {
                    "\(kind.rawValue), MIGRATION.md §\($0)"
                }
            }
        )

        let unspelled = report.entries.filter { $0.swift == nil }
        out += "  not spelled: \(unspelled.count)\n"
        for entry in unspelled { out += "    \(entry.file):\(entry.line): \(entry.unspelled ?? "")\n" }
        let checks = report.entries.filter { !$0.checks.isEmpty }
        if !checks.isEmpty { out += "  spelled by the rule outside PubNub, to check by hand: \(checks.count)\n" }

        let names = Dictionary(grouping: report.unrecognised, by: \.name)
        out += "  not recognised: \(names.count) names\n"
        for name in names.keys.sorted() {
            let places = names[name]!
            let where_ = places.prefix(3).map { "\($0.file):\($0.line)" }.joined(separator: ", ")
            let more = places.count > 3 ? " and \(places.count - 3) more" : ""
            out += "    \(name) (\(where_)\(more)): \(places[0].reason)\n"
        }
        if !report.failures.isEmpty {
            out += "  could not be read: \(report.failures.count)\n"
            for failure in report.failures { out += "    \(failure.path): \(failure.reason)\n" }
        }
        return out
    }

    /// "    name count" lines for each name, in `order` (then any other), counts ≥ 1 only.
    private static func counts(_ names: [String], order: [String]) -> String {
        let counted = Dictionary(names.map { ($0, 1) }, uniquingKeysWith: +)
        let known = order.filter { counted[$0] != nil }
        let rest = counted.keys.filter { !order.contains($0) }.sorted()
        return (known + rest).map { "    \($0): \(counted[$0]!)\n" }.joined()
    }
}
