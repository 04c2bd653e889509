/// Writes every Swift spelling of a report into one Swift file that `swiftc -typecheck` can check against the
/// layer (`pnport --emit-check FILE`). Each spelling goes where it would stand in the port: a statement in a method
/// of its class (its variables as parameters), a delegate method in a class adopting `PNDelegate` (and asked of
/// the protocol, so a method no requirement matches fails), a `case` in a switch, a class line in a namespace.
/// The app's own names (its classes, properties, methods) are not declared here: give the compiler stubs of them.
struct CheckFile {
    /// The file's text and the number of entries it holds (every entry with a spelling).
    static func render(_ report: Report, table: NameTable = .migration) -> (text: String, count: Int) {
        var imports: [String] = ["Foundation", "PubNubLegacy", "PNObservation"]
        var body: [String] = []
        var count = 0
        for (number, entry) in report.entries.enumerated() {
            guard let swift = entry.swift else { continue }
            count += 1
            let name = "pnportCheck\(number)"
            body.append("")
            body.append("// \(entry.file):\(entry.line): \(entry.objc.replacingOccurrences(of: "*/", with: "* /"))")
            switch entry.form {
            case .importLine:
                for line in swift.split(separator: "\n") {
                    let module = line.replacingOccurrences(of: "import ", with: "")
                    if !imports.contains(module) { imports.append(module) }
                }
                body.append("// (an import line)")
            case .typeName:
                body += Self.inMethod(entry, name, table, ["_ = \(swift).self"])
            case .statement:
                body += Self.inMethod(entry, name, table, Self.statement(swift))
            case .caseLabel(let enumType):
                let function = Self.inMethod(
                    entry,
                    name,
                    table,
                    ["switch pnportValue {", "\(swift) break", "default: break", "}"]
                )
                body += function.map {
                    $0.replacingOccurrences(
                        of: "func \(name)(",
                        with: "func \(name)(pnportValue: \(enumType ?? "Int"), "
                    )
                    .replacingOccurrences(of: ", )", with: ")")
                }
            case .delegateMethod(let types, let returnType):
                body.append("final class PNPortCheck\(number): PNDelegate {")
                body.append("    \(swift) { fatalError() }")
                body.append("}")
                if let declaration = SwiftDeclaration(swift) {
                    let type = "(\(types.joined(separator: ", "))) -> \(returnType ?? "Void")"
                    body.append("func \(name)(_ delegate: any PNDelegate) {")
                    let reference = declaration.parameters.isEmpty ? declaration.name : declaration.swiftName
                    body.append("    _ = delegate.\(reference) as \(type)")
                    body.append("}")
                }
            case .property:
                body.append("final class PNPortCheck\(number) { \(swift) }")
            case .typeDeclaration(let standIn):
                if let standIn, let className = entry.className {
                    body.append("enum PNPortCheck\(number) { \(standIn) {} }")
                    body.append(
                        swift.replacingOccurrences(
                            of: "extension \(className):",
                            with: "extension PNPortCheck\(number).\(className):"
                        )
                    )
                } else {
                    body.append("enum PNPortCheck\(number) { \(swift) {} }")
                }
            }
        }
        let header = [
            "// Written by `pnport --emit-check`: every Swift spelling of the report, placed so that `swiftc -typecheck`",
            "// checks it against the PubNub 3.4 compatibility layer. Compile it with stubs of the app's own names.",
            "",
        ]
        return ((header + imports.map { "import \($0)" } + body).joined(separator: "\n") + "\n", count)
    }

    /// The spelling inside a method (or a function, outside classes) whose parameters are the entry's variables.
    private static func inMethod(_ entry: Entry, _ name: String, _ table: NameTable, _ lines: [String]) -> [String] {
        // a variable of a 3.4 block type is a closure the code may keep: `@escaping`, as a property would be
        let parameters = entry.variables.map { variable in
            let isBlock = table.global(variable.type)?.kind == .blockType
            return "\(variable.name): \(isBlock ? "@escaping " : "")\(variable.type)"
        }.joined(separator: ", ")
        let function =
            ["\(entry.isClassMethod ? "static " : "")func \(name)(\(parameters)) {"] + lines.map { "    " + $0 } + ["}"]
        guard let className = entry.className else { return function }
        return ["extension \(className) {"] + function.map { "    " + $0 } + ["}"]
    }

    /// Declarations and assignments as they are; an expression as `_ = expression`.
    private static func statement(_ swift: String) -> [String] {
        if swift.hasPrefix("let ") || swift.hasPrefix("weak var ") {
            let name = swift.split(separator: " ")[swift.hasPrefix("let ") ? 1 : 2]
            return [swift, "_ = \(name)"]
        }
        if swift.hasPrefix("_ = ") || Self.isAssignment(swift) { return [swift] }
        return ["_ = \(swift)"]
    }

    /// Whether `swift` is `target = value` at its top level (not `==`, not inside brackets or a closure).
    private static func isAssignment(_ swift: String) -> Bool {
        var depth = 0
        let characters = Array(swift)
        for (index, character) in characters.enumerated() {
            switch character {
            case "(", "[", "{": depth += 1
            case ")", "]", "}": depth -= 1
            case "=" where depth == 0:
                let before = index > 0 ? characters[index - 1] : " "
                let after = index + 1 < characters.count ? characters[index + 1] : " "
                if before == " " && after == " " { return true }
            default: break
            }
        }
        return false
    }
}
