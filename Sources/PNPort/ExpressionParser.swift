/// Parses Objective-C expressions from a file's tokens: message sends with nested brackets, blocks, literals, casts,
/// calls, operators. It never fails: what it cannot read becomes `.unknown` and it always moves forward.
struct ExpressionParser {
    let tokens: [Token]
    /// Whether an identifier names a type, for telling `(Type *)x` casts from `(x)`.
    let isTypeName: (String) -> Bool
    private(set) var position: Int

    init(tokens: [Token], position: Int, isTypeName: @escaping (String) -> Bool) {
        self.tokens = tokens
        self.position = position
        self.isTypeName = isTypeName
    }

    static let builtinTypes: Set<String> = [
        "id", "void", "BOOL", "bool", "int", "long", "short", "char", "unsigned", "signed", "float", "double",
        "NSInteger", "NSUInteger", "NSTimeInterval", "CGFloat", "SEL", "Class", "instancetype", "const",
        "__bridge", "__strong", "__weak", "__unsafe_unretained", "__block", "__autoreleasing", "uint64_t", "int64_t",
        "uint32_t", "int32_t", "size_t",
    ]

    private func peek(_ offset: Int = 0) -> Token? {
        let index = self.position + offset
        return index >= 0 && index < self.tokens.count ? self.tokens[index] : nil
    }

    private mutating func advance() { self.position = min(self.position + 1, self.tokens.count) }

    // MARK: - Operators

    private static let binaryPrecedence: [String: Int] = [
        "*": 11, "/": 11, "%": 11, "+": 10, "-": 10, "<<": 9, ">>": 9, "<": 8, ">": 8, "<=": 8, ">=": 8,
        "==": 7, "!=": 7, "&": 6, "^": 5, "|": 4, "&&": 3, "||": 2,
    ]
    private static let assignments: Set<String> = [
        "=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
    ]

    /// A unary expression with its postfix members and calls: `[PubNub sharedInstance].configuration`,
    /// `message.channel.name`, `^(…){…}`.
    mutating func parseOperand() -> Expr { self.parseUnary() }

    /// An assignment expression (no top-level commas): what a message argument, a call argument or an
    /// initializer is.
    mutating func parseAssignment() -> Expr {
        let lhs = self.parseTernary()
        if let token = self.peek(), token.kind == .punctuation, Self.assignments.contains(token.text) {
            self.advance()
            return .binary(lhs: lhs, operator: token, rhs: self.parseAssignment())
        }
        return lhs
    }

    private mutating func parseTernary() -> Expr {
        let condition = self.parseBinary(minimum: 2)
        guard self.peek()?.isPunctuation("?") == true else { return condition }
        self.advance()
        var then: Expr?
        if self.peek()?.isPunctuation(":") != true { then = self.parseAssignment() }
        guard self.peek()?.isPunctuation(":") == true else { return condition }
        self.advance()
        return .ternary(condition: condition, then: then, otherwise: self.parseAssignment())
    }

    private mutating func parseBinary(minimum: Int) -> Expr {
        var lhs = self.parseUnary()
        while let token = self.peek(), token.kind == .punctuation,
            let precedence = Self.binaryPrecedence[token.text], precedence >= minimum
        {
            self.advance()
            let rhs = self.parseBinary(minimum: precedence + 1)
            lhs = .binary(lhs: lhs, operator: token, rhs: rhs)
        }
        return lhs
    }

    private mutating func parseUnary() -> Expr {
        guard let token = self.peek() else { return .unknown([]) }
        if token.kind == .punctuation, ["!", "-", "+", "~", "*", "&", "++", "--"].contains(token.text) {
            self.advance()
            return .prefix(operator: token, operand: self.parseUnary())
        }
        if token.isPunctuation("("), let cast = self.parseCast() { return cast }
        return self.parsePostfix(self.parsePrimary())
    }

    /// `(Type *)value` when the parentheses hold a type; nil (position unchanged) otherwise.
    private mutating func parseCast() -> Expr? {
        var offset = 1
        var typeTokens: [Token] = []
        var sawName = false
        var sawStar = false
        while let token = self.peek(offset), !token.isPunctuation(")") {
            if token.kind == .identifier {
                sawName = true
            } else if token.isPunctuation("*") {
                sawStar = true
            } else if !(token.isPunctuation("<") || token.isPunctuation(">") || token.isPunctuation(",")) {
                return nil
            }
            typeTokens.append(token)
            offset += 1
            if offset > 12 { return nil }
        }
        guard sawName, let first = typeTokens.first, self.peek(offset)?.isPunctuation(")") == true else { return nil }
        let namesType = Self.builtinTypes.contains(first.text) || self.isTypeName(first.text)
        guard namesType || sawStar, let after = self.peek(offset + 1), Self.startsOperand(after) else { return nil }
        self.position += offset + 1
        return .cast(type: typeTokens, value: self.parseUnary())
    }

