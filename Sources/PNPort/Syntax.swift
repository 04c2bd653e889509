/// An Objective-C expression, as far as the assistant needs to spell it in Swift. Each node knows the token range
/// it came from (`first`…`last`, indices into the file's tokens) so the report can quote the 3.4 text.
indirect enum Expr {
    /// `[receiver piece:argument …, variadic…]`.
    case send(MessageSend)
    /// `foo`, `self`, `YES`, `PubNub`.
    case identifier(Token)
    /// A number, C string or character literal.
    case literal(Token)
    /// One or more adjacent `@"…"` literals.
    case string([Token])
    /// `@42`, `@YES`, `@(expression)`.
    case boxed(Expr)
    /// `@[a, b]`.
    case array([Expr])
    /// `@{k: v}`.
    case dictionary([(key: Expr, value: Expr)])
    case block(BlockLiteral)
    /// `f(a, b)`.
    case call(callee: Expr, arguments: [Expr])
    /// `a.b` or `a->b`.
    case member(base: Expr, name: Token)
    /// `a[i]`.
    case index(base: Expr, index: Expr)
    case parenthesized(Expr)
    /// `(PNChannel *)x`: the type's tokens, then the value.
    case cast(type: [Token], value: Expr)
    /// `!x`, `-x`, `&x`, `++x`.
    case prefix(operator: Token, operand: Expr)
    /// `x++`.
    case postfix(operand: Expr, operator: Token)
    case binary(lhs: Expr, operator: Token, rhs: Expr)
    /// `c ? a : b`; `a ?: b` has no middle.
    case ternary(condition: Expr, then: Expr?, otherwise: Expr)
    /// `@selector(a:b:)`.
    case selector(String, Token)
    /// Anything else, quoted as it was (`sizeof(int)`, `@encode(…)`).
    case unknown([Token])
}

/// `[receiver piece:argument …]`.
struct MessageSend {
    struct Piece {
        /// The keyword before the colon; empty for an anonymous `:` piece, and for a unary selector the
        /// selector itself (then `argument` is nil).
        let keyword: String
        let argument: Expr?
    }

    let receiver: Expr
    let pieces: [Piece]
    /// Arguments after a `,` (`arrayWithObjects:a, b, nil`).
    let variadic: [Expr]
    /// Token indices of the brackets.
    let open: Int
    let close: Int

    /// `sendMessage:toChannel:`, or `connect` for a unary selector.
    var selector: String {
        if self.pieces.count == 1 && self.pieces[0].argument == nil { return self.pieces[0].keyword }
        return self.pieces.map { "\($0.keyword):" }.joined()
    }

    var arguments: [Expr] { self.pieces.compactMap(\.argument) }
}

/// `^(PNMessage *message) { … }`.
struct BlockLiteral {
    struct Parameter {
        let type: ObjCType
        let name: String
    }

    /// nil when the literal has no parameter list (`^{ … }`).
    let parameters: [Parameter]?
    /// Token indices of the caret and of the body's braces.
    let caret: Int
    let bodyOpen: Int
    let bodyClose: Int
}

/// An Objective-C type as declared: `PNChannel *`, `NSArray *`, `BOOL`, `id<PNDelegate>`, `__typeof__(self)`.
struct ObjCType: Equatable {
    /// The type name (`PNChannel`, `BOOL`, `id`); `__typeof__(x)` keeps `x` in `typeofOperand`.
    let name: String
    let pointerDepth: Int
    let protocols: [String]
    var typeofOperand: String? = nil
    /// Declared `__weak` or `pn_desired_weak`: Swift's `weak`, so optional.
    var isWeak = false
    /// The Swift type the layer gives this value, where the table says it: a block parameter of a 3.4 block type
    /// (`NSArray *channels` is `[PNChannel]`), a delegate method's parameter.
    var knownSwiftType: String? = nil

    /// The Swift type the naming rule gives it (MIGRATION.md §2 rule 6), nil for what it does not name.
    var swiftType: String? {
        if let known = self.knownSwiftType { return known }
        guard let type = self.strongSwiftType else { return nil }
        return self.isWeak && !type.hasSuffix("?") ? type + "?" : type
    }

    private var strongSwiftType: String? {
        if self.name == "id" {
            return self.protocols == ["PNDelegate"] ? "(any PNDelegate)?" : "Any"
        }
        switch self.name {
        case "NSString", "NSMutableString": return "String"
        case "NSNumber": return "NSNumber"
        case "NSData": return "Data"
        case "NSDate": return "Date"
        case "NSError": return "NSError"
        case "NSDictionary", "NSMutableDictionary": return "[String: Any]"
        case "NSArray", "NSMutableArray": return "[Any]"
        case "NSNotification": return "Notification"
        case "BOOL", "bool": return "Bool"
        case "NSUInteger": return "UInt"
        case "NSInteger": return "Int"
        case "NSTimeInterval": return "TimeInterval"
        case "int": return "Int32"
        case "unsigned": return "UInt32"
        case "long": return "Int"
        case "double", "CGFloat": return "Double"
        case "float": return "Float"
        case "void": return nil
        default: return self.name.first?.isUppercase == true ? self.name : nil
        }
    }
}
