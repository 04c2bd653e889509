/// Inside bodies: message sends, calls, constants, case labels, declarations, blocks.
extension Scanner {
    private struct SwitchFrame {
        let close: Int
        let hasDefault: Bool
        var flagged = false
    }

    // MARK: - Methods

    /// The method header at `index` and, for a definition, its body. Returns the index after it.
    mutating func method(at index: Int, container: InterfaceHeader) -> Int {
        let tokens = self.file.tokens
        guard let header = Declarations.methodHeader(tokens, at: index) else { return index + 1 }
        let context = CodeContext(
            className: container.name,
            isClassMethod: header.isClassMethod,
            handlesNotification: self.notificationHandlers.contains(header.selector)
        )
        let isDefinition = tokens[header.terminator].isPunctuation("{")
        let close = isDefinition ? ExpressionParser.matchingBrace(tokens, from: header.terminator) : header.terminator
        let delegateTypes =
            isDefinition ? self.delegateMethod(header, body: header.terminator...close, context: context) : nil
        let isDelegateMethod = delegateTypes != nil
        if !isDelegateMethod {
            for cursor in header.first..<header.terminator where tokens[cursor].kind == .identifier {
                if let global = self.table.global(tokens[cursor].text),
                    global.kind == .blockType || global.kind == .enumType
                {
                    _ = self.name(at: cursor, context: context)
                }
            }
        }
        guard isDefinition else { return header.terminator + 1 }
        var scope = Scope()
        for (index, piece) in header.parameters.enumerated() {
            guard let name = piece.name, var type = piece.type else { continue }
            if let delegateTypes, index < delegateTypes.count, !delegateTypes[index].isEmpty {
                type.knownSwiftType = delegateTypes[index]
            }
            scope.declare(name, type)
        }
        self.statements(header.terminator + 1, close, scope: scope, context: context)
        return close + 1
    }

    /// A `PNDelegate` method implementation: its Swift declaration, the shape chosen by the parameter types the
    /// app wrote (MIGRATION.md §9, "The other shapes"). Returns the Swift types of its parameters (empty where not
    /// known), or nil when the method is not a delegate method.
    private mutating func delegateMethod(
        _ header: MethodHeader,
        body: ClosedRange<Int>,
        context: CodeContext
    )
        -> [String]?
    {
        let selector = header.selector
        let candidates = self.table.delegateMethods(selector)
        var translator = self.translator(Scope(), context)
        translator.use(.delegateMethod, selector)
        let adopts = context.className.map { self.model.adopts($0, "PNDelegate") } ?? false
        guard !candidates.isEmpty else {
            guard adopts, selector.hasPrefix("pubnubClient") || selector.hasPrefix("shouldRe") else { return nil }
            return self.unspelledDelegateMethod(
                header,
                translator,
                "PNDelegate has no such method: 3.4 never calls it (a misspelling, or a later version's callback?)",
                "not a 3.4 delegate method"
            )
        }
        let returned = header.returnType.flatMap { $0.name == "void" ? nil : $0.swiftType }
        let chosen = candidates.first { candidate in
            let declaration = candidate.declaration
            guard declaration.parameters.count == header.parameters.count else { return false }
            let returns = declaration.type.map(Translator.unwrapped)
            guard returns == returned.map(Translator.unwrapped) else { return false }
            return zip(declaration.parameters, header.parameters).allSatisfy { Self.matches($0.type, $1.type) }
        }
        guard let chosen else {
            return self.unspelledDelegateMethod(
                header,
                translator,
                "its parameter types match no shape of the PNDelegate method",
                "no PNDelegate shape takes these types"
            )
        }
        let declaration = chosen.declaration
        let parameters = zip(declaration.parameters, header.parameters).map { parameter, piece in
            let name = piece.name ?? "_"
            let label = parameter.label ?? "_"
            return (label == name ? label : "\(label) \(name)") + ": " + parameter.type
        }
        var swift = "func \(declaration.name)(\(parameters.joined(separator: ", ")))"
        if let type = declaration.type { swift += " -> \(type)" }
        if selector.hasPrefix("should"), self.returnsNil(in: body) {
            translator.edit(
                .shouldAnswer,
                "nil here means \"use the configuration\", not NO: return `NSNumber(value: false)` where 3.4 returned nil"
            )
        }
        self.record(
            .delegateMethod,
            first: header.first,
            last: header.terminator - 1,
            swift: swift,
            translator: translator,
            form: .delegateMethod(parameterTypes: declaration.parameters.map(\.type), returnType: declaration.type)
        )
        return declaration.parameters.map(\.type)
    }