    private static func startsOperand(_ token: Token) -> Bool {
        switch token.kind {
        case .identifier, .objcString, .cString, .character, .number, .atKeyword: return true
        case .punctuation: return ["[", "(", "@", "^", "!", "-", "&", "*", "~"].contains(token.text)
        case .directive: return false
        }
    }

    private mutating func parsePostfix(_ base: Expr) -> Expr {
        var expression = base
        while let token = self.peek(), token.kind == .punctuation {
            switch token.text {
            case ".", "->":
                guard let name = self.peek(1), name.kind == .identifier else { return expression }
                self.position += 2
                expression = .member(base: expression, name: name)
            case "(":
                self.advance()
                expression = .call(callee: expression, arguments: self.parseList(until: ")"))
            case "[":
                self.advance()
                let index = self.parseAssignment()
                if self.peek()?.isPunctuation("]") == true { self.advance() }
                expression = .index(base: expression, index: index)
            case "++", "--":
                self.advance()
                expression = .postfix(operand: expression, operator: token)
            default:
                return expression
            }
        }
        return expression
    }

    /// Comma-separated assignment expressions up to the closing mark, which is consumed.
    private mutating func parseList(until close: String) -> [Expr] {
        var items: [Expr] = []
        while let token = self.peek(), !token.isPunctuation(close) {
            let before = self.position
            items.append(self.parseAssignment())
            if self.peek()?.isPunctuation(",") == true { self.advance() }
            if self.position == before { self.advance() }  // a token no expression starts with
        }
        if self.peek() != nil { self.advance() }
        return items
    }

    // MARK: - Primary expressions

    private mutating func parsePrimary() -> Expr {
        guard let token = self.peek() else { return .unknown([]) }
        switch token.kind {
        case .identifier, .number, .cString, .character:
            self.advance()
            return token.kind == .identifier ? .identifier(token) : .literal(token)
        case .objcString:
            var parts: [Token] = []
            while let part = self.peek(), part.kind == .objcString || (part.kind == .cString && !parts.isEmpty) {
                parts.append(part)
                self.advance()
            }
            return .string(parts)
        case .atKeyword:
            return self.parseAtKeyword(token)
        case .punctuation:
            switch token.text {
            case "[": return self.parseSend()
            case "(":
                self.advance()
                let inner = self.parseCommaExpression()
                if self.peek()?.isPunctuation(")") == true { self.advance() }
                return .parenthesized(inner)
            case "^": return self.parseBlock()
            case "@": return self.parseBoxed()
            default:
                self.advance()
                return .unknown([token])
            }
        case .directive:
            self.advance()
            return .unknown([token])
        }
    }

    /// `a, b` inside parentheses: the value is the last one.
    private mutating func parseCommaExpression() -> Expr {
        var expression = self.parseAssignment()
        while self.peek()?.isPunctuation(",") == true {
            self.advance()
            expression = self.parseAssignment()
        }
        return expression
    }

    private mutating func parseAtKeyword(_ token: Token) -> Expr {
        self.advance()
        switch token.text {
        case "@YES", "@NO", "@true", "@false":
            return .boxed(
                .identifier(
                    Token(
                        kind: .identifier,
                        text: String(token.text.dropFirst()),
                        line: token.line,
                        start: token.start + 1,
                        end: token.end
                    )
                )
            )
        case "@selector":
            guard self.peek()?.isPunctuation("(") == true else { return .unknown([token]) }
            self.advance()
            var selector = ""
            while let part = self.peek(), !part.isPunctuation(")") {
                selector += part.text
                self.advance()
            }
            if self.peek() != nil { self.advance() }
            return .selector(selector, token)
        default:
            var quoted = [token]
            if self.peek()?.isPunctuation("(") == true {
                while let part = self.peek() {
                    quoted.append(part)
                    self.advance()
                    if part.isPunctuation(")") { break }
                }
            }
            return .unknown(quoted)
        }
    }

