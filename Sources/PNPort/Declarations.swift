/// `@interface Name : Super (Category) <Protocols>` (also `@implementation` and `@protocol` headers).
struct InterfaceHeader {
    let keyword: String
    let name: String
    let superclass: String?
    let protocols: [String]
    /// A category or class extension (`@interface Name ()`).
    let isExtension: Bool
    /// Token indices of the keyword and of the header's last token.
    let first: Int
    let last: Int
}

/// `- (ReturnType)piece:(Type)name piece:(Type)name` up to its `{` or `;`.
struct MethodHeader {
    struct Piece {
        let keyword: String
        let type: ObjCType?
        let name: String?
    }

    let isClassMethod: Bool
    let returnType: ObjCType?
    let pieces: [Piece]
    /// Token indices of the `-`/`+` and of the `{` or `;` that ends the header.
    let first: Int
    let terminator: Int

    var selector: String {
        if self.pieces.count == 1 && self.pieces[0].name == nil { return self.pieces[0].keyword }
        return self.pieces.map { "\($0.keyword):" }.joined()
    }

    /// The pieces that take an argument (none for `- (void)connect`).
    var parameters: [Piece] { self.pieces.count == 1 && self.pieces[0].name == nil ? [] : self.pieces }
}

/// Reads the declarations of Objective-C: interfaces, method headers, properties, typedefs, variables.
enum Declarations {
    static func interfaceHeader(_ tokens: [Token], at start: Int) -> InterfaceHeader? {
        guard start + 1 < tokens.count, tokens[start + 1].kind == .identifier else { return nil }
        let keyword = tokens[start].text
        let name = tokens[start + 1].text
        var index = start + 2
        var superclass: String?
        var protocols: [String] = []
        var isExtension = false
        if index < tokens.count, tokens[index].isPunctuation(":"), index + 1 < tokens.count {
            superclass = tokens[index + 1].text
            index += 2
        }
        if index < tokens.count, tokens[index].isPunctuation("(") {
            isExtension = true
            while index < tokens.count, !tokens[index].isPunctuation(")") { index += 1 }
            index += 1
        }
        if index < tokens.count, tokens[index].isPunctuation("<") {
            index += 1
            while index < tokens.count, !tokens[index].isPunctuation(">") {
                if tokens[index].kind == .identifier { protocols.append(tokens[index].text) }
                index += 1
            }
            index += 1
        }
        return InterfaceHeader(
            keyword: keyword,
            name: name,
            superclass: superclass,
            protocols: protocols,
            isExtension: isExtension,
            first: start,
            last: max(start + 1, min(index, tokens.count) - 1)
        )
    }

    /// The method header starting at the `-` or `+` at `start`.
    static func methodHeader(_ tokens: [Token], at start: Int) -> MethodHeader? {
        var index = start + 1
        var returnType: ObjCType?
        if index < tokens.count, tokens[index].isPunctuation("(") {
            let close = Self.closingParenthesis(tokens, from: index)
            returnType = ObjCTypeReader.read(Self.tokens(tokens, from: index + 1, upTo: close))
            index = close + 1
        }
        var pieces: [MethodHeader.Piece] = []
        while index < tokens.count {
            let token = tokens[index]
            if token.isPunctuation("{") || token.isPunctuation(";") { break }
            if token.kind == .identifier, index + 1 < tokens.count, tokens[index + 1].isPunctuation(":") {
                index += 2
                var type: ObjCType?
                if index < tokens.count, tokens[index].isPunctuation("(") {
                    let close = Self.closingParenthesis(tokens, from: index)
                    type = ObjCTypeReader.read(Self.tokens(tokens, from: index + 1, upTo: close))
                    index = close + 1
                }
                var name: String?
                if index < tokens.count, tokens[index].kind == .identifier {
                    name = tokens[index].text
                    index += 1
                }
                pieces.append(.init(keyword: token.text, type: type, name: name))
            } else if token.kind == .identifier && pieces.isEmpty {
                pieces.append(.init(keyword: token.text, type: nil, name: nil))
                index += 1
            } else if token.kind == .identifier || token.isPunctuation(",") || token.isPunctuation("...") {
                index += 1  // `__attribute__`, `NS_REQUIRES_NIL_TERMINATION`, variadic `, ...`
            } else if token.isPunctuation("(") {
                index = Self.closingParenthesis(tokens, from: index) + 1
            } else {
                return nil
            }
        }
        guard !pieces.isEmpty, index < tokens.count else { return nil }
        return MethodHeader(
            isClassMethod: tokens[start].isPunctuation("+"),
            returnType: returnType,
            pieces: pieces,
            first: start,
            terminator: index
        )
    }