    /// Records a delegate method the assistant cannot spell, and its selector as not recognised; its parameters'
    /// Swift types are unknown.
    private mutating func unspelledDelegateMethod(
        _ header: MethodHeader,
        _ translator: Translator,
        _ reason: String,
        _ summary: String
    ) -> [String] {
        var translator = translator
        translator.notRecognised(header.selector, reason)
        translator.cannotSpell(summary)
        self.record(
            .delegateMethod,
            first: header.first,
            last: header.terminator - 1,
            swift: nil,
            translator: translator
        )
        return header.parameters.map { _ in "" }
    }

    /// Whether an Objective-C parameter type fits a Swift one: `NSArray *` any array, `id` anything.
    private static func matches(_ swiftType: String, _ objcType: ObjCType?) -> Bool {
        guard let objcType, objcType.name != "id" else { return true }
        let declared = Translator.unwrapped(swiftType)
        if ["NSArray", "NSMutableArray"].contains(objcType.name) { return declared.hasPrefix("[") }
        return objcType.swiftType.map(Translator.unwrapped) == declared
    }

    private func returnsNil(in body: ClosedRange<Int>) -> Bool {
        let tokens = self.file.tokens
        return body.dropLast().contains { tokens[$0].isIdentifier("return") && tokens[$0 + 1].isIdentifier("nil") }
    }

    // MARK: - Statements

    /// Scans the tokens `start..<end` of a body.
    mutating func statements(_ start: Int, _ end: Int, scope initial: Scope, context: CodeContext) {
        let tokens = self.file.tokens
        var scope = initial
        var switches: [SwitchFrame] = []
        var pending: PendingInitializer?
        var index = start
        while index < end {
            while let last = switches.last, index > last.close { switches.removeLast() }
            let token = tokens[index]
            let atStatementStart = index == start || Self.endsStatement(tokens[index - 1])
            if atStatementStart, token.kind == .identifier {
                if token.text == "__pn_desired_weak" || token.text == "pn_desired_weak" {
                    index = self.weakDeclaration(at: index, end: end, scope: &scope, context: context)
                    continue
                }
                if let variable = Declarations.variable(tokens, at: index, isTypeName: self.vocabulary.isTypeName) {
                    for name in variable.names { scope.declare(name.name, variable.type) }
                    if let global = self.table.global(variable.type.name),
                        global.kind == .blockType || global.kind == .enumType,
                        let head = (index..<variable.names[0].index).first(where: {
                            tokens[$0].text == variable.type.name
                        })
                    {
                        _ = self.name(at: head, context: context)
                    }
                    let first = variable.names[0]
                    if first.index + 1 < tokens.count, tokens[first.index + 1].isPunctuation("=") {
                        // `PNChannel *channel = message.channel;` is `let channel = message.channel` in Swift, so the
                        // variable has the initializer's Swift type (`PNChannel?`) when the table says it.
                        var parser = ExpressionParser(
                            tokens: tokens,
                            position: first.index + 2,
                            isTypeName: self.vocabulary.isTypeName
                        )
                        let initializer = parser.parseAssignment()
                        if let inferred = self.translator(scope, context).type(of: initializer) {
                            var type = variable.type
                            type.knownSwiftType = inferred
                            scope.declare(first.name, type)
                        }
                        pending = PendingInitializer(
                            name: first.name,
                            typeName: variable.type.name,
                            declarationStart: index,
                            initializerStart: first.index + 2
                        )
                    }
                    index = first.index + 1
                    continue
                }
            }
            switch token.kind {
            case .punctuation where token.text == "{":
                scope.push()
                index += 1
            case .punctuation where token.text == "}":
                scope.pop()
                index += 1
            case .identifier where token.text == "switch":
                if let frame = self.switchFrame(at: index) { switches.append(frame) }
                index += 1
            case .identifier where token.text == "case":
                index = self.caseLabel(at: index, end: end, switches: &switches, scope: scope, context: context)
            case .punctuation where token.text == "[" && !self.followsOperand(index):
                index = self.root(at: index, end: end, scope: scope, context: context, pending: pending) ?? index + 1
            case .punctuation where token.text == "(" && !self.followsOperand(index):
                // a cast of a 3.4 value: `(PNMessage *)notification.userInfo`
                index = self.root(at: index, end: end, scope: scope, context: context, pending: pending) ?? index + 1
            case .punctuation where token.text == "^" && !self.followsOperand(index):
                var parser = ExpressionParser(tokens: tokens, position: index, isTypeName: self.vocabulary.isTypeName)
                if case .block(let block) = parser.parseOperand() {
                    // a block assigned to a variable of a 3.4 block type: its parameters have that type's types
                    var types: [String]?
                    if let pending, pending.initializerStart == index,
                        let alias = self.table.global(pending.typeName), alias.kind == .blockType,
                        let target = alias.declaration.type
                    {
                        types = SwiftDeclaration.closureParameters(of: target)
                    }
                    self.block(block, scope: scope, context: context, parameterTypes: types)
                    index = block.bodyClose + 1
                } else {
                    index += 1
                }
            case .atKeyword where token.text == "@selector":
                index = self.root(at: index, end: end, scope: scope, context: context, pending: nil) ?? index + 1
            case .identifier:
                index = self.identifier(at: index, end: end, scope: scope, context: context, pending: pending)
            default:
                index += 1
            }
        }
    }

