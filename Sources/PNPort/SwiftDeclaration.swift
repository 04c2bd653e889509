import Foundation

/// A Swift declaration as MIGRATION.md's tables write it (`static func sendMessage(_ message: Any, toChannel:
/// PNChannel) -> PNMessage?`, `var origin: String`, `case PNMessageSent`), taken apart far enough to spell a call
/// of it: its name, its argument labels and types, and the type it gives.
struct SwiftDeclaration: Equatable {
    enum Kind: Equatable {
        case function
        case initializer
        case property
        case enumCase
        case typeAlias
        case type
    }

    struct Parameter: Equatable {
        /// The argument label; nil for `_`.
        let label: String?
        /// The type as written, without `@escaping`.
        let type: String
    }

    let kind: Kind
    let isStatic: Bool
    let name: String
    let parameters: [Parameter]
    /// Functions: the result type (nil for `Void`); properties: their type; type aliases: the aliased type.
    let type: String?
    /// The declaration as MIGRATION.md writes it.
    let text: String

    /// The Swift name with argument labels: `sendMessage(_:toChannel:)`, `init(origin:publishKey:…)`, `origin`.
    var swiftName: String {
        guard self.kind == .function || self.kind == .initializer else { return self.name }
        return "\(self.name)(\(self.parameters.map { "\($0.label ?? "_"):" }.joined()))"
    }

    /// The Objective-C selector the naming rule (MIGRATION.md §2) gives this declaration:
    /// `pubnubClient(_:didReceiveMessage:)` is `pubnubClient:didReceiveMessage:`, `connect()` is `connect`.
    var objcSelector: String {
        switch self.kind {
        case .function:
            guard !self.parameters.isEmpty else { return self.name }
            return "\(self.name):" + self.parameters.dropFirst().map { "\($0.label ?? ""):" }.joined()
        case .initializer:
            guard let first = self.parameters.first?.label else { return "init" }
            let head = "initWith" + first.prefix(1).uppercased() + first.dropFirst() + ":"
            return head + self.parameters.dropFirst().map { "\($0.label ?? ""):" }.joined()
        default:
            return self.name
        }
    }

    /// Parses one declaration; nil for text that is not one (`—`, prose).
    init?(_ text: String) {
        var rest = Substring(text.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        var isStatic = false
        while true {
            if rest.hasPrefix("@") {
                guard let space = rest.firstIndex(of: " ") else { return nil }
                rest = rest[rest.index(after: space)...]
                continue
            }
            var dropped = false
            for modifier in ["static ", "class ", "convenience ", "final ", "required ", "public ", "override "]
            where rest.hasPrefix(modifier) {
                isStatic = isStatic || modifier == "static " || modifier == "class "
                rest = rest.dropFirst(modifier.count)
                dropped = true
            }
            if !dropped { break }
        }
        self.isStatic = isStatic
        self.text = text
        if rest.hasPrefix("func ") || rest.hasPrefix("init(") || rest.hasPrefix("init?(") {
            let isInit = rest.hasPrefix("init")
            if !isInit { rest = rest.dropFirst(5) }
            guard let open = rest.firstIndex(where: { $0 == "(" || $0 == "<" }) else { return nil }
            self.name = String(rest[..<open]).replacingOccurrences(of: "?", with: "")
            var afterName = rest[open...]
            if afterName.hasPrefix("<"), let close = afterName.firstIndex(of: ">") {
                afterName = afterName[afterName.index(after: close)...]
            }
            guard afterName.hasPrefix("("), let close = Self.matchingClose(afterName) else { return nil }
            let inside = afterName[afterName.index(after: afterName.startIndex)..<close]
            self.parameters = Self.splitTopLevel(inside).compactMap(Self.parameter)
            let tail = afterName[afterName.index(after: close)...].trimmingCharacters(in: .whitespaces)
            self.type = tail.hasPrefix("->") ? String(tail.dropFirst(2)).trimmingCharacters(in: .whitespaces) : nil
            self.kind = isInit ? .initializer : .function
            return
        }
        self.parameters = []
        if let match = Self.afterKeyword(["var ", "let "], in: rest) {
            guard let colon = match.firstIndex(of: ":") else { return nil }
            self.name = String(match[..<colon]).trimmingCharacters(in: .whitespaces)
            let type = match[match.index(after: colon)...]
            self.type = String(type.split(separator: "{")[0]).trimmingCharacters(in: .whitespaces)
            self.kind = .property
        } else if let match = Self.afterKeyword(["case "], in: rest) {
            self.name = String(match).trimmingCharacters(in: .whitespaces)
            self.type = nil
            self.kind = .enumCase
        } else if let match = Self.afterKeyword(["typealias "], in: rest), let equals = match.firstIndex(of: "=") {
            self.name = String(match[..<equals]).trimmingCharacters(in: .whitespaces)
            self.type = String(match[match.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            self.kind = .typeAlias
        } else if let match = Self.afterKeyword(["enum ", "struct ", "class ", "protocol "], in: rest) {
            self.name = String(match.split(separator: ":")[0]).trimmingCharacters(in: .whitespaces)
            self.type = nil
            self.kind = .type
        } else {
            return nil
        }
    }

    /// The parameter types of a function type such as `(String, Bool, PNError?) -> Void`; nil for other types.
    static func closureParameters(of type: String) -> [String]? {
        let trimmed = Substring(type.trimmingCharacters(in: .whitespaces))
        guard trimmed.hasPrefix("("), let close = matchingClose(trimmed) else { return nil }
        let after = trimmed[trimmed.index(after: close)...].trimmingCharacters(in: .whitespaces)
        guard after.hasPrefix("->") else { return nil }
        let inside = trimmed[trimmed.index(after: trimmed.startIndex)..<close]
        return splitTopLevel(inside).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    private static func afterKeyword(_ keywords: [String], in text: Substring) -> Substring? {
        for keyword in keywords where text.hasPrefix(keyword) { return text.dropFirst(keyword.count) }
        return nil
    }

    private static func parameter(_ text: Substring) -> Parameter? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let names = text[..<colon].split(separator: " ")
        guard let label = names.first else { return nil }
        var type = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        if type.hasPrefix("@escaping ") { type.removeFirst("@escaping ".count) }
        return Parameter(label: label == "_" ? nil : String(label), type: type)
    }

    /// The index of the bracket closing the one `text` starts with.
    static func matchingClose(_ text: Substring) -> Substring.Index? {
        var depth = 0
        var previous: Character = " "
        for index in text.indices {
            let character = text[index]
            if "([<".contains(character) {
                depth += 1
            } else if ")]".contains(character) || (character == ">" && previous != "-") {
                depth -= 1
                if depth == 0 { return index }
            }
            previous = character
        }
        return nil
    }

    /// `text` split at commas outside brackets.
    static func splitTopLevel(_ text: Substring) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var start = text.startIndex
        var previous: Character = " "
        for index in text.indices {
            let character = text[index]
            if "([<".contains(character) {
                depth += 1
            } else if ")]".contains(character) || (character == ">" && previous != "-") {
                depth -= 1
            } else if character == "," && depth == 0 {
                parts.append(text[start..<index])
                start = text.index(after: index)
            }
            previous = character
        }
        if start < text.endIndex || !parts.isEmpty { parts.append(text[start...]) }
        return parts.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
    }
}
