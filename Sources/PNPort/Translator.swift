import Foundation

/// The variables visible at a point of a method or function: parameters, locals, block parameters.
struct Scope {
    private var frames: [[String: ObjCType]] = [[:]]

    mutating func push() { self.frames.append([:]) }

    mutating func pop() { if self.frames.count > 1 { self.frames.removeLast() } }

    mutating func declare(_ name: String, _ type: ObjCType) { self.frames[self.frames.count - 1][name] = type }

    func lookup(_ name: String) -> ObjCType? {
        for frame in self.frames.reversed() { if let type = frame[name] { return type } }
        return nil
    }
}

/// Where the code being spelled is: its class (nil in a C function) and whether in a class method.
struct CodeContext {
    var className: String?
    var isClassMethod = false
    /// The method handles a PubNub notification (its selector was registered for a `kPN…Notification`).
    var handlesNotification = false
}

/// Spells one Objective-C expression in Swift by the naming rule of MIGRATION.md §2, with the original argument
/// expressions carried over, and records what the spelling used: 3.4 names, edits, unknown names, variables.
struct Translator {
    let table: NameTable
    let model: AppModel
    let file: SourceFile
    let scope: Scope
    let context: CodeContext
    let vocabulary: Vocabulary

    private(set) var uses: [(kind: UseKind, name: String)] = []
    private(set) var edits: [Edit] = []
    private(set) var unknown: [(name: String, reason: String)] = []
    private(set) var checks: [String] = []
    private(set) var variables: [(name: String, type: String)] = []
    private(set) var unspelled: String?
    private(set) var elided: [ClosedRange<Int>] = []
    /// The Swift parameter types of each block spelled as a closure of a known type, by the block's caret index.
    private(set) var blockParameterTypes: [Int: [String]] = [:]

    init(
        table: NameTable,
        model: AppModel,
        file: SourceFile,
        scope: Scope,
        context: CodeContext,
        vocabulary: Vocabulary
    ) {
        self.table = table
        self.model = model
        self.file = file
        self.scope = scope
        self.context = context
        self.vocabulary = vocabulary
    }

    // MARK: - Recording

    mutating func use(_ kind: UseKind, _ name: String) { self.uses.append((kind, name)) }

    mutating func edit(_ kind: Edit.Kind, _ advice: String) {
        let section = self.table.section(titled: kind.sectionTitle) ?? "?"
        let edit = Edit(kind: kind, section: section, advice: advice)
        if !self.edits.contains(edit) { self.edits.append(edit) }
    }

    mutating func cannotSpell(_ reason: String) { if self.unspelled == nil { self.unspelled = reason } }

    mutating func notRecognised(_ name: String, _ reason: String) {
        if !self.unknown.contains(where: { $0.name == name }) { self.unknown.append((name, reason)) }
    }

    mutating func check(_ note: String) { if !self.checks.contains(note) { self.checks.append(note) } }

    private mutating func variable(_ name: String, _ type: String) {
        if !self.variables.contains(where: { $0.name == name }) { self.variables.append((name, type)) }
    }

    // MARK: - Expressions