    private static func endsStatement(_ token: Token) -> Bool {
        token.isPunctuation(";") || token.isPunctuation("{") || token.isPunctuation("}")
            || (token.kind == .punctuation && token.text == "(")
    }

    /// Whether the token before `index` ends an operand, making a `[` a subscript and a `^` an operator.
    private func followsOperand(_ index: Int) -> Bool {
        guard index > 0 else { return false }
        let previous = self.file.tokens[index - 1]
        switch previous.kind {
        case .identifier: return !["return", "case", "else", "do", "in", "sizeof"].contains(previous.text)
        case .number, .objcString, .cString, .character: return true
        case .punctuation: return previous.text == ")" || previous.text == "]"
        default: return false
        }
    }

    private func switchFrame(at index: Int) -> SwitchFrame? {
        let tokens = self.file.tokens
        guard index + 1 < tokens.count, tokens[index + 1].isPunctuation("(") else { return nil }
        let closeParenthesis = Declarations.closingParenthesis(tokens, from: index + 1)
        guard closeParenthesis + 1 < tokens.count, tokens[closeParenthesis + 1].isPunctuation("{") else { return nil }
        let open = closeParenthesis + 1
        let close = ExpressionParser.matchingBrace(tokens, from: open)
        var hasDefault = false
        var cursor = open + 1
        while cursor < close {
            if tokens[cursor].isIdentifier("switch"), let nested = self.switchFrame(at: cursor) {
                cursor = nested.close + 1
                continue
            }
            if tokens[cursor].isIdentifier("default"), cursor + 1 < close, tokens[cursor + 1].isPunctuation(":") {
                hasDefault = true
            }
            cursor += 1
        }
        return SwitchFrame(close: close, hasDefault: hasDefault)
    }

