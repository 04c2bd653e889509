/// Reads an Objective-C type from its tokens: `PNChannel *`, `NSArray<PNChannel *> *`, `id<PNDelegate>`,
/// `__weak __typeof__(self)`, `const NSString *`, `unsigned long long`.
enum ObjCTypeReader {
    private static let qualifiers: Set<String> = [
        "const", "__weak", "__strong", "__block", "__unsafe_unretained", "__autoreleasing", "__pn_desired_weak",
        "pn_desired_weak", "static", "volatile", "__bridge", "nonnull", "nullable", "_Nonnull", "_Nullable",
        "__nonnull", "__nullable", "in", "out", "inout", "oneway", "bycopy", "byref", "extern",
    ]

    static func read(_ tokens: [Token]) -> ObjCType? {
        var index = 0
        var isWeak = false
        while index < tokens.count, tokens[index].kind == .identifier, qualifiers.contains(tokens[index].text) {
            isWeak = isWeak || ["__weak", "__pn_desired_weak", "pn_desired_weak"].contains(tokens[index].text)
            index += 1
        }
        guard index < tokens.count, tokens[index].kind == .identifier else { return nil }
        let head = tokens[index].text
        if ["__typeof__", "__typeof", "typeof"].contains(head) {
            let operand = tokens.dropFirst(index + 1).filter { $0.kind == .identifier }.first?.text
            return ObjCType(name: "__typeof__", pointerDepth: 0, protocols: [], typeofOperand: operand, isWeak: isWeak)
        }
        var name = head
        index += 1
        // `unsigned long long`, `long long`: one name.
        while index < tokens.count, tokens[index].kind == .identifier,
            ["long", "int", "short", "char", "double"].contains(tokens[index].text),
            ["unsigned", "signed", "long", "short"].contains(name.split(separator: " ").last.map(String.init) ?? "")
        {
            name += " " + tokens[index].text
            index += 1
        }
        if name.hasPrefix("unsigned") {
            name = name == "unsigned" || name == "unsigned int" ? "unsigned" : "NSUInteger"
        }
        if name == "long long" || name == "long int" { name = "long" }
        var protocols: [String] = []
        var pointers = 0
        var depth = 0
        while index < tokens.count {
            let token = tokens[index]
            if token.isPunctuation("<") {
                depth += 1
            } else if token.isPunctuation(">") {
                depth -= 1
            } else if token.isPunctuation("*") && depth == 0 {
                pointers += 1
            } else if token.kind == .identifier && depth == 1 && name == "id" {
                protocols.append(token.text)
            }
            index += 1
        }
        return ObjCType(name: name, pointerDepth: pointers, protocols: protocols, isWeak: isWeak)
    }
}
