/// The outermost expressions that are PubNub's: each becomes one entry, and the blocks inside it are scanned as
/// bodies of their own.
extension Scanner {
    /// Parses the expression at `index`; when it is a PubNub root, records it and scans its blocks. Returns the
    /// index after it, or nil when it is not PubNub's (the caller then steps into it token by token).
    mutating func root(
        at index: Int,
        end: Int,
        scope: Scope,
        context: CodeContext,
        pending: PendingInitializer?
    ) -> Int? {
        let tokens = self.file.tokens
        var parser = ExpressionParser(tokens: tokens, position: index, isTypeName: self.vocabulary.isTypeName)
        var expression = parser.parseAssignment()
        var stop = parser.position
        if case .binary(_, let mark, _) = expression, mark.text == "=" {
            // an assignment to a 3.4 property or default: the whole statement
        } else {
            parser = ExpressionParser(tokens: tokens, position: index, isTypeName: self.vocabulary.isTypeName)
            expression = parser.parseOperand()
            stop = parser.position
        }
        guard stop > index, stop <= end, self.isPubNubRoot(expression, scope: scope, context: context) else {
            return nil
        }
        var translator = self.translator(scope, context)
        var swift = translator.swift(expression)
        if case .cast = expression, swift.hasPrefix("("), swift.hasSuffix(")") {
            swift = String(swift.dropFirst().dropLast())
        }
        var first = index
        if let pending, pending.initializerStart == index, stop < tokens.count, tokens[stop].isPunctuation(";") {
            swift = "let \(pending.name) = \(swift)"
            first = pending.declarationStart
        }
        var kind = translator.uses.first?.kind ?? (translator.unknown.isEmpty ? .foundation : .call)
        if self.isFoundationRoot(expression, scope: scope, context: context) { kind = .foundation }
        self.record(kind, first: first, last: stop - 1, swift: swift, translator: translator)
        for block in expression.blocks {
            self.block(
                block,
                scope: scope,
                context: context,
                parameterTypes: translator.blockParameterTypes[block.caret]
            )
        }
        return stop
    }

    /// Scans a block's body with its parameters in scope, typed as the block type says when it is a 3.4 one.
    mutating func block(_ block: BlockLiteral, scope: Scope, context: CodeContext, parameterTypes: [String]? = nil) {
        var inner = scope
        inner.push()
        let parameters = block.parameters ?? []
        for (index, parameter) in parameters.enumerated() {
            var type = parameter.type
            if let parameterTypes, parameterTypes.count == parameters.count {
                type.knownSwiftType = parameterTypes[index]
            }
            inner.declare(parameter.name, type)
        }
        self.statements(block.bodyOpen + 1, block.bodyClose, scope: inner, context: context)
    }

    /// Whether `expression` is PubNub's at its root: a send to a 3.4 class or object, a 3.4 function, a member of a
    /// 3.4 object, an assignment to one, a 3.4 name, or a Foundation call around 3.4 values.
    private func isPubNubRoot(_ expression: Expr, scope: Scope, context: CodeContext) -> Bool {
        let translator = self.translator(scope, context)
        switch expression {
        case .send(let send):
            switch translator.resolve(send) {
            case .api, .setter, .unknownAPI: return true
            case .other:
                return self.isFoundationIdiom(send)
                    && self.spellingTouchesAPI(expression, scope: scope, context: context)
            }
        case .call(let callee, _):
            guard case .identifier(let name) = callee else { return false }
            if name.text == "PNLog" || self.table.global(name.text)?.kind == .function { return true }
            return name.text == "NSLog" && self.spellingTouchesAPI(expression, scope: scope, context: context)
        case .cast(_, let value), .parenthesized(let value):
            return self.isPubNubRoot(value, scope: scope, context: context)
        case .member, .index:
            // a property of a 3.4 object (not `code` or `description`, which every NSError or NSObject has), a
            // notification's payload, or a member of a 3.4 call's result
            var speculative = translator
            _ = speculative.swift(expression)
            return !speculative.uses.isEmpty || !speculative.unknown.isEmpty
        case .binary(let lhs, let mark, _):
            guard mark.text == "=" else { return false }
            if case .identifier(let token) = lhs { return self.table.global(token.text) != nil }
            return self.isPubNubRoot(lhs, scope: scope, context: context)
        case .selector(let selector, _):
            return !self.table.delegateMethods(selector).isEmpty
                || self.vocabulary.apiClasses.contains { self.table.method(selector, of: $0, classSide: true) != nil }
        default:
            return false
        }
    }

    /// The Foundation sends whose Swift depends on the 3.4 values in them: a format, a notification observer,
    /// key-value coding.
    private func isFoundationIdiom(_ send: MessageSend) -> Bool {
        if case .identifier(let receiver) = send.receiver, receiver.text == "NSString",
            send.selector == "stringWithFormat:"
        {
            return true
        }
        if case .send(let inner) = send.receiver, inner.selector == "defaultCenter" { return true }
        return send.selector == "valueForKey:"
    }

    private func isFoundationRoot(_ expression: Expr, scope: Scope, context: CodeContext) -> Bool {
        switch expression {
        case .send(let send):
            if case .other = self.translator(scope, context).resolve(send) { return true }
            return false
        case .call(.identifier(let name), _): return name.text == "NSLog"
        default: return false
        }
    }

    /// A Foundation send or `NSLog` is an entry when its spelling uses a 3.4 name or needs an edit because of
    /// a 3.4 value (an object in a format's arguments, a notification observed by selector).
    private func spellingTouchesAPI(_ expression: Expr, scope: Scope, context: CodeContext) -> Bool {
        var translator = self.translator(scope, context)
        _ = translator.swift(expression)
        if translator.uses.contains(where: { $0.kind == .notification }) { return true }
        guard !translator.edits.isEmpty else { return false }
        return expression.children.contains { child in
            let type = translator.type(of: child).map(Translator.unwrapped)?.trimmingCharacters(in: ["[", "]"])
            return type.map(self.vocabulary.isAPIClass) ?? false
        } || !translator.uses.isEmpty
    }
}

/// The initializer of a declaration being scanned: an entry that is exactly it is spelled `let name = …`.
struct PendingInitializer {
    let name: String
    /// The declared type's name (`PNClientParticipantsHandlingBlock`), for a block literal initializer.
    let typeName: String
    let declarationStart: Int
    let initializerStart: Int
}

extension Expr {
    /// The block literals of this expression, outermost only (blocks inside them belong to their bodies).
    var blocks: [BlockLiteral] {
        if case .block(let block) = self { return [block] }
        return self.children.flatMap(\.blocks)
    }

    /// The direct subexpressions.
    var children: [Expr] {
        switch self {
        case .send(let send): return [send.receiver] + send.arguments + send.variadic
        case .identifier, .literal, .string, .block, .selector, .unknown: return []
        case .boxed(let value), .parenthesized(let value), .cast(_, let value): return [value]
        case .prefix(_, let operand), .postfix(let operand, _): return [operand]
        case .array(let items): return items
        case .dictionary(let pairs): return pairs.flatMap { [$0.key, $0.value] }
        case .call(let callee, let arguments): return [callee] + arguments
        case .member(let base, _): return [base]
        case .index(let base, let index): return [base, index]
        case .binary(let lhs, _, let rhs): return [lhs, rhs]
        case .ternary(let condition, let then, let otherwise):
            return [condition] + (then.map { [$0] } ?? []) + [otherwise]
        }
    }
}
