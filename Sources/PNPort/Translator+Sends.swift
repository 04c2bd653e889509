import Foundation

extension Translator {
    // MARK: - Types

    /// The Swift type of a declared Objective-C type, the context's class for `__typeof__(self)`.
    func swiftType(_ type: ObjCType) -> String? {
        if type.name == "__typeof__" {
            let operand =
                type.typeofOperand == "self"
                ? self.context.className
                : type.typeofOperand.flatMap { self.scope.lookup($0) }.flatMap { self.swiftType($0) }
            return operand.map { type.isWeak && !$0.hasSuffix("?") ? $0 + "?" : $0 }
        }
        return type.swiftType
    }

    /// The Swift type of `expression`, where the table, the declarations in scope or the app's classes say it.
    func type(of expression: Expr) -> String? {
        switch expression {
        case .identifier(let token):
            if token.text == "self" { return self.context.isClassMethod ? nil : self.context.className }
            if let declared = self.scope.lookup(token.text) { return self.swiftType(declared) }
            if let className = self.context.className, let member = self.model.memberType(token.text, of: className) {
                return self.swiftType(member)
            }
            return self.table.global(token.text)?.declaration.type
        case .member(let base, let name):
            guard let baseType = self.type(of: base) else { return nil }
            let owner = Self.unwrapped(baseType)
            var type: String?
            if self.vocabulary.isAPIClass(owner) {
                type = self.table.property(name.text, of: owner)?.declaration.type
            } else if let member = self.model.memberType(name.text, of: owner) {
                type = self.swiftType(member)
            }
            guard let type else { return nil }
            return Self.isOptional(baseType) && !Self.isOptional(type) ? type + "?" : type
        case .send(let send):
            return self.resolve(send).resultType ?? self.foundationResultType(send)
        case .parenthesized(let inner):
            return self.type(of: inner)
        case .cast(let type, _):
            return ObjCTypeReader.read(type).flatMap { self.swiftType($0) }
        case .string:
            return "String"
        case .call(.identifier(let name), _) where name.text == "NSStringFromClass":
            return "String"
        case .ternary(_, let then, let otherwise):
            let other = self.type(of: otherwise)
            return then.map { self.type(of: $0) == other ? other : nil } ?? other
        default:
            return nil
        }
    }

    /// The result of a send that is not PubNub's, where the app's declarations or Foundation say it: an app
    /// method's declared result, an element of a 3.4 array (`lastObject`, `objectAtIndex:`).
    private func foundationResultType(_ send: MessageSend) -> String? {
        if case .identifier(let receiver) = send.receiver, self.scope.lookup(receiver.text) == nil,
            self.model.classes[receiver.text] != nil
        {
            return self.model.resultType(send.selector, of: receiver.text, classSide: true).flatMap {
                self.resultType($0, receiver.text)
            }
        }
        guard let receiverType = self.type(of: send.receiver) else { return nil }
        let owner = Self.unwrapped(receiverType)
        if owner.hasPrefix("[") && owner.hasSuffix("]") && !owner.contains(":") {
            let element = String(owner.dropFirst().dropLast())
            let optional = Self.isOptional(receiverType) ? "?" : ""
            switch send.selector {
            case "lastObject", "firstObject": return element + "?"
            case "objectAtIndex:": return element + optional
            case "count": return "Int" + optional
            default: return nil
            }
        }
        if self.model.classes[owner] != nil {
            if send.arguments.isEmpty, let member = self.model.memberType(send.selector, of: owner) {
                return self.swiftType(member)
            }
            return self.model.resultType(send.selector, of: owner, classSide: false).flatMap {
                self.resultType($0, owner)
            }
        }
        return nil
    }

    /// An app method's declared result in Swift (`instancetype` is the class).
    private func resultType(_ type: ObjCType, _ className: String) -> String? {
        ["instancetype", "id"].contains(type.name) && type.protocols.isEmpty ? className : self.swiftType(type)
    }

    // MARK: - Message sends

    /// What a send calls, decided before it is spelled.
    enum Resolution {
        /// A 3.4 method, initializer or property of `owner`; `receiverType` is nil for a class method.
        case api(APIName, owner: String, receiverType: String?)
        /// `[object setName:value]` of a 3.4 property.
        case setter(APIName, owner: String, receiverType: String)
        /// A send to a 3.4 class or object that 3.4 did not have (`reason` says what it is).
        case unknownAPI(name: String, reason: String)
        /// Not PubNub: spelled by the naming rule, or by a Foundation idiom.
        case other(resultType: String?)

        var resultType: String? {
            switch self {
            case .api(let name, let owner, let receiverType):
                let type = name.declaration.kind == .initializer ? owner : name.declaration.type
                guard let type, let receiverType, Translator.isOptional(receiverType) else { return type }
                return Translator.isOptional(type) ? type : type + "?"
            case .setter, .unknownAPI: return nil
            case .other(let resultType): return resultType
            }
        }
    }