    /// `case PNSubscriptionProcessSubscribedState:` — with a leading dot in a switch without `default`
    /// (MIGRATION.md §2, rule 5).
    private mutating func caseLabel(
        at index: Int,
        end: Int,
        switches: inout [SwitchFrame],
        scope: Scope,
        context: CodeContext
    ) -> Int {
        let tokens = self.file.tokens
        var colon = index + 1
        while colon < end, !tokens[colon].isPunctuation(":") { colon += 1 }
        guard colon < end, colon == index + 2, tokens[index + 1].kind == .identifier, !switches.isEmpty else {
            return index + 1
        }
        let name = tokens[index + 1].text
        var translator = self.translator(scope, context)
        let hasDefault = switches[switches.count - 1].hasDefault
        if let enumType = self.table.enumType(ofConstant: name) {
            translator.use(.enumConstant, name)
            if !hasDefault {
                translator.edit(
                    .switchWithoutDefault,
                    "a switch without `default` names each 3.4 constant with a leading dot (rule 5)"
                )
            }
            let swift = hasDefault ? "case \(name):" : "case .\(name):"
            self.record(
                .caseLabel,
                first: index,
                last: colon,
                swift: swift,
                translator: translator,
                form: .caseLabel(enumType: enumType)
            )
        } else if let global = self.table.global(name), global.kind == .constant {
            translator.use(.constant, name)
            if !hasDefault && !switches[switches.count - 1].flagged {
                switches[switches.count - 1].flagged = true
                translator.edit(.exhaustiveSwitch, "a Swift switch over an error code needs a `default:`")
            }
            self.record(
                .caseLabel,
                first: index,
                last: colon,
                swift: "case \(name):",
                translator: translator,
                form: .caseLabel(enumType: nil)
            )
        } else {
            return index + 1
        }
        return colon + 1
    }

    /// `__pn_desired_weak __typeof__(self) weakSelf = self;` → `weak var weakSelf = self` (MIGRATION.md §9).
    private mutating func weakDeclaration(at index: Int, end: Int, scope: inout Scope, context: CodeContext) -> Int {
        let tokens = self.file.tokens
        guard let variable = Declarations.variable(tokens, at: index, isTypeName: self.vocabulary.isTypeName),
            let first = variable.names.first
        else { return index + 1 }
        for name in variable.names { scope.declare(name.name, variable.type) }
        var translator = self.translator(scope, context)
        translator.use(.weakMacro, tokens[index].text)
        var value = ""
        var last = first.index
        if first.index + 1 < end, tokens[first.index + 1].isPunctuation("=") {
            var parser = ExpressionParser(
                tokens: tokens,
                position: first.index + 2,
                isTypeName: self.vocabulary.isTypeName
            )
            value = " = " + translator.swift(parser.parseAssignment())
            last = parser.position - 1
        }
        translator.edit(
            .weakReference,
            "`pn_desired_weak` is Swift's `weak`: the variable is optional (or capture `[weak self]` in the closure)"
        )
        self.record(
            .weakMacro,
            first: index,
            last: last,
            swift: "weak var \(first.name)\(value)",
            translator: translator
        )
        return last + 1
    }

    /// An identifier in a body: a 3.4 function call, a member chain on a 3.4 object, a 3.4 constant, or a `PN…`
    /// name nobody declares.
    private mutating func identifier(
        at index: Int,
        end: Int,
        scope: Scope,
        context: CodeContext,
        pending: PendingInitializer?
    ) -> Int {
        let tokens = self.file.tokens
        let token = tokens[index]
        let next = index + 1 < end ? tokens[index + 1] : nil
        if next?.isPunctuation("(") == true || next?.isPunctuation(".") == true || next?.isPunctuation("->") == true
            || (next?.isPunctuation("=") == true && self.table.global(token.text) != nil)
        {
            if let after = self.root(at: index, end: end, scope: scope, context: context, pending: pending) {
                return after
            }
            if next?.isPunctuation("(") != true { return index + 1 }
        }
        guard self.table.global(token.text) != nil || self.vocabulary.isUnknownPubNubName(token.text) else {
            return index + 1
        }
        return self.name(at: index, context: context, scope: scope)
    }

    /// One name as an entry: a 3.4 constant, notification, enum constant, type or default, or an unknown `PN…`.
    mutating func name(at index: Int, context: CodeContext, scope: Scope = Scope()) -> Int {
        let token = self.file.tokens[index]
        var translator = self.translator(scope, context)
        guard let global = self.table.global(token.text) else {
            if self.vocabulary.isUnknownPubNubName(token.text) {
                self.recordUnrecognised(
                    token.text,
                    line: token.line,
                    reason: "not a 3.4 name (a 3.5+ API, or a private header's?)"
                )
            }
            return index + 1
        }
        translator.use(Translator.useKind(global.kind), token.text)
        let form: CheckForm = global.kind == .blockType || global.kind == .enumType ? .typeName : .statement
        self.record(
            Translator.useKind(global.kind),
            first: index,
            last: index,
            swift: token.text,
            translator: translator,
            form: form
        )
        return index + 1
    }
}
