/// Which names are whose: the 3.4 API's (from the name table), the app's (from the app model), or the platform's.
struct Vocabulary {
    let table: NameTable
    let model: AppModel
    /// The 3.4 classes with members in the table (`PubNub`, `PNChannel`, `PNConfiguration`, …), not protocols.
    let apiClasses: Set<String>
    /// Instance selectors with arguments that only one 3.4 class has, so a send of one to a receiver of unknown
    /// type is still recognised (`addMessageReceiveObserver:withBlock:` is `PNObservationCenter`'s).
    let distinctiveSelectors: [String: String]

    /// The 3.4.2 library's public headers (`PNImports.h` imports them; pubnub/objective-c, v3.4.2): `#import`ing
    /// one becomes `import PubNubLegacy` (or `import PNObservation`).
    static let publicHeaders: Set<String> = [
        "PNImports.h", "PubNub.h", "PNObservationCenter.h", "PNChannelPresence.h", "PNConfiguration.h",
        "PNNotifications.h", "PNErrorCodes.h", "PNStructures.h", "PNMessage.h", "PNChannel.h", "PNError.h",
        "PNMacro.h", "PNDate.h", "PNDelegate.h", "PNPresenceEvent.h", "PNHereNow.h", "PNMessagesHistory.h",
        "PNConstants.h", "PNDefaultConfiguration.h",
    ]

    /// The other headers of the 3.4.2 library (pubnub/objective-c, v3.4.2, `iOS/3.4/pubnub/libs/PubNub`): internal
    /// to it, with nothing an app may use.
    static let privateHeaders: Set<String> = [
        "PNWriteBuffer.h", "PNCryptoHelper.h", "PNChannelEvents.h", "PNChannelEvents+Protected.h",
        "PNConfiguration+Protected.h", "PNError+Protected.h", "PNHereNow+Protected.h", "PNJSONSerialization.h",
        "PNMessagesHistory+Protected.h", "PNOperationStatus.h", "PNOperationStatus+Protected.h", "PNRequestsQueue.h",
        "PNResponse.h", "PNActionResponseParser.h", "PNActionResponseParser+Protected.h",
        "PNChannelEventsResponseParser.h", "PNChannelHistoryParser.h", "PNErrorResponseParser.h",
        "PNErrorResponseParser+Protected.h", "PNHereNowResponseParser.h", "PNHereNowResponseParser+Protected.h",
        "PNOperationStatusResponseParser.h", "PNPushNotificationsEnabledChannelsParser.h", "PNResponseDeserialize.h",
        "PNResponseParser.h", "PNTimeTokenResponseParser.h", "NSArray+PNAdditions.h", "NSData+PNAdditions.h",
        "NSInvocation+PNAdditions.h", "NSMutableArray+PNAdditions.h", "NSString+PNAddition.h",
        "UIDevice+PNAdditions.h", "PNRequestsImport.h", "PNServiceResponseCallbacks.h",
        "PNConnectionChannelDelegate.h", "PNConnectionDelegate.h", "PNMessageChannelDelegate.h",
        "PNRequestsQueueDelegate.h", "PNServiceChannelDelegate.h", "PNMessagingChannel.h", "PNReachability.h",
        "PNServiceChannel.h", "PNBaseRequest.h", "PNBaseRequest+Protected.h", "PNHereNowRequest.h",
        "PNHereNowRequest+Protected.h", "PNLatencyMeasureRequest.h", "PNLeaveRequest.h", "PNLeaveRequest+Protected.h",
        "PNMessageHistoryRequest.h", "PNMessageHistoryRequest+Protected.h", "PNMessagePostRequest.h",
        "PNMessagePostRequest+Protected.h", "PNPushNotificationsEnabledChannelsRequest.h",
        "PNPushNotificationsRemoveRequest.h", "PNPushNotificationsStateChangeRequest.h", "PNSubscribeRequest.h",
        "PNSubscribeRequest+Protected.h", "PNTimeTokenRequest.h", "PNConnection.h", "PNConnection+Protected.h",
        "PNConnectionChannel.h", "PNConnectionChannel+Protected.h", "PNObservationCenter+Protected.h",
    ]

