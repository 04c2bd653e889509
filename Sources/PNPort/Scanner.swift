/// Finds every use of the 3.4 API in one file and turns each into an `Entry`: the declarations (adoptions,
/// delegate methods, `#import`, `#define`) here, the code inside bodies in `Scanner+Statements.swift`.
struct Scanner {
    let table: NameTable
    let model: AppModel
    let vocabulary: Vocabulary
    let file: SourceFile
    /// Selectors the input registers for a `kPN…Notification` (their methods read the payload).
    let notificationHandlers: Set<String>

    private(set) var entries: [Entry] = []
    private(set) var unrecognised: [Unrecognised] = []

    init(table: NameTable, model: AppModel, vocabulary: Vocabulary, file: SourceFile, notificationHandlers: Set<String>)
    {
        self.table = table
        self.model = model
        self.vocabulary = vocabulary
        self.file = file
        self.notificationHandlers = notificationHandlers
    }

    /// Selectors registered with `@selector(x:)` in a statement that names a 3.4 notification.
    static func notificationHandlers(in files: [SourceFile], table: NameTable) -> Set<String> {
        var found: Set<String> = []
        for file in files {
            let tokens = file.tokens
            for (index, token) in tokens.enumerated() where token.text == "@selector" && index + 2 < tokens.count {
                var selector = ""
                var cursor = index + 2
                while cursor < tokens.count, !tokens[cursor].isPunctuation(")") {
                    selector += tokens[cursor].text
                    cursor += 1
                }
                while cursor < tokens.count, !tokens[cursor].isPunctuation(";") {
                    if table.global(tokens[cursor].text)?.kind == .notification { found.insert(selector) }
                    cursor += 1
                }
            }
        }
        return found
    }

    // MARK: - Entries

    /// Records an entry for tokens `first…last` from what `translator` spelled.
    mutating func record(
        _ kind: UseKind,
        first: Int,
        last: Int,
        swift: String?,
        translator: Translator,
        form: CheckForm = .statement,
        objc: String? = nil
    ) {
        let line = self.file.tokens[first].line
        var entry = Entry(
            file: self.file.path,
            line: line,
            kind: kind,
            objc: objc ?? self.file.text(first, last, eliding: translator.elided)
        )
        entry.swift = translator.unspelled == nil ? swift : nil
        entry.unspelled = translator.unspelled
        entry.uses = translator.uses
        entry.edits = translator.edits
        entry.checks = translator.checks
        entry.className = translator.context.className
        entry.isClassMethod = translator.context.isClassMethod
        entry.variables = translator.variables
        entry.form = form
        for (name, reason) in translator.unknown {
            self.unrecognised.append(Unrecognised(file: self.file.path, line: line, name: name, reason: reason))
        }
        self.entries.append(entry)
    }

    mutating func recordUnrecognised(_ name: String, line: Int, reason: String) {
        self.unrecognised.append(Unrecognised(file: self.file.path, line: line, name: name, reason: reason))
    }

    func translator(_ scope: Scope, _ context: CodeContext, file: SourceFile? = nil) -> Translator {
        Translator(
            table: self.table,
            model: self.model,
            file: file ?? self.file,
            scope: scope,
            context: context,
            vocabulary: self.vocabulary
        )
    }

    // MARK: - Top level