    func resolve(_ send: MessageSend) -> Resolution {
        let selector = send.selector
        // `[[PNConfiguration alloc] initWith…]`
        if selector.hasPrefix("init"), case .send(let allocation) = send.receiver,
            ["alloc", "new"].contains(allocation.selector),
            case .identifier(let className) = allocation.receiver
        {
            guard self.vocabulary.isAPIClass(className.text) else { return .other(resultType: className.text) }
            if let initializer = self.table.members(of: className.text, named: selector).first(where: {
                $0.declaration.kind == .initializer
            }) {
                return .api(initializer, owner: className.text, receiverType: nil)
            }
            return .unknownAPI(
                name: "-[\(className.text) \(selector)]",
                reason: Self.missing(selector, className.text, self.table)
            )
        }
        if case .identifier(let receiver) = send.receiver, self.scope.lookup(receiver.text) == nil,
            self.vocabulary.isClassName(receiver.text)
        {
            let className = receiver.text
            guard self.vocabulary.isAPIClass(className) else {
                return .other(resultType: ["alloc", "new"].contains(selector) ? className : nil)
            }
            if ["alloc", "new", "class"].contains(selector) { return .other(resultType: className) }
            if let method = self.table.method(selector, of: className, classSide: true) {
                return .api(method, owner: className, receiverType: nil)
            }
            return .unknownAPI(
                name: "+[\(className) \(selector)]",
                reason: Self.missing(selector, className, self.table)
            )
        }
        guard let receiverType = self.type(of: send.receiver) else {
            if let owner = self.vocabulary.distinctiveSelectors[selector],
                let method = self.table.method(selector, of: owner, classSide: false)
            {
                return .api(method, owner: owner, receiverType: owner)
            }
            return .other(resultType: nil)
        }
        let owner = Self.unwrapped(receiverType)
        if owner == "PNDelegate", let method = self.table.delegateMethods(selector).first {
            return .api(method, owner: owner, receiverType: receiverType)
        }
        guard self.vocabulary.isAPIClass(owner) else { return .other(resultType: nil) }
        if send.arguments.isEmpty, let property = self.table.property(selector, of: owner) {
            return .api(property, owner: owner, receiverType: receiverType)
        }
        if let unavailable = self.table.unavailableName(selector) {
            return .unknownAPI(name: "-[\(owner) \(selector)]", reason: unavailable.note)
        }
        if selector.hasPrefix("set"), send.arguments.count == 1, selector.count > 4 {
            let name = selector.dropFirst(3).dropLast()
            let property = name.prefix(1).lowercased() + name.dropFirst()
            if let found = self.table.property(property, of: owner), found.declaration.text.hasPrefix("var ") {
                return .setter(found, owner: owner, receiverType: receiverType)
            }
        }
        if let method = self.table.method(selector, of: owner, classSide: false) {
            return .api(method, owner: owner, receiverType: receiverType)
        }
        if Vocabulary.objectMembers.contains(selector)
            || ["isEqual:", "copy", "respondsToSelector:", "isKindOfClass:"].contains(selector)
        {
            return .other(resultType: nil)
        }
        return .unknownAPI(name: "-[\(owner) \(selector)]", reason: Self.missing(selector, owner, self.table))
    }

    /// Why `selector` of `owner` has no spelling: MIGRATION.md's "not available" note, or "not in 3.4".
    static func missing(_ selector: String, _ owner: String, _ table: NameTable) -> String {
        if let unavailable = table.unavailableName(selector) { return unavailable.note }
        return "\(owner) has no such method in 3.4 (a 3.5+ API, or a private one?)"
    }

    mutating func send(_ send: MessageSend, expected: String?) -> String {
        if let idiom = self.foundationIdiom(send) { return idiom }
        switch self.resolve(send) {
        case .api(let name, let owner, let receiverType):
            self.use(
                name.container == "PNDelegate" ? .delegateMethod : Self.useKind(name.kind),
                "\(name.isClassSide ? "+" : "-")[\(owner) \(name.objcName)]"
            )
            let declaration = name.declaration
            if declaration.kind == .initializer { return "\(owner)(\(self.arguments(send, declaration)))" }
            var receiver = owner
            var separator = "."
            if let receiverType {
                receiver = self.swift(send.receiver)
                if Self.isOptional(receiverType) {
                    separator = "?."
                    self.edit(
                        .optional,
                        "a value 3.4 could leave nil is optional here: `?.` (or `if let`)"
                    )
                }
            }
            if declaration.kind == .property { return receiver + separator + declaration.name }
            return "\(receiver)\(separator)\(declaration.name)(\(self.arguments(send, declaration)))"
        case .setter(let name, let owner, let receiverType):
            self.use(.property, "\(owner).\(name.declaration.name)")
            let value = send.arguments.first.map { self.swift($0, expected: name.declaration.type) } ?? "nil"
            let separator = Self.isOptional(receiverType) ? "?." : "."
            return "\(self.swift(send.receiver))\(separator)\(name.declaration.name) = \(value)"
        case .unknownAPI(let name, let reason):
            self.notRecognised(name, reason)
            self.cannotSpell("\(name): \(reason)")
            for argument in send.arguments { _ = self.swift(argument) }  // the 3.4 names inside still count
            return ""
        case .other:
            return self.ruleSpelling(send)
        }
    }

