import Foundation

/// What the app itself declares, read from every input file before any use is judged: its classes (superclass,
/// protocols, properties and instance variables), its own names (so `PNDataManager` of an app is not taken for a
/// missing PubNub class) and its header files.
struct AppModel {
    struct AppClass {
        var superclass: String?
        var protocols: Set<String> = []
        /// Properties and instance variables with their declared types.
        var members: [String: ObjCType] = [:]
        /// Token position of each `@interface`/`@implementation` line that adopts `PNDelegate`: (file, header).
        var conformances: [(file: String, header: InterfaceHeader)] = []
    }

    private(set) var classes: [String: AppClass] = [:]
    /// Every name the app declares: classes, protocols, typedefs, enum constants, macros, functions, globals.
    private(set) var declaredNames: Set<String> = []
    /// The base names of the input's header files (`PNAppDelegate.h`).
    private(set) var headers: Set<String> = []
    /// The declared result type of each app method: class name → selector (`+` or `-` first) → type.
    private(set) var results: [String: [String: ObjCType]] = [:]

    /// Reads the declarations of `files`; `table` tells the app's `#define`s from 3.4 macros it redefines.
    init(files: [SourceFile], table: NameTable) {
        for file in files {
            if file.path.hasSuffix(".h") { self.headers.insert((file.path as NSString).lastPathComponent) }
            self.collect(file, table: table)
        }
    }

    /// The class `name` or one of its superclasses adopts `protocolName`.
    func adopts(_ name: String, _ protocolName: String) -> Bool {
        var current: String? = name
        var seen: Set<String> = []
        while let className = current, !seen.contains(className), let declared = self.classes[className] {
            if declared.protocols.contains(protocolName) { return true }
            seen.insert(className)
            current = declared.superclass
        }
        return false
    }

    /// The superclass chain of `name` (its own name first), as far as the input declares it.
    func lineage(of name: String) -> [String] {
        var chain = [name]
        while let superclass = self.classes[chain.last!]?.superclass, !chain.contains(superclass), chain.count < 32 {
            chain.append(superclass)
        }
        return chain
    }

    /// The declared result type of `selector` of `className` (or its superclasses), on the class or instance side.
    func resultType(_ selector: String, of className: String, classSide: Bool) -> ObjCType? {
        for name in self.lineage(of: className) {
            if let type = self.results[name]?[(classSide ? "+" : "-") + selector] { return type }
        }
        return nil
    }

    /// The declared type of property or instance variable `member` of `className` or its superclasses.
    func memberType(_ member: String, of className: String) -> ObjCType? {
        for name in self.lineage(of: className) {
            if let type = self.classes[name]?.members[member] ?? self.classes[name]?.members["_" + member] {
                return type
            }
        }
        return nil
    }

    // MARK: - Reading

