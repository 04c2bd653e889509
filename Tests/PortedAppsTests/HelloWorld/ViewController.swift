// The view controller of the "HelloWorld" HOWTO app for PubNub 3.4 (pubnub/objective-c at v3.4.3,
// `iOS/HOWTO/HelloWorld/3.4/PubNubDemo/ViewController.m` and `.h`), ported by the mechanical rule. Its outlets are
// the screen stand-ins of `UIKitScreen.swift`; UIKit would call `viewDidLoad()` and the actions, the tests do.
// Lines that needed more than the rule are marked `EDIT:` with the reason.

import Foundation
import PNObservation
import PubNubLegacy

@MainActor
final class ViewController: NSObject {
    let clientIdentifier = UITextField()
    let channelName = UITextField()
    let messageTextField = UITextField()
    let messageTextView = UITextView()
    let subscribeButton = UIButton()
    let sendMessageButton = UIButton()
    let view = UIView()

    var configuration: PNConfiguration!
    var currentChannel: PNChannel?
    var messages: NSMutableDictionary!

    init(nibName: String?, bundle: Bundle?) {}

    func viewDidLoad() {
        // Do any additional setup after loading the view, typically from a nib.
        self.currentChannel = nil
        self.messages = NSMutableDictionary()
        self.configuration = PNConfiguration.defaultConfiguration()

        self.sendMessageButton.isEnabled = false
        self.subscribeButton.isEnabled = false

        let weakSelf = self

        PNObservationCenter.defaultCenter().addClientConnectionStateObserver(
            self,
            withCallbackBlock: { origin, connected, connectionError in
                PNLog(PNLogGeneralLevel, self, "{BLOCK} client identifier %@", PubNub.clientIdentifier())
                weakSelf.clientIdentifier.text = PubNub.clientIdentifier()
            }
        )
        //
        PNObservationCenter.defaultCenter().addMessageReceiveObserver(
            self,
            withBlock: { message in
                let dateFormatter = DateFormatter()
                dateFormatter.dateFormat = "HH:mm:ss MM/dd/yy"

                let channel = message.channel
                // EDIT: `-valueForKey:` is key-value coding, which Swift on Linux does not have: `object(forKey:)`.
                var messages = weakSelf.messages.object(forKey: channel?.name ?? "") as? String
                if messages == nil {
                    messages = ""
                }
                // EDIT: 3.4 passed the `PNDate` itself to `-stringFromDate:`, which takes an `NSDate` (a runtime
                // error in 3.4, a compile error here): its `date`. And `appendingFormat` takes no `Any` on Linux,
                // so the message is interpolated.
                messages =
                    (messages ?? "")
                    + "<\(dateFormatter.string(from: message.receiveDate?.date ?? Date()))> \(message.message ?? "")\n"
                // EDIT: `-setValue:forKey:` is key-value coding: `setObject(_:forKey:)`.
                weakSelf.messages.setObject(messages as Any, forKey: (channel?.name ?? "") as NSString)

                self.messageTextView.text = messages

                //weakSelf.currentChannelChat = [weakSelf.messages valueForKey:weakSelf.currentChannel.name];
            }
        )
    }

    func connectButtonTapped(_ sender: Any) {
        // Update PubNub client configuration
        PubNub.setConfiguration(self.configuration)

        PubNub.connectWithSuccessBlock(
            { origin in
                PNLog(PNLogGeneralLevel, self, "{BLOCK} PubNub client connected to: %@", origin)
                self.subscribeButton.isEnabled = true
            },
            // In case of error you always can pull out error code and
            // identify what is happened and what you can do
            // (additional information is stored inside error's
            // localizedDescription, localizedFailureReason and
            // localizedRecoverySuggestion)
            errorBlock: { connectionError in
                let isControlsEnabled = connectionError?.code != kPNClientConnectionFailedOnInternetFailureError

                // Enable controls so user will be able to try again
                (sender as? UIButton)?.isEnabled = isControlsEnabled

                if connectionError?.code == kPNClientConnectionFailedOnInternetFailureError {
                    PNLog(
                        PNLogGeneralLevel,
                        self,
                        "Connection will be established as soon as internet connection will be restored"
                    )
                }

                let connectionErrorAlert = UIAlertView()
                // EDIT: `String(format:)` takes no optionals: the texts of the (never nil) error are unwrapped.
                connectionErrorAlert.title = String(
                    format: "%@(%@)",
                    connectionError?.localizedDescription ?? "",
                    NSStringFromClass(type(of: self))
                )
                connectionErrorAlert.message = String(
                    format: "Reason:\n%@\n\nSuggestion:\n%@",
                    connectionError?.localizedFailureReason ?? "",
                    connectionError?.localizedRecoverySuggestion ?? ""
                )
                connectionErrorAlert.addButton(withTitle: "OK")

                connectionErrorAlert.show()
            }
        )
    }

    func disconnectButtonTapped(_ sender: Any) {
        PubNub.disconnect()

        PNObservationCenter.defaultCenter().removeTimeTokenReceivingObserver(self)
        PNObservationCenter.defaultCenter().removeClientConnectionStateObserver(self)
        PNObservationCenter.defaultCenter().removeChannelParticipantsListProcessingObserver(self)
        PNObservationCenter.defaultCenter().removePresenceEventObserver(self)

        self.subscribeButton.isEnabled = false
        self.sendMessageButton.isEnabled = false
    }

    func addChannelButtonTapped(_ sender: Any) {
        self.currentChannel = PNChannel.channelWithName(self.channelName.text ?? "", shouldObservePresence: false)
        // EDIT: `%p` of an object: Linux's `NSLog` takes only `CVarArg` values, so the object's address as a number.
        NSLog("%p", UInt(bitPattern: ObjectIdentifier(self.currentChannel!)))

        PubNub.subscribeOnChannel(
            self.currentChannel!,
            withCompletionHandlingBlock: { state, channels, subscriptionError in
                var alertMessage = String(
                    format:
                        "Subscribed on channel: %@\nTo be able to send messages, select channel from righthand list",
                    self.currentChannel?.name ?? ""
                )
                if state == PNSubscriptionProcessNotSubscribedState {
                    alertMessage = String(format: "Failed to subscribe on: %@", self.currentChannel?.name ?? "")

                    let alertView = UIAlertView(
                        title: "Subscribe",
                        message: alertMessage,
                        delegate: nil,
                        cancelButtonTitle: "OK"
                    )
                    alertView.show()
                } else if state == PNSubscriptionProcessSubscribedState {
                    self.sendMessageButton.isEnabled = true
                }
            }
        )

        self.view.endEditing(true)
    }

    func sendMessageButtonTapped(_ sender: Any) {
        if self.currentChannel != nil {
            PubNub.sendMessage(
                String(format: "\"%@\"", self.messageTextField.text ?? ""),
                toChannel: self.currentChannel!
            )
        }

        self.messageTextField.text = ""
        self.view.endEditing(true)
    }

    // MARK: - UITextField delegate methods

    func textFieldDidEndEditing(_ textField: UITextField) {
        var clientIdentifier: String? = (textField.text ?? "").replacingOccurrences(of: " ", with: "")

        if clientIdentifier?.count == 0 {
            clientIdentifier = nil
        }

        PubNub.setClientIdentifier(clientIdentifier)
    }

    func textFieldShouldReturn(_ textField: UITextField) -> Bool {
        self.view.endEditing(true)
        return true
    }
}
