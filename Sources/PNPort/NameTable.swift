import Foundation

/// One 3.4 name (or a Swift addition beside them) and the Swift declaration MIGRATION.md maps it to.
struct APIName: Equatable {
    enum Kind: String, CaseIterable {
        case method
        case property
        case constant
        case notification
        case enumConstant
        case enumType
        case blockType
        case configurationDefault
        case logSwitch
        case function
    }

    let kind: Kind
    /// The type that declares it (`PubNub`, `PNDelegate`, `PNConfiguration`), `-` for top level.
    let container: String
    /// The 3.4 name: a selector without its `+`/`-` (`sendMessage:toChannel:`), or an identifier.
    let objcName: String
    /// `+` methods, and static members.
    let isClassSide: Bool
    let declaration: SwiftDeclaration
    /// True for a row without a 3.4 name: something the package added (a 3.x app cannot use it).
    let isAddition: Bool
    /// The `## N.` section of MIGRATION.md whose table holds the row.
    let section: String
}

/// A 3.4 name MIGRATION.md lists as not available in the package, with its note.
struct UnavailableName: Equatable {
    let container: String
    let objcName: String
    let note: String
}

/// The names of MIGRATION.md's checked tables (`Names.generated.swift`, written by Scripts/extract-names.py from
/// MIGRATION.md: the same tables Scripts/check-migration.py checks against the package's public symbols).
struct NameTable {
    /// Every name, in MIGRATION.md's order.
    private(set) var names: [APIName] = []
    private(set) var unavailable: [UnavailableName] = []
    /// MIGRATION.md's `## N. Title` sections by number.
    private(set) var sections: [String: String] = [:]
    private var byContainer: [String: [String: [APIName]]] = [:]
    private var globalsByName: [String: APIName] = [:]
    private var enumCaseTypes: [String: String] = [:]

    /// The table generated from MIGRATION.md.
    static let migration = NameTable(sections: migrationSections, rows: migrationRows)

    /// A table read from text in the generated format (tests give their own).
    init(sections: String, rows: String) {
        for line in sections.split(separator: "\n") {
            let fields = Self.fields(line)
            if fields.count >= 2 { self.sections[fields[0]] = fields[1] }
        }
        for line in rows.split(separator: "\n") {
            let fields = Self.fields(line)
            guard fields.count >= 4 else { continue }
            self.add(
                section: fields[0],
                objc: Self.items(fields[2]),
                swift: Self.items(fields[3]),
                note: fields.count > 4 ? fields[4] : ""
            )
        }
    }

    // MARK: - Lookups

    /// The members of `container` (and of its 3.4 superclass) whose 3.4 name, or, for additions, whose selector by
    /// the rule, is `objcName`.
    func members(of container: String, named objcName: String) -> [APIName] {
        var found = self.byContainer[container]?[objcName] ?? []
        if let superclass = Self.superclasses[container] {
            found += self.members(of: superclass, named: objcName)
        }
        return found
    }

    /// The method `[Class selector]` calls; for a `PubNub` instance, class methods count too (MIGRATION.md §2:
    /// every class method but `sharedInstance` and `resetClient` is also an instance method).
    func method(_ selector: String, of container: String, classSide: Bool) -> APIName? {
        let candidates = self.members(of: container, named: selector)
        if let exact = candidates.first(where: { $0.isClassSide == classSide && $0.kind != .property }) {
            return exact
        }
        if container == "PubNub" && !classSide && !["sharedInstance", "resetClient"].contains(selector) {
            return candidates.first(where: { $0.kind == .method })
        }
        return nil
    }

    /// A property of `container` by its 3.4 name or its getter name.
    func property(_ name: String, of container: String) -> APIName? {
        self.members(of: container, named: name).first(where: { $0.kind == .property && !$0.isClassSide })
    }

    /// Every `PNDelegate` shape whose selector (by the naming rule) is `selector`, canonical first.
    func delegateMethods(_ selector: String) -> [APIName] {
        self.byContainer["PNDelegate"]?[selector]?.filter { $0.kind == .method } ?? []
    }

    /// The top-level name `identifier` (constant, notification, enum constant or type, block type, default,
    /// log switch, function).
    func global(_ identifier: String) -> APIName? { self.globalsByName[identifier] }

    /// The enum type whose case (or global alias) `identifier` is.
    func enumType(ofConstant identifier: String) -> String? { self.enumCaseTypes[identifier] }

    /// The row saying `objcName` is not available, if there is one.
    func unavailableName(_ objcName: String) -> UnavailableName? {
        self.unavailable.first(where: { $0.objcName == objcName })
    }