    /// The protected headers apps imported whose members MIGRATION.md §9 places (the `+Protected.h` tables).
    static let protectedHeaders: Set<String> = [
        "PubNub+Protected.h", "PNChannel+Protected.h", "PNChannelPresence+Protected.h", "PNMessage+Protected.h",
        "PNPresenceEvent+Protected.h",
    ]

    /// `NSObject` and `NSError` members every 3.4 model has without the table listing them.
    static let objectMembers: Set<String> = [
        "description", "debugDescription", "hash", "code", "domain", "userInfo", "class", "superclass", "self",
    ]

    /// Superclasses and protocols whose classes are main-actor isolated in Swift 6 (UIKit, AppKit).
    static let mainActorTypes: Set<String> = [
        "UIResponder", "UIViewController", "UITableViewController", "UICollectionViewController",
        "UINavigationController", "UITabBarController", "UIView", "UITableViewCell", "UIApplicationDelegate",
        "UIWindow", "UIAlertView", "UIActionSheet", "NSResponder", "NSViewController", "NSWindowController",
        "NSView", "NSWindow", "NSApplicationDelegate", "NSDocument",
    ]

    init(table: NameTable, model: AppModel) {
        self.table = table
        self.model = model
        var classes = Set(
            table.names.filter { !$0.isAddition && ($0.kind == .method || $0.kind == .property) }.map(\.container)
        )
        classes.remove("PNDelegate")
        self.apiClasses = classes.subtracting(["-", "Notification"])
        var owners: [String: Set<String>] = [:]
        for name in table.names
        where name.kind == .method && !name.isClassSide && name.objcName.contains(":")
            && name.container != "PNDelegate"
        {
            owners[name.objcName, default: []].insert(name.container)
        }
        self.distinctiveSelectors = owners.compactMapValues { $0.count == 1 ? $0.first : nil }
            .filter { !["isEqual:"].contains($0.key) }
    }

    func isAPIClass(_ name: String) -> Bool { self.apiClasses.contains(name) }

    /// A UIKit or AppKit class, or one that adopts their application delegate protocol: main-actor isolated in
    /// Swift 6, so it adopts `PNDelegate` with `@preconcurrency` (MIGRATION.md §4).
    func isMainActorClass(_ name: String) -> Bool {
        self.model.lineage(of: name).contains { className in
            Self.mainActorTypes.contains(className)
                || !(self.model.classes[className]?.protocols.isDisjoint(with: Self.mainActorTypes) ?? true)
        }
    }

    /// A class name: the API's, the app's, or a platform class by its prefix (`NSString`, `UIView`).
    func isClassName(_ name: String) -> Bool {
        if self.isAPIClass(name) || self.model.classes[name] != nil { return true }
        guard name.count > 2, name.first?.isUppercase == true else { return false }
        let prefixes = ["NS", "UI", "CG", "CA", "CL", "AV", "MK", "SK"]
        return prefixes.contains(where: { name.hasPrefix($0) }) && name.dropFirst(2).first?.isUppercase == true
    }

    /// For casts and declarations: any class, a 3.4 enum or block type, an app typedef.
    func isTypeName(_ name: String) -> Bool {
        if self.isClassName(name) || ExpressionParser.builtinTypes.contains(name) { return true }
        if let global = self.table.global(name), global.kind == .enumType || global.kind == .blockType { return true }
        return self.model.declaredNames.contains(name) && name.first?.isUppercase == true
    }

    /// `PN…`/`kPN…` names that are neither 3.4's nor the app's: a later API, a private header's, a typo.
    func isUnknownPubNubName(_ name: String) -> Bool {
        guard name.hasPrefix("PN") || name.hasPrefix("kPN") || name == "PubNub" else { return false }
        guard name.count > 3, name.dropFirst(name.hasPrefix("k") ? 3 : 2).first?.isUppercase == true else {
            return false
        }
        if self.table.global(name) != nil || self.isAPIClass(name) || self.model.declaredNames.contains(name) {
            return false
        }
        return !["PNDelegate", "PNImports", "PNMacro", "PNLog", "PNObservationCenter"].contains(name)
    }
}