    /// The Swift spelling of `expression`; `expected` is the Swift type the position takes, when known.
    mutating func swift(_ expression: Expr, expected: String? = nil) -> String {
        switch expression {
        case .send(let send): return self.send(send, expected: expected)
        case .identifier(let token): return self.identifier(token, expected: expected)
        case .literal(let token): return Self.literal(token)
        case .string(let parts): return "\"" + parts.map { Self.swiftEscapes($0.text) }.joined() + "\""
        case .boxed(let value): return self.swift(value, expected: nil)
        case .array(let items):
            let plain = expected.map(Self.unwrapped)
            let element = plain.flatMap {
                $0.hasPrefix("[") && !$0.contains(":") ? String($0.dropFirst().dropLast()) : nil
            }
            var spelled: [String] = []
            for item in items { spelled.append(element.map { self.argument(item, for: $0) } ?? self.swift(item)) }
            return "[" + spelled.joined(separator: ", ") + "]"
        case .dictionary(let pairs):
            guard !pairs.isEmpty else { return "[:]" }
            return "[" + pairs.map { "\(self.swift($0.key)): \(self.swift($0.value))" }.joined(separator: ", ") + "]"
        case .block(let block): return self.closure(block, expected: expected)
        case .call(let callee, let arguments): return self.call(callee, arguments)
        case .member(let base, let name): return self.member(base, name.text)
        case .index(let base, let index): return "\(self.swift(base))[\(self.swift(index))]"
        case .parenthesized(let inner):
            if case .cast = inner { return self.swift(inner, expected: expected) }  // a cast brings its own
            return "(\(self.swift(inner, expected: expected)))"
        case .cast(let type, let value): return self.cast(type, value)
        case .prefix(let mark, let operand):
            let value = self.swift(operand)
            switch mark.text {
            case "*": return value
            case "++", "--": return "\(value) \(mark.text.prefix(1))= 1"
            default: return mark.text + value
            }
        case .postfix(let operand, let mark): return "\(self.swift(operand)) \(mark.text.prefix(1))= 1"
        case .binary(let lhs, let mark, let rhs):
            let left = self.swift(lhs)
            return "\(left) \(mark.text) \(self.swift(rhs, expected: mark.text == "=" ? self.type(of: lhs) : nil))"
        case .ternary(let condition, let then, let otherwise):
            guard let then else { return "\(self.swift(condition)) ?? \(self.swift(otherwise, expected: expected))" }
            let test = self.swift(condition)
            return "\(test) ? \(self.swift(then, expected: expected)) : \(self.swift(otherwise, expected: expected))"
        case .selector(let selector, _):
            self.use(.selector, selector)
            self.edit(
                .objcRuntime,
                "Swift on Linux has no Objective-C runtime: name the method itself"
            )
            self.cannotSpell("@selector(\(selector)) needs the Objective-C runtime")
            return "#selector(\(Self.ruleName(selector)))"
        case .unknown(let tokens):
            return tokens.map { self.file.text(of: $0) }.joined(separator: " ")
        }
    }

    private mutating func identifier(_ token: Token, expected: String?) -> String {
        let name = token.text
        switch name {
        case "YES", "TRUE", "true": return "true"
        case "NO", "FALSE", "false": return "false"
        case "nil", "Nil", "NULL": return "nil"
        case "self", "super": return name
        default: break
        }
        if let declared = self.scope.lookup(name) {
            let own = self.swiftType(declared)
            let generic: Set<String> = ["Any", "[Any]", "[String: Any]"]
            let type =
                own.map { generic.contains($0) ? (expected.map(Self.plain) ?? $0) : $0 } ?? expected.map(Self.plain)
            self.variable(name, type ?? "Any")
            return name
        }
        if let global = self.table.global(name) {
            self.use(Self.useKind(global.kind), name)
            return name
        }
        if self.vocabulary.isUnknownPubNubName(name) {
            self.notRecognised(name, "not a 3.4 name (a 3.5+ API, or a private header's?)")
            self.cannotSpell("`\(name)` is not a 3.4 name")
        }
        return name
    }

    /// `PNClientMessageProcessingBlock?` → `PNClientMessageProcessingBlock`; `@escaping T` → `T`.
    static func plain(_ type: String) -> String {
        var text = type.trimmingCharacters(in: .whitespaces)
        if text.hasPrefix("@escaping ") { text.removeFirst("@escaping ".count) }
        return text
    }

    static func unwrapped(_ type: String) -> String {
        var text = plain(type)
        if text.hasSuffix("?") || text.hasSuffix("!") { text.removeLast() }
        if text.hasPrefix("(") && text.hasSuffix(")") && !text.contains("->") {
            text = String(text.dropFirst().dropLast())
        }
        return text.hasPrefix("any ") ? String(text.dropFirst(4)) : text
    }

    static func isOptional(_ type: String) -> Bool { plain(type).hasSuffix("?") }

