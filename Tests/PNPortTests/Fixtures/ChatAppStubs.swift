// Stubs of the ChatApp fixture's own names (and of the UIKit classes it uses), as a team porting it would declare
// them, so that `swiftc -typecheck` can check the spellings `pnport --emit-check` writes for the fixture. Compiled
// by PNPortTests with that file, never as part of a target.

import Foundation
import PubNubLegacy

// MARK: - UIKit stand-ins (main-actor isolated, as UIKit's are)

@MainActor class UIResponder: NSObject {}
@MainActor class UIViewController: UIResponder {}
@MainActor class UIWindow: UIResponder {}
@MainActor protocol UIApplicationDelegate {}

// MARK: - The app's classes

enum ChatScreenMode {
    case ChatScreenModeLive
    case ChatScreenModeHistory
}

let ChatScreenModeHistory = ChatScreenMode.ChatScreenModeHistory

@MainActor
class ChatAppDelegate: UIResponder, UIApplicationDelegate, @preconcurrency PNDelegate {
    var window: UIWindow?
    var lobby = PNChannel.channelWithName("lobby")
    var onConnect: PNClientConnectionSuccessBlock?
    var reconnecting = false
    var isReconnecting: Bool { self.reconnecting }

    func startChat() {}
    func clientDidConnect(_ notification: Notification) {}
}

@MainActor
class ChatViewController: UIViewController, @preconcurrency PNDelegate {
    var currentChannel = PNChannel.channelWithName("chat")
    var oldest: PNDate?
    var pushToken = Data([1, 2, 3])
    var mode = ChatScreenMode.ChatScreenModeLive
    var sendHandler: PNClientMessageProcessingBlock?

    func showText(_ text: String) {}
    func messageArrived(_ notification: Notification) {}
}

class PresenceMonitor: NSObject, PNDelegate {
    weak var forward: (any PNDelegate)?

    static func sharedMonitor() -> PresenceMonitor { PresenceMonitor() }
    func refresh(_ channel: PNChannel) {}
}
