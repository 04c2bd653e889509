/// The Foundation idioms 3.x apps wrote around PubNub calls, spelled as Swift on Linux needs them.
extension Translator {
    /// The Swift of a Foundation send the naming rule would spell wrongly; nil for any other send.
    mutating func foundationIdiom(_ send: MessageSend) -> String? {
        let selector = send.selector
        let arguments = send.arguments
        if case .identifier(let receiver) = send.receiver, self.scope.lookup(receiver.text) == nil {
            switch (receiver.text, selector) {
            case ("NSNotificationCenter", "defaultCenter"): return "NotificationCenter.default"
            case ("NSString", "stringWithFormat:"):
                return "String(format: \(self.formatArguments([arguments[0]] + send.variadic)))"
            case ("NSArray", "arrayWithObjects:"), ("NSMutableArray", "arrayWithObjects:"):
                let items = ([arguments[0]] + send.variadic).filter {
                    if case .identifier(let t) = $0 { return t.text != "nil" } else { return true }
                }
                return "[" + items.map { self.swift($0) }.joined(separator: ", ") + "]"
            case ("NSArray", "arrayWithObject:"), ("NSMutableArray", "arrayWithObject:"):
                return "[\(self.swift(arguments[0]))]"
            case ("NSDate", "date"): return "Date()"
            case ("NSNull", "null"): return "NSNull()"
            case ("NSNumber", _) where selector.hasPrefix("numberWith") && arguments.count == 1:
                return "NSNumber(value: \(self.swift(arguments[0])))"
            default: break
            }
        }
        if self.isDefaultNotificationCenter(send.receiver) {
            return self.notificationCenter(send)
        }
        switch selector {
        case "objectAtIndex:", "objectForKey:":
            return "\(self.swift(send.receiver))[\(self.swift(arguments[0]))]"
        case "lastObject", "firstObject":
            return "\(self.swift(send.receiver)).\(selector == "lastObject" ? "last" : "first")"
        case "stringByAppendingString:":
            return "\(self.swift(send.receiver)) + \(self.swift(arguments[0]))"
        case "length" where arguments.isEmpty:
            return "\(self.swift(send.receiver)).utf16.count"
        case "isEqualToString:":
            return "\(self.swift(send.receiver)) == \(self.swift(arguments[0]))"
        case "class" where arguments.isEmpty:
            return "type(of: \(self.swift(send.receiver)))"
        case "valueForKey:":
            guard let type = self.type(of: send.receiver).map(Self.unwrapped), type.hasPrefix("[") else { return nil }
            if type.contains(":") {  // a dictionary: KVC's valueForKey: is its subscript
                self.edit(.linuxFoundation, "Swift on Linux has no key-value coding: subscript the dictionary")
                let receiver = self.swift(send.receiver)
                return "\(receiver)[\(self.swift(arguments[0]))]"
            }
            guard case .string(let parts) = arguments[0],
                self.vocabulary.isAPIClass(type.trimmingCharacters(in: ["[", "]"]))
            else { return nil }
            self.edit(.linuxFoundation, "Swift on Linux has no key-value coding: map the property")
            return "\(self.swift(send.receiver)).map(\\.\(parts.map(\.text).joined()))"
        default:
            return nil
        }
    }

    private func isDefaultNotificationCenter(_ receiver: Expr) -> Bool {
        guard case .send(let inner) = receiver, inner.selector == "defaultCenter",
            case .identifier(let token) = inner.receiver
        else { return false }
        return token.text == "NSNotificationCenter"
    }

    /// `addObserver:selector:name:object:` becomes the block form: Linux has no Objective-C runtime to call a
    /// selector, and the block form is what MIGRATION.md §6 shows.
    private mutating func notificationCenter(_ send: MessageSend) -> String? {
        let arguments = send.arguments
        switch send.selector {
        case "addObserver:selector:name:object:":
            guard case .selector(let selector, _) = arguments[1] else { return nil }
            let name = self.swift(arguments[2], expected: "Notification.Name")
            let object = self.swift(arguments[3])
            let method = String(selector.split(separator: ":").first ?? "")
            let call = selector.hasSuffix(":") ? "\(method)(notification)" : "\(method)()"
            self.edit(
                .notificationObserver,
                "Linux has no Objective-C runtime to call a selector: observe with a block, and keep the token it returns to remove the observer"
            )
            let observer = self.swift(arguments[0])
            let head = "_ = NotificationCenter.default.addObserver(forName: \(name), object: \(object), queue: .main)"
            guard observer == "self", let className = self.context.className,
                self.vocabulary.isMainActorClass(className)
            else {
                self.cannotSpell(
                    "the observer is not a main-actor class: a Swift 6 `@Sendable` block cannot capture it (make the class `@MainActor`)"
                )
                return "\(head) { notification in \(observer).\(call) }"
            }
            return "\(head) { [weak self] notification in MainActor.assumeIsolated { self?.\(call) } }"
        case "removeObserver:":
            return "NotificationCenter.default.removeObserver(\(self.swift(arguments[0])))"
        case "removeObserver:name:object:":
            let name = self.swift(arguments[1], expected: "Notification.Name")
            return
                "NotificationCenter.default.removeObserver(\(self.swift(arguments[0])), name: \(name), object: \(self.swift(arguments[2])))"
        case "postNotificationName:object:":
            let name = self.swift(arguments[0], expected: "Notification.Name")
            return "NotificationCenter.default.post(name: \(name), object: \(self.swift(arguments[1])))"
        default:
            return nil
        }
    }

    /// `NSLog(format, …)`: on Linux `NSLog` and `String(format:)` take only `CVarArg` values (MIGRATION.md §10):
    /// objects and optionals are given as their description.
    mutating func foundationLog(_ arguments: [Expr]) -> String {
        "NSLog(\(self.formatArguments(arguments)))"
    }

    /// A format and its arguments, each argument that is not a string or a number given as `String(describing:)`.
    private mutating func formatArguments(_ arguments: [Expr]) -> String {
        guard let format = arguments.first else { return "" }
        var spelled = [self.swift(format)]
        var wrapped = false
        for argument in arguments.dropFirst() {
            let value = self.swift(argument)
            let type = self.type(of: argument)
            let isPlain: Bool = {
                if case .literal = argument { return true }
                if case .string = argument { return true }
                return ["String", "Int", "UInt", "Int32", "UInt32", "Double", "Float", "Bool"].contains(type ?? "")
            }()
            if isPlain {
                spelled.append(value)
            } else {
                spelled.append("String(describing: \(value))")
                wrapped = true
            }
        }
        if wrapped {
            self.edit(
                .linuxFoundation,
                "on Linux `NSLog` and `String(format:)` take only strings and numbers: objects and optionals are given as `String(describing:)`"
            )
        }
        return spelled.joined(separator: ", ")
    }
}