    static func useKind(_ kind: APIName.Kind) -> UseKind {
        switch kind {
        case .method: return .call
        case .property: return .property
        case .constant: return .constant
        case .notification: return .notification
        case .enumConstant: return .enumConstant
        case .enumType: return .enumType
        case .blockType: return .blockType
        case .configurationDefault: return .defaultConfiguration
        case .logSwitch: return .logSwitch
        case .function: return .function
        }
    }

    /// `42`, `10.0f` → `10.0`, `5u` → `5`, `.5` → `0.5`.
    static func literal(_ token: Token) -> String {
        switch token.kind {
        case .cString: return "\"" + swiftEscapes(token.text) + "\""
        case .character: return "\"" + swiftEscapes(token.text) + "\""
        default: break
        }
        var text = token.text
        let isHex = text.lowercased().hasPrefix("0x")
        while let last = text.last, "uUlL".contains(last) || (!isHex && "fF".contains(last)) { text.removeLast() }
        if text.hasPrefix(".") { text = "0" + text }
        if text.hasSuffix(".") { text += "0" }
        return text
    }

    /// C escapes Swift spells differently: `\uXXXX` → `\u{XXXX}`, `\xHH` → `\u{HH}`, `\'` stays.
    static func swiftEscapes(_ text: String) -> String {
        var out = ""
        var characters = Array(text)
        var index = 0
        while index < characters.count {
            let character = characters[index]
            guard character == "\\", index + 1 < characters.count else {
                out.append(
                    character == "\"" && (index == 0 || characters[index - 1] != "\\") ? "\\\"" : String(character)
                )
                index += 1
                continue
            }
            let next = characters[index + 1]
            if next == "u" || next == "x" {
                var digits = ""
                var cursor = index + 2
                while cursor < characters.count, characters[cursor].isHexDigit, digits.count < (next == "u" ? 4 : 2) {
                    digits.append(characters[cursor])
                    cursor += 1
                }
                out += "\\u{\(digits)}"
                index = cursor
            } else {
                out += "\\\(next)"
                index += 2
            }
        }
        characters.removeAll()
        return out
    }

    /// `pubnubClient:didReceiveMessage:` → `pubnubClient(_:didReceiveMessage:)`, `connect` → `connect()`.
    static func ruleName(_ selector: String) -> String {
        let pieces = selector.split(separator: ":", omittingEmptySubsequences: false).dropLast()
        guard let first = pieces.first, selector.hasSuffix(":") else { return "\(selector)()" }
        return "\(first)(_:" + pieces.dropFirst().map { "\($0):" }.joined() + ")"
    }

    // MARK: - Blocks

    /// A block as a closure with the block's parameter names; the body stays where it is (each PubNub line in it is
    /// an entry of its own), so the closure shows which lines it holds.
    private mutating func closure(_ block: BlockLiteral, expected: String?) -> String {
        self.elided.append(block.bodyOpen...block.bodyClose)
        let types = expected.flatMap { self.closureParameterTypes($0) }
        if let types { self.blockParameterTypes[block.caret] = types }
        let arity = types?.count
        var names = block.parameters?.map(\.name) ?? []
        if let arity, names.count < arity { names += Array(repeating: "_", count: arity - names.count) }
        let head = names.isEmpty ? "{" : "{ " + names.joined(separator: ", ") + " in"
        let first = self.file.tokens[block.bodyOpen].line
        let last = self.file.tokens[block.bodyClose].line
        guard block.bodyClose > block.bodyOpen + 1 else { return head + " }" }
        return head + (first == last ? " /* line \(first) */ }" : " /* lines \(first)–\(last) */ }")
    }

    /// The parameter types of a closure type or of a block typedef of the table.
    func closureParameterTypes(_ type: String) -> [String]? {
        let name = Self.unwrapped(type)
        if let alias = self.table.global(name), alias.kind == .blockType, let target = alias.declaration.type {
            return SwiftDeclaration.closureParameters(of: target)
        }
        return SwiftDeclaration.closureParameters(of: name)
    }

    // MARK: - Casts, calls, members

