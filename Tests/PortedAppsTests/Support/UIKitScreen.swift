// Stand-ins for the few UIKit classes the ported iOS apps touch, with the names and members Swift's UIKit gives
// them, so the ported lines read as they would in an iOS port. They draw nothing: they record what the screen
// would have shown (label and text view contents, enabled buttons, alerts) for the tests to check. Not part of any
// port's line count.

import Foundation

/// Everything the apps showed as an alert, in order, process-wide (UIKit alerts go to the key window).
@MainActor
enum Screen {
    /// The alerts shown so far.
    static var alerts: [UIAlertView] = []
}

/// A label: its text.
@MainActor
final class UILabel {
    var text: String?
}

/// A multi-line text view: its text.
@MainActor
final class UITextView {
    var text: String?
}

/// A text field: its text.
@MainActor
final class UITextField {
    var text: String?
}

/// A button: whether it can be tapped.
@MainActor
final class UIButton {
    var isEnabled = true
}

/// A view: `endEditing(_:)` only hides the keyboard.
@MainActor
final class UIView {
    func endEditing(_ force: Bool) {}
}

/// The 3.x-era alert: title, message and buttons; `show()` puts it on the screen.
@MainActor
final class UIAlertView {
    var title: String?
    var message: String?
    private(set) var buttons: [String] = []

    init() {}

    init(title: String?, message: String?, delegate: Any?, cancelButtonTitle: String?) {
        self.title = title
        self.message = message
        if let cancelButtonTitle {
            self.buttons.append(cancelButtonTitle)
        }
    }

    func addButton(withTitle title: String?) {
        self.buttons.append(title ?? "")
    }

    func show() {
        Screen.alerts.append(self)
    }
}

/// The application object UIKit passes to its delegate; the ports never use it.
@MainActor
final class UIApplication {}