    /// The arguments of `send` labelled as `declaration` labels them, each spelled for its parameter's type.
    private mutating func arguments(_ send: MessageSend, _ declaration: SwiftDeclaration) -> String {
        let arguments = send.arguments
        guard arguments.count == declaration.parameters.count else {
            return arguments.map { self.swift($0) }.joined(separator: ", ")
        }
        return zip(arguments, declaration.parameters).map { argument, parameter in
            let value = self.argument(argument, for: parameter.type)
            return parameter.label.map { "\($0): \(value)" } ?? value
        }.joined(separator: ", ")
    }

    /// An argument spelled for a parameter of type `type`: an optional value given where the parameter is not
    /// optional is unwrapped (`!`, an edit: 3.4 passed nil on).
    mutating func argument(_ argument: Expr, for type: String) -> String {
        var value = self.swift(argument, expected: type)
        if let valueType = self.type(of: argument), Self.isOptional(valueType), !Self.isOptional(type),
            !["Any", "Any?"].contains(Self.plain(type))
        {
            value = value.contains("?.") ? "(\(value))!" : value + "!"
            self.edit(
                .optional,
                "this argument is optional in Swift and the parameter is not: unwrap it (`!` shown)"
            )
        }
        return value
    }

    /// The naming rule applied to a send that is not PubNub's: `[a first:x second:y]` is `a.first(x, second: y)`.
    mutating func ruleSpelling(_ send: MessageSend) -> String {
        let receiver: String
        var isClass = false
        if case .identifier(let token) = send.receiver, self.scope.lookup(token.text) == nil,
            self.vocabulary.isClassName(token.text)
        {
            receiver = token.text
            isClass = true
            if self.model.classes[token.text] == nil && !self.vocabulary.isAPIClass(token.text) {
                self.check("`[\(token.text) \(send.selector)]` is not PubNub: spelled by the naming rule, check it")
            }
        } else {
            receiver = self.swift(send.receiver)
        }
        let receiverType = isClass ? nil : self.type(of: send.receiver)
        if !isClass, !Vocabulary.objectMembers.contains(send.selector), !Self.valueGetters.contains(send.selector),
            receiverType.map({ self.model.classes[Self.unwrapped($0)] == nil }) ?? !Self.isSelf(send.receiver)
        {
            self.check("`\(send.selector)` is not PubNub's: spelled by the naming rule, check it")
        }
        let separator = receiverType.map(Self.isOptional) == true ? "?." : "."
        if send.arguments.isEmpty {
            let selector = send.selector
            if !isClass, let owner = receiverType.map(Self.unwrapped), self.model.memberType(selector, of: owner) != nil
            {
                return receiver + separator + selector
            }
            if Vocabulary.objectMembers.contains(selector) || Self.valueGetters.contains(selector) {
                return receiver + separator + selector
            }
            return "\(receiver)\(separator)\(selector)()"
        }
        var parts: [String] = []
        for (index, piece) in send.pieces.enumerated() {
            guard let argument = piece.argument else { continue }
            let value = self.swift(argument)
            parts.append(index == 0 || piece.keyword.isEmpty ? value : "\(piece.keyword): \(value)")
        }
        for extra in send.variadic {
            if case .identifier(let token) = extra, token.text == "nil" { continue }
            parts.append(self.swift(extra))
        }
        return "\(receiver)\(separator)\(send.pieces[0].keyword)(\(parts.joined(separator: ", ")))"
    }

    private static func isSelf(_ expression: Expr) -> Bool {
        if case .identifier(let token) = expression { return token.text == "self" || token.text == "super" }
        return false
    }

    /// Foundation getters Swift spells as properties.
    static let valueGetters: Set<String> = [
        "boolValue", "intValue", "integerValue", "unsignedIntValue", "unsignedIntegerValue", "longLongValue",
        "unsignedLongLongValue", "doubleValue", "floatValue", "stringValue", "count", "localizedDescription",
        "localizedFailureReason", "localizedRecoverySuggestion", "allKeys", "allValues", "name", "object",
    ]
}