    /// Scans the whole file.
    mutating func scan() {
        let tokens = self.file.tokens
        var container: InterfaceHeader?
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            switch token.kind {
            case .directive:
                self.directive(token, at: index)
                index += 1
            case .atKeyword:
                index = self.atKeyword(token, at: index, container: &container)
            case .punctuation where (token.text == "-" || token.text == "+") && container != nil:
                index = self.method(at: index, container: container!)
            case .punctuation where token.text == "{":
                let close = ExpressionParser.matchingBrace(tokens, from: index)
                var scope = Scope()
                self.functionParameters(before: index, into: &scope)
                self.statements(index + 1, close, scope: scope, context: CodeContext())
                index = close + 1
            case .identifier:
                index = self.name(at: index, context: CodeContext(className: container?.name))
            default:
                index += 1
            }
        }
        self.amendImports()
    }

    /// `static void helper(PNChannel *channel) {`: the parameters before a function body.
    private func functionParameters(before brace: Int, into scope: inout Scope) {
        let tokens = self.file.tokens
        guard brace > 0, tokens[brace - 1].isPunctuation(")") else { return }
        var open = brace - 1
        var depth = 0
        while open > 0 {
            if tokens[open].isPunctuation(")") { depth += 1 }
            if tokens[open].isPunctuation("(") {
                depth -= 1
                if depth == 0 { break }
            }
            open -= 1
        }
        var current: [Token] = []
        for token in Declarations.tokens(tokens, from: open + 1, upTo: brace - 1) {
            if token.isPunctuation(",") {
                if let parameter = ExpressionParser.parameter(current) { scope.declare(parameter.name, parameter.type) }
                current = []
            } else {
                current.append(token)
            }
        }
        if let parameter = ExpressionParser.parameter(current) { scope.declare(parameter.name, parameter.type) }
    }

    private mutating func atKeyword(_ token: Token, at index: Int, container: inout InterfaceHeader?) -> Int {
        let tokens = self.file.tokens
        switch token.text {
        case "@interface", "@implementation", "@protocol":
            guard let header = Declarations.interfaceHeader(tokens, at: index) else { return index + 1 }
            let next = header.last + 1
            if token.text == "@protocol", next < tokens.count,
                tokens[next].isPunctuation(";") || tokens[next].isPunctuation(",")
            {
                return next + 1
            }
            container = header
            if token.text != "@protocol" && header.protocols.contains("PNDelegate") { self.adoption(header) }
            if next < tokens.count, tokens[next].isPunctuation("{") {  // instance variables
                let close = ExpressionParser.matchingBrace(tokens, from: next)
                var cursor = next + 1
                while cursor < close { cursor = self.name(at: cursor, context: CodeContext(className: header.name)) }
                return close + 1
            }
            return next
        case "@end":
            container = nil
            return index + 1
        case "@property":
            return self.weakProperty(at: index, container: container)
        default:
            return index + 1
        }
    }

    /// `@interface X : Super <…, PNDelegate>` (or `@interface X () <PNDelegate>`): the Swift class line, with
    /// `@MainActor` and `@preconcurrency` for a UIKit or AppKit class (MIGRATION.md §4).
    private mutating func adoption(_ header: InterfaceHeader) {
        var translator = self.translator(Scope(), CodeContext(className: header.name))
        translator.use(.delegateAdoption, "PNDelegate")
        let isMainActor = self.vocabulary.isMainActorClass(header.name)
        let protocols = header.protocols.filter { $0 != "NSObject" }.map {
            $0 == "PNDelegate" && isMainActor ? "@preconcurrency PNDelegate" : $0
        }
        let superclass = self.model.classes[header.name]?.superclass
        let classLine = (isMainActor ? "@MainActor " : "") + "class \(header.name)"
        let swift: String
        var standIn: String?
        if header.isExtension || header.keyword == "@implementation" {
            swift = "extension \(header.name): \(protocols.joined(separator: ", ")) {}"
            standIn = classLine + (superclass.map { ": \($0)" } ?? "")
        } else {
            swift = classLine + ": " + ([superclass].compactMap { $0 } + protocols).joined(separator: ", ")
        }
        if isMainActor {
            translator.edit(
                .mainActorDelegate,
                "a UIKit/AppKit class is main-actor isolated in Swift 6: declare it `@MainActor` and adopt `@preconcurrency PNDelegate`"
            )
        }
        self.record(
            .delegateAdoption,
            first: header.first,
            last: header.last,
            swift: swift,
            translator: translator,
            form: .typeDeclaration(standIn: standIn)
        )
    }

    /// `@property (nonatomic, pn_desired_weak) id<PNDelegate> delegate;` → `weak var delegate: (any PNDelegate)?`
    /// (MIGRATION.md §9, `PNMacro.h`). Other properties are the app's own; their 3.4 types are found as names.
    private mutating func weakProperty(at index: Int, container: InterfaceHeader?) -> Int {
        let tokens = self.file.tokens
        guard index + 1 < tokens.count, tokens[index + 1].isPunctuation("(") else { return index + 1 }
        let close = Declarations.closingParenthesis(tokens, from: index + 1)
        guard
            let macro = tokens[(index + 1)...close].first(where: {
                $0.text == "pn_desired_weak" || $0.text == "__pn_desired_weak"
            }),
            let property = Declarations.property(tokens, at: index), let type = property.type?.swiftType
        else { return close + 1 }
        var translator = self.translator(Scope(), CodeContext(className: container?.name))
        translator.use(.weakMacro, macro.text)
        translator.edit(.weakReference, "`pn_desired_weak` is Swift's `weak`: the property is optional")
        let optional = type.hasSuffix("?") ? type : type + "?"
        let swift = "weak var \(property.name): \(optional)"
        self.record(
            .weakMacro,
            first: index,
            last: property.end - 1,
            swift: swift,
            translator: translator,
            form: .property
        )
        return close + 1
    }

    // MARK: - Directives

    private mutating func directive(_ token: Token, at index: Int) {
        let text = token.text.dropFirst().trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("import") || text.hasPrefix("include") {
            self.importDirective(token, at: index, text)
        } else if text.hasPrefix("define") {
            self.define(token, at: index, text)
        }
    }

    private mutating func importDirective(_ token: Token, at index: Int, _ text: String) {
        guard let open = text.firstIndex(where: { $0 == "\"" || $0 == "<" }) else { return }
        let path = text[text.index(after: open)...].prefix(while: { $0 != "\"" && $0 != ">" })
        let header = String(path.split(separator: "/").last ?? "")
        var translator = self.translator(Scope(), CodeContext())
        if Vocabulary.publicHeaders.contains(header) {
            translator.use(.headerImport, header)
            let module = header == "PNObservationCenter.h" ? "PNObservation" : "PubNubLegacy"
            self.record(
                .headerImport,
                first: index,
                last: index,
                swift: "import \(module)",
                translator: translator,
                form: .importLine
            )
        } else if Vocabulary.protectedHeaders.contains(header) {
            translator.use(.headerImport, header)
            translator.edit(
                .protectedHeader,
                "the protected header's members are public or not available (section 9 says which): delete the #import"
            )
            self.record(.headerImport, first: index, last: index, swift: "", translator: translator, form: .importLine)
        } else if Vocabulary.privateHeaders.contains(header)
            || (header.hasPrefix("PN") && header.hasSuffix(".h") && !self.model.headers.contains(header))
        {
            translator.use(.headerImport, header)
            let reason =
                Vocabulary.privateHeaders.contains(header)
                ? "a private header of the 3.4 library: nothing in it is API"
                : "not a header of the 3.4.2 library or of the app (a 3.5+ header?)"
            translator.notRecognised(header, reason)
            translator.cannotSpell(reason)
            self.record(.headerImport, first: index, last: index, swift: nil, translator: translator, form: .importLine)
        }
    }

    /// `#define kPNOriginHost @"…"` in an edited `PNDefaultConfiguration.h`, `#define PNLOG_…_ENABLED 1`: an
    /// assignment at launch (MIGRATION.md §2, §8).
    private mutating func define(_ token: Token, at index: Int, _ text: String) {
        let words = text.split(maxSplits: 2, whereSeparator: { $0 == " " || $0 == "\t" })
        guard words.count >= 2, let global = self.table.global(String(words[1])),
            global.kind == .configurationDefault || global.kind == .logSwitch
        else { return }
        let name = String(words[1])
        let valueText = words.count > 2 ? String(words[2]) : ""
        var translator = self.translator(Scope(), CodeContext())
        translator.use(Translator.useKind(global.kind), name)
        var value = "nil"
        if let valueFile = try? SourceFile(path: self.file.path, text: valueText), !valueFile.tokens.isEmpty {
            var parser = ExpressionParser(tokens: valueFile.tokens, position: 0, isTypeName: self.vocabulary.isTypeName)
            var valueTranslator = self.translator(Scope(), CodeContext(), file: valueFile)
            value = valueTranslator.swift(parser.parseAssignment(), expected: global.declaration.type)
        }
        if global.declaration.type == "Bool" { value = ["1": "true", "0": "false"][value] ?? value }
        if global.kind == .logSwitch {
            translator.edit(
                .logSwitch,
                "the log switches are runtime values, off by default: set them at launch and install a sink (`PNLogger.setSink`)"
            )
        } else {
            translator.edit(
                .defaultConfiguration,
                "PNDefaultConfiguration.h values are settable globals: assign them in one function called first thing at launch"
            )
        }
        self.record(
            Translator.useKind(global.kind),
            first: index,
            last: index,
            swift: "\(name) = \(value)",
            translator: translator
        )
    }

    /// Adds `import PNObservation` to the file's first PubNub import when the file uses `PNObservationCenter`
    /// and none names it.
    private mutating func amendImports() {
        let usesCenter = self.entries.contains { $0.uses.contains { $0.name.contains("PNObservationCenter") } }
        guard usesCenter, !self.entries.contains(where: { $0.swift == "import PNObservation" }),
            let first = self.entries.firstIndex(where: { $0.swift == "import PubNubLegacy" })
        else { return }
        self.entries[first].swift = "import PubNubLegacy\nimport PNObservation"
    }
}