    /// `@property (attributes) Type *name;` → (name, type, index of the `;`).
    static func property(_ tokens: [Token], at start: Int) -> (name: String, type: ObjCType?, end: Int)? {
        var index = start + 1
        if index < tokens.count, tokens[index].isPunctuation("(") {
            index = Self.closingParenthesis(tokens, from: index) + 1
        }
        let typeStart = index
        while index < tokens.count, !tokens[index].isPunctuation(";") { index += 1 }
        guard index < tokens.count else { return nil }
        let declaration = Array(tokens[typeStart..<index])
        // A block property: `void (^name)(…)`.
        if let caret = declaration.firstIndex(where: { $0.isPunctuation("^") }), caret + 1 < declaration.count,
            declaration[caret + 1].kind == .identifier
        {
            return (declaration[caret + 1].text, nil, index)
        }
        let withoutAttributes = declaration.prefix(while: {
            !$0.text.hasPrefix("__attribute") && !$0.text.hasPrefix("NS_")
        })
        guard let name = withoutAttributes.last(where: { $0.kind == .identifier }) else { return nil }
        // Interface Builder's markers are not part of the type.
        let typeTokens = Array(withoutAttributes.prefix(while: { $0.start < name.start })).filter {
            $0.text != "IBOutlet"
        }
        return (name.text, ObjCTypeReader.read(typeTokens), index)
    }

    /// `tokens[from..<upTo]`, empty when the bounds cross (a parenthesis never closed at the end of a file).
    static func tokens(_ tokens: [Token], from: Int, upTo: Int) -> [Token] {
        from < upTo && from >= 0 && upTo <= tokens.count ? Array(tokens[from..<upTo]) : []
    }

    /// The index of the `)` closing the `(` at `open` (the last token if never closed).
    static func closingParenthesis(_ tokens: [Token], from open: Int) -> Int {
        var depth = 0
        var index = open
        while index < tokens.count {
            if tokens[index].isPunctuation("(") {
                depth += 1
            } else if tokens[index].isPunctuation(")") {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return tokens.count - 1
    }

    /// A variable declaration starting at `start` (`PNChannel *channel = …`, `__block BOOL done;`,
    /// `NSArray *a, *b;`): its type, the names with their token index, and the index after the last name. Nil when
    /// the tokens are not a declaration.
    static func variable(
        _ tokens: [Token],
        at start: Int,
        isTypeName: (String) -> Bool
    )
        -> (type: ObjCType, names: [(name: String, index: Int)], end: Int)?
    {
        var index = start
        var typeTokens: [Token] = []
        // Qualifiers and the type name.
        while index < tokens.count, tokens[index].kind == .identifier {
            let text = tokens[index].text
            typeTokens.append(tokens[index])
            index += 1
            if ["__typeof__", "__typeof", "typeof"].contains(text), index < tokens.count,
                tokens[index].isPunctuation("(")
            {
                let close = Self.closingParenthesis(tokens, from: index)
                typeTokens += tokens[index...close]
                index = close + 1
                break
            }
            if !ObjCTypeReader.isQualifier(text) && !["unsigned", "signed", "long", "short"].contains(text) { break }
        }
        guard let head = typeTokens.first(where: { !ObjCTypeReader.isQualifier($0.text) }) else { return nil }
        let namesType =
            ExpressionParser.builtinTypes.contains(head.text) || isTypeName(head.text)
            || head.text.hasPrefix("__typeof") || head.text == "typeof"
        guard namesType else { return nil }
        if index < tokens.count, tokens[index].isPunctuation("<") {  // `id<PNDelegate>`, `NSArray<…>`
            while index < tokens.count, !tokens[index].isPunctuation(">") {
                typeTokens.append(tokens[index])
                index += 1
            }
            if index < tokens.count {
                typeTokens.append(tokens[index])
                index += 1
            }
        }
        var names: [(String, Int)] = []
        while true {
            var stars: [Token] = []
            while index < tokens.count,
                tokens[index].isPunctuation("*") || ObjCTypeReader.isQualifier(tokens[index].text)
            {
                stars.append(tokens[index])
                index += 1
            }
            guard index + 1 < tokens.count, tokens[index].kind == .identifier else { return nil }
            let following = tokens[index + 1]
            guard
                following.isPunctuation("=") || following.isPunctuation(";") || following.isPunctuation(",")
                    || following.isPunctuation("[") || following.isIdentifier("in")
            else { return nil }
            if names.isEmpty { typeTokens += stars }
            names.append((tokens[index].text, index))
            index += 1
            guard following.isPunctuation(","), names.count < 16 else { break }
            index += 1
        }
        guard let type = ObjCTypeReader.read(typeTokens) else { return nil }
        return (type, names, index)
    }
}

extension ObjCTypeReader {
    static func isQualifier(_ text: String) -> Bool {
        [
            "const", "__weak", "__strong", "__block", "__unsafe_unretained", "__autoreleasing", "__pn_desired_weak",
            "pn_desired_weak", "static", "volatile", "extern", "register",
        ].contains(text)
    }
}