    private mutating func collect(_ file: SourceFile, table: NameTable) {
        let tokens = file.tokens
        var container: InterfaceHeader?
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            switch token.kind {
            case .atKeyword:
                index = self.atKeyword(token, file: file, at: index, container: &container)
            case .directive:
                let words = token.text.dropFirst().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "(" })
                if words.first == "define", words.count > 1, table.global(String(words[1])) == nil {
                    self.declaredNames.insert(String(words[1]))
                }
                index += 1
            case .punctuation where (token.text == "-" || token.text == "+") && container != nil:
                guard let header = Declarations.methodHeader(tokens, at: index) else {
                    index += 1
                    continue
                }
                if let owner = container?.name, let type = header.returnType {
                    self.results[owner, default: [:]][(header.isClassMethod ? "+" : "-") + header.selector] = type
                }
                index =
                    tokens[header.terminator].isPunctuation("{")
                    ? ExpressionParser.matchingBrace(tokens, from: header.terminator) + 1 : header.terminator + 1
            case .punctuation where token.text == "{":
                if let name = Self.functionName(tokens, before: index) { self.declaredNames.insert(name) }
                index = ExpressionParser.matchingBrace(tokens, from: index) + 1
            case .identifier where token.text == "typedef" || token.text == "enum":
                index = self.typedef(tokens, at: index)
            case .identifier:
                if let variable = Declarations.variable(
                    tokens,
                    at: index,
                    isTypeName: { $0.first?.isUppercase == true }
                ) {
                    self.declaredNames.formUnion(variable.names.map(\.name))
                    index = variable.end
                } else {
                    index += 1
                }
            default:
                index += 1
            }
        }
    }

    private mutating func atKeyword(
        _ token: Token,
        file: SourceFile,
        at index: Int,
        container: inout InterfaceHeader?
    ) -> Int {
        let tokens = file.tokens
        switch token.text {
        case "@interface", "@implementation", "@protocol":
            guard let header = Declarations.interfaceHeader(tokens, at: index) else { return index + 1 }
            let next = header.last + 1
            if token.text == "@protocol", next < tokens.count,
                tokens[next].isPunctuation(";") || tokens[next].isPunctuation(",")
            {
                return next + 1  // a forward declaration
            }
            self.declaredNames.insert(header.name)
            container = header
            if token.text != "@protocol" {
                var declared = self.classes[header.name] ?? AppClass()
                if let superclass = header.superclass, !header.isExtension { declared.superclass = superclass }
                declared.protocols.formUnion(header.protocols)
                if header.protocols.contains("PNDelegate") { declared.conformances.append((file.path, header)) }
                self.classes[header.name] = declared
            }
            if next < tokens.count, tokens[next].isPunctuation("{") {
                let close = ExpressionParser.matchingBrace(tokens, from: next)
                var cursor = next + 1
                while cursor < close {
                    if let variable = Declarations.variable(tokens, at: cursor, isTypeName: { _ in true }) {
                        for name in variable.names { self.classes[header.name]?.members[name.name] = variable.type }
                        cursor = variable.end
                    } else {
                        cursor += 1
                    }
                }
                return close + 1
            }
            return next
        case "@end":
            container = nil
            return index + 1
        case "@property":
            guard let property = Declarations.property(tokens, at: index) else { return index + 1 }
            if let owner = container?.name, let type = property.type {
                self.classes[owner]?.members[property.name] = type
            }
            return property.end + 1
        default:
            return index + 1
        }
    }

    /// `typedef enum _Tag { A, B = 2 } Name;`, `typedef NS_ENUM(NSInteger, Name) { … };`, `typedef void
    /// (^Name)(…);`, `enum { A, B };`: declares the names and constants; returns the index after the `;`.
    private mutating func typedef(_ tokens: [Token], at start: Int) -> Int {
        var index = start + 1
        var depth = 0
        var last: String?
        while index < tokens.count {
            let token = tokens[index]
            if token.isPunctuation("{") || token.isPunctuation("(") {
                depth += 1
            } else if token.isPunctuation("}") || token.isPunctuation(")") {
                depth -= 1
            } else if token.isPunctuation(";") && depth <= 0 {
                break
            } else if token.kind == .identifier {
                let next = index + 1 < tokens.count ? tokens[index + 1] : token
                let previous = tokens[index - 1]
                if depth == 1 && (next.isPunctuation(",") || next.isPunctuation("=") || next.isPunctuation("}"))
                    && (previous.isPunctuation("{") || previous.isPunctuation(","))
                {
                    self.declaredNames.insert(token.text)  // an enum constant
                } else if previous.isPunctuation("^")
                    || (depth == 1 && previous.isPunctuation(",") && next.isPunctuation(")"))
                {
                    self.declaredNames.insert(token.text)  // a block typedef, or NS_ENUM's name
                }
                if depth == 0 { last = token.text }
            }
            index += 1
        }
        if let last { self.declaredNames.insert(last) }
        return index + 1
    }

    /// `static void helper(int x) {` → `helper`.
    private static func functionName(_ tokens: [Token], before brace: Int) -> String? {
        guard brace > 0, tokens[brace - 1].isPunctuation(")") else { return nil }
        var depth = 0
        var index = brace - 1
        while index > 0 {
            if tokens[index].isPunctuation(")") { depth += 1 }
            if tokens[index].isPunctuation("(") {
                depth -= 1
                if depth == 0 { break }
            }
            index -= 1
        }
        return index > 0 && tokens[index - 1].kind == .identifier ? tokens[index - 1].text : nil
    }
}