    /// `@[…]`, `@{…}`, `@(…)`, `@42`, `@-1`.
    private mutating func parseBoxed() -> Expr {
        let at = self.peek()!
        self.advance()
        guard let next = self.peek() else { return .unknown([at]) }
        switch next.text {
        case "[":
            self.advance()
            return .array(self.parseList(until: "]"))
        case "{":
            self.advance()
            var pairs: [(key: Expr, value: Expr)] = []
            while let token = self.peek(), !token.isPunctuation("}") {
                let before = self.position
                let key = self.parseTernary()
                if self.peek()?.isPunctuation(":") == true { self.advance() }
                pairs.append((key, self.parseAssignment()))
                if self.peek()?.isPunctuation(",") == true { self.advance() }
                if self.position == before { self.advance() }
            }
            if self.peek() != nil { self.advance() }
            return .dictionary(pairs)
        case "(":
            self.advance()
            let inner = self.parseCommaExpression()
            if self.peek()?.isPunctuation(")") == true { self.advance() }
            return .boxed(inner)
        default:
            return .boxed(self.parseUnary())
        }
    }

    /// `[receiver selector]` or `[receiver piece:argument … , variadic…]`.
    private mutating func parseSend() -> Expr {
        let open = self.position
        self.advance()
        let receiver = self.parsePostfix(self.parseUnaryReceiver())
        var pieces: [MessageSend.Piece] = []
        var variadic: [Expr] = []
        if let name = self.peek(), name.kind == .identifier, self.peek(1)?.isPunctuation("]") == true {
            pieces.append(.init(keyword: name.text, argument: nil))
            self.advance()
        } else {
            while let token = self.peek(), !token.isPunctuation("]") {
                let before = self.position
                if token.kind == .identifier, self.peek(1)?.isPunctuation(":") == true {
                    self.position += 2
                    pieces.append(.init(keyword: token.text, argument: self.parseAssignment()))
                } else if token.isPunctuation(":") {
                    self.advance()
                    pieces.append(.init(keyword: "", argument: self.parseAssignment()))
                } else if token.isPunctuation(","), !pieces.isEmpty {
                    self.advance()
                    variadic.append(self.parseAssignment())
                } else {
                    self.advance()  // not a message send after all; skip to its bracket
                }
                if self.position == before { self.advance() }
            }
        }
        let close = min(self.position, self.tokens.count - 1)
        if self.peek() != nil { self.advance() }
        guard !pieces.isEmpty else { return .index(base: receiver, index: .unknown([])) }
        return .send(MessageSend(receiver: receiver, pieces: pieces, variadic: variadic, open: open, close: close))
    }

    /// The receiver of a send: a primary expression, or a cast (`[(PNChannel *)x name]`).
    private mutating func parseUnaryReceiver() -> Expr {
        if self.peek()?.isPunctuation("(") == true, let cast = self.parseCast() { return cast }
        return self.parsePrimary()
    }

    /// `^{ … }`, `^(T a, U b) { … }`, `^ReturnType(T a) { … }`.
    private mutating func parseBlock() -> Expr {
        let caret = self.position
        self.advance()
        while let token = self.peek(), token.kind == .identifier || token.isPunctuation("*") { self.advance() }
        var parameters: [BlockLiteral.Parameter]?
        if self.peek()?.isPunctuation("(") == true {
            self.advance()
            var list: [BlockLiteral.Parameter] = []
            var current: [Token] = []
            while let token = self.peek(), !token.isPunctuation(")") {
                if token.isPunctuation(",") {
                    if let parameter = Self.parameter(current) { list.append(parameter) }
                    current = []
                } else {
                    current.append(token)
                }
                self.advance()
            }
            if let parameter = Self.parameter(current) { list.append(parameter) }
            if self.peek() != nil { self.advance() }
            parameters = list
        }
        guard self.peek()?.isPunctuation("{") == true else { return .unknown([self.tokens[caret]]) }
        let bodyOpen = self.position
        let bodyClose = Self.matchingBrace(self.tokens, from: bodyOpen)
        self.position = min(bodyClose + 1, self.tokens.count)
        return .block(BlockLiteral(parameters: parameters, caret: caret, bodyOpen: bodyOpen, bodyClose: bodyClose))
    }

    /// `PNMessage *message` → (PNMessage*, message); `void` and unnamed parameters give nil.
    static func parameter(_ tokens: [Token]) -> BlockLiteral.Parameter? {
        guard let name = tokens.last, name.kind == .identifier, tokens.count >= 2 else { return nil }
        guard let type = ObjCTypeReader.read(Array(tokens.dropLast())) else { return nil }
        return BlockLiteral.Parameter(type: type, name: name.text)
    }

    /// The index of the `}` closing the `{` at `open` (the last token if it is never closed).
    static func matchingBrace(_ tokens: [Token], from open: Int) -> Int {
        var depth = 0
        var index = open
        while index < tokens.count {
            if tokens[index].isPunctuation("{") {
                depth += 1
            } else if tokens[index].isPunctuation("}") {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return tokens.count - 1
    }
}