    /// The citation of a MIGRATION.md section, with its title when the table knows the number.
    func cite(_ section: String) -> String {
        guard let title = self.sections[section] else { return "MIGRATION.md §\(section)" }
        return "MIGRATION.md §\(section) (\(title))"
    }

    /// The number of the section titled `title` (its start is enough), so the assistant cites sections by title.
    func section(titled title: String) -> String? {
        self.sections.first(where: { $0.value.hasPrefix(title) })?.key
    }

    /// 3.4 classes and their 3.4 superclass among the API types.
    static let superclasses = ["PNChannelPresence": "PNChannel"]

    // MARK: - Reading rows

    private static func fields(_ line: Substring) -> [String] {
        line.components(separatedBy: "‖").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    private static func items(_ field: String) -> [String] {
        field.isEmpty ? [] : field.components(separatedBy: "¦").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    private mutating func add(section: String, objc: [String], swift: [String], note: String) {
        let declarations: [(container: String, declaration: SwiftDeclaration)] = swift.compactMap { item in
            guard let separator = item.range(of: "::") else { return nil }
            guard let declaration = SwiftDeclaration(String(item[separator.upperBound...])) else { return nil }
            return (String(item[..<separator.lowerBound]), declaration)
        }
        let objcNames = objc.compactMap(Self.objcName)
        if declarations.isEmpty {
            for name in objcNames where !name.name.isEmpty {
                self.unavailable.append(UnavailableName(container: "", objcName: name.name, note: note))
            }
            return
        }
        for (container, declaration) in declarations where container != "Notification.Name" {
            if declaration.kind == .enumCase {
                self.enumCaseTypes[declaration.name] = container
                continue
            }
            // A method's 3.4 names are selectors; other words in the column ("returning `NSNumber`") are prose.
            let named = objcNames.filter {
                declaration.kind != .function || container == "-" || $0.name.contains(":")
                    || $0.name == declaration.name
            }
            let names = named.isEmpty ? [(name: Self.ruleName(declaration), sign: nil)] : named
            for name in names {
                let classSide = name.sign.map { $0 == "+" } ?? declaration.isStatic
                let entry = APIName(
                    kind: Self.kind(of: declaration, container: container),
                    container: container,
                    objcName: name.name,
                    isClassSide: classSide && declaration.kind != .initializer,
                    declaration: declaration,
                    isAddition: named.isEmpty,
                    section: section
                )
                self.names.append(entry)
                if container == "-" {
                    if self.globalsByName[entry.objcName] == nil { self.globalsByName[entry.objcName] = entry }
                    if entry.kind == .enumConstant, let type = declaration.type {
                        self.enumCaseTypes[entry.objcName] = type
                    }
                } else {
                    self.byContainer[container, default: [:]][entry.objcName, default: []].append(entry)
                }
            }
        }
    }

    /// `+sendMessage:toChannel:` → ("sendMessage:toChannel:", "+"); `PNChannelPresence +presenceForChannel:` →
    /// ("presenceForChannel:", "+"); `PNLog(level, sender, format, …)` → ("PNLog", nil).
    /// Spans that are not names (`NSError *` in "with `NSError *`") give nil.
    private static func objcName(_ span: String) -> (name: String, sign: Character?)? {
        var text = Substring(span)
        if let open = text.firstIndex(of: "(") { text = text[..<open] }
        if let space = text.lastIndex(of: " ") { text = text[text.index(after: space)...] }
        var sign: Character?
        if let first = text.first, first == "+" || first == "-" {
            sign = first
            text = text.dropFirst()
        }
        guard let first = text.first, first.isLetter || first == "_",
            text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" })
        else { return nil }
        return (String(text), sign)
    }

    /// The 3.4 name the rule gives an addition: its selector (`pubnubClient:didReceiveStatus:`) or its name.
    private static func ruleName(_ declaration: SwiftDeclaration) -> String {
        declaration.kind == .property ? declaration.name : declaration.objcSelector
    }

    private static func kind(of declaration: SwiftDeclaration, container: String) -> APIName.Kind {
        switch declaration.kind {
        case .function where container == "-": return .function
        case .function, .initializer: return .method
        case .typeAlias: return .blockType
        case .type: return .enumType
        case .enumCase: return .enumConstant
        case .property where container != "-": return .property
        case .property:
            let type = declaration.type ?? ""
            if type == "Notification.Name" { return .notification }
            if declaration.name.hasPrefix("PNLOG_") { return .logSwitch }
            if declaration.text.hasPrefix("var ") { return .configurationDefault }
            if type.hasPrefix("PN") { return .enumConstant }
            return .constant
        }
    }
}