    /// `(NSUInteger)x` is `UInt(x)`; `(UIDatePicker *)sender` is `(sender as! UIDatePicker)` unless `sender`
    /// already has that type; `(id)x` is `x`.
    private mutating func cast(_ type: [Token], _ value: Expr) -> String {
        let spelled = self.swift(value)
        guard let objcType = ObjCTypeReader.read(type), objcType.name != "id", let swiftType = objcType.swiftType else {
            return spelled
        }
        if objcType.pointerDepth == 0 {
            let numeric = ["Int", "UInt", "Int32", "UInt32", "Double", "Float", "Bool", "TimeInterval"]
            guard numeric.contains(swiftType) else { return spelled }
            guard let known = self.type(of: value), Self.isOptional(known) else { return "\(swiftType)(\(spelled))" }
            self.edit(.optional, "a value 3.4 could leave nil is optional here: `?.` (or `if let`)")
            return "\(swiftType)(\(spelled) ?? 0)"
        }
        guard let known = self.type(of: value), Self.unwrapped(known) == swiftType, !Self.isOptional(known) else {
            return "(\(spelled) as! \(swiftType))"
        }
        return spelled
    }

    private mutating func call(_ callee: Expr, _ arguments: [Expr]) -> String {
        guard case .identifier(let name) = callee else {
            return "\(self.swift(callee))(\(arguments.map { self.swift($0) }.joined(separator: ", ")))"
        }
        if name.text == "PNLog" {
            self.use(.pnLog, "PNLog")
            // PNLog(level, sender, [NSString stringWithFormat:format, arguments…]): PNLog takes the format and its
            // arguments itself and prints `%@` of any value, which `String(format:)` on Linux cannot (MIGRATION.md §10).
            if arguments.count == 3, case .send(let format) = arguments[2], format.selector == "stringWithFormat:",
                case .identifier(let receiver) = format.receiver, receiver.text == "NSString"
            {
                let flattened = [arguments[0], arguments[1]] + format.arguments + format.variadic
                return "PNLog(\(flattened.map { self.swift($0) }.joined(separator: ", ")))"
            }
        } else if let function = self.table.global(name.text), function.kind == .function {
            self.use(.function, name.text)
            let types = function.declaration.parameters.map(\.type)
            let spelled = arguments.enumerated().map {
                $0 < types.count ? self.argument($1, for: types[$0]) : self.swift($1)
            }
            return "\(name.text)(\(spelled.joined(separator: ", ")))"
        } else if name.text == "NSLog" {
            return self.foundationLog(arguments)
        } else if name.text == "NSStringFromClass", arguments.count == 1 {
            return "String(describing: \(self.swift(arguments[0])))"
        }
        return "\(name.text)(\(arguments.map { self.swift($0) }.joined(separator: ", ")))"
    }

    private mutating func member(_ base: Expr, _ name: String) -> String {
        let baseType = self.type(of: base)
        var spelledBase = self.swift(base)
        let separator = baseType.map(Self.isOptional) == true ? "?." : "."
        if separator == "?." {
            self.edit(.optional, "a value 3.4 could leave nil is optional here: `?.` (or `if let`)")
        }
        if let baseType, self.vocabulary.isAPIClass(Self.unwrapped(baseType)) {
            let owner = Self.unwrapped(baseType)
            if let property = self.table.property(name, of: owner) {
                self.use(.property, "\(owner).\(name)")
                return spelledBase + separator + property.declaration.name
            }
            if !Vocabulary.objectMembers.contains(name) {
                if let missing = self.table.unavailableName(name) {
                    self.notRecognised("\(owner).\(name)", missing.note)
                } else {
                    self.notRecognised("\(owner).\(name)", "\(owner) has no 3.4 property `\(name)`")
                }
                self.cannotSpell("\(owner) has no property `\(name)` in the layer")
            }
        }
        if name == "userInfo", baseType.map(Self.unwrapped) == "Notification", self.context.handlesNotification {
            self.use(.property, "Notification.pnPayload")
            self.edit(
                .notificationPayload,
                "the payload is `userInfo[kPNNotificationPayloadKey]`: read `pnPayload`"
            )
            return spelledBase + separator + "pnPayload"
        }
        if case .identifier(let token) = base, token.text == "self" { spelledBase = "self" }
        return spelledBase + separator + name
    }
}
