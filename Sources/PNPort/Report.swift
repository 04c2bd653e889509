/// What kind of 3.4 API use an entry is, for the report and its summary.
enum UseKind: String, CaseIterable {
    case call = "call"
    case delegateMethod = "delegate method"
    case delegateAdoption = "PNDelegate adoption"
    case pnLog = "PNLog"
    case function = "function"
    case constant = "constant"
    case notification = "notification"
    case enumConstant = "enum constant"
    case caseLabel = "case label"
    case enumType = "enum type"
    case blockType = "block type"
    case defaultConfiguration = "PNDefaultConfiguration.h value"
    case logSwitch = "log switch"
    case property = "property"
    case selector = "@selector"
    case weakMacro = "pn_desired_weak"
    case headerImport = "#import"
    /// `NSLog`, `String(format:)`, `valueForKey:`, `NSNotificationCenter` code around 3.4 values.
    case foundation = "Foundation call on 3.4 values"
}

/// An edit the line needs beyond the naming rule, with the MIGRATION.md section that explains it.
struct Edit: Equatable {
    enum Kind: String, CaseIterable {
        case switchWithoutDefault = "switch without default"
        case mainActorDelegate = "@MainActor delegate"
        case shouldAnswer = "should… answer nil"
        case protectedHeader = "protected header"
        case linuxFoundation = "Linux Foundation"
        case objcRuntime = "Objective-C runtime"
        case notificationObserver = "notification observer"
        case notificationPayload = "notification payload"
        case optional = "optional value"
        case weakReference = "weak reference"
        case defaultConfiguration = "PNDefaultConfiguration.h"
        case logSwitch = "log switch"
        case exhaustiveSwitch = "switch over codes"
    }

    let kind: Kind
    /// The MIGRATION.md section number (of the section titled `kind.sectionTitle`).
    let section: String
    /// What to do, in one sentence.
    let advice: String
}

extension Edit.Kind {
    /// The start of the title of the MIGRATION.md section that explains the edit (the name table maps it to its
    /// number, so a renumbered MIGRATION.md is cited right).
    var sectionTitle: String {
        switch self {
        case .switchWithoutDefault, .optional, .defaultConfiguration: return "The naming rule"
        case .mainActorDelegate, .shouldAnswer: return "Delivery"
        case .notificationPayload, .notificationObserver: return "Notifications"
        case .logSwitch, .exhaustiveSwitch: return "Encryption, errors and logging"
        case .protectedHeader, .weakReference: return "Reference"
        case .linuxFoundation, .objcRuntime: return "Porting a real app"
        }
    }
}

/// A name the assistant did not recognise: not a 3.4 name, not the app's own.
struct Unrecognised: Equatable {
    let file: String
    let line: Int
    let name: String
    let reason: String
}

/// How an entry's Swift spelling is put in a file for `swiftc -typecheck` (`pnport --emit-check`).
enum CheckForm: Equatable {
    /// An expression or statement inside a method of the entry's class.
    case statement
    /// A `func` of `PNDelegate`; the check also asks the protocol for it with these parameter types.
    case delegateMethod(parameterTypes: [String], returnType: String?)
    /// A class declaration line, or an `extension` of a class the check declares as `standIn`.
    case typeDeclaration(standIn: String?)
    /// A `case` label of a switch over `enumType` (nil: over an `Int`).
    case caseLabel(enumType: String?)
    /// An `import` line.
    case importLine
    /// A type name used in a declaration.
    case typeName
    /// A stored property declaration, checked in a class of its own.
    case property
}

/// One place in the input that uses the 3.4 API: where, the 3.4 text, its Swift spelling, the names it uses, the
/// edits it needs.
struct Entry {
    let file: String
    let line: Int
    let kind: UseKind
    /// The 3.4 text, on one line, block bodies shown as `{ … }`.
    let objc: String
    /// The Swift spelling; nil when the assistant could not spell it (`unspelled` says why).
    var swift: String?
    var unspelled: String?
    var uses: [(kind: UseKind, name: String)] = []
    var edits: [Edit] = []
    /// Parts spelled by the rule that are not PubNub (Foundation, UIKit): a person should look at them.
    var checks: [String] = []
    /// For the check file: the class the code is in, whether in a class method, and the variables it reads.
    var className: String?
    var isClassMethod = false
    var variables: [(name: String, type: String)] = []
    var form: CheckForm = .statement
}

/// The result of a run: entries in input order, names not recognised, files that could not be read.
struct Report {
    var files: [SourceFile] = []
    var entries: [Entry] = []
    var unrecognised: [Unrecognised] = []
    var failures: [SourceFile.Failure] = []
}
