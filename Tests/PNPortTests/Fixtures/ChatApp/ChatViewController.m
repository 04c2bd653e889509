//
//  ChatViewController.m
//  Observers, history, presence, push and the models' properties.
//

#import "ChatViewController.h"
#import "PNChannel+Protected.h"
#import "PNMessage.h"


typedef enum _ChatScreenMode {
    ChatScreenModeLive,
    ChatScreenModeHistory
} ChatScreenMode;


@interface ChatViewController () <PNDelegate>

@property (nonatomic, assign) ChatScreenMode mode;
@property (nonatomic, copy) PNClientMessageProcessingBlock sendHandler;

@end


@implementation ChatViewController

- (void)viewDidLoad {

    [super viewDidLoad];

    [[PNObservationCenter defaultCenter] addMessageReceiveObserver:self
                                                         withBlock:^(PNMessage *message) {

        [self showText:[NSString stringWithFormat:@"%@: %@", message.channel, message.message]];
    }];
    [[PNObservationCenter defaultCenter] addPresenceEventObserver:self withBlock:^(PNPresenceEvent *event) {

        if (event.type == PNPresenceEventJoin) {

            [self showText:event.uuid];
        }
    }];
    [[PNObservationCenter defaultCenter] addClientConnectionStateObserver:self
                                                        withCallbackBlock:^(NSString *origin, BOOL connected,
                                                                            PNError *error) {
        if (!connected && error.code == kPNClientConnectionClosedOnInternetFailureError) {

            [self showText:@"offline"];
        }
    }];
    [[NSNotificationCenter defaultCenter] addObserver:self
                                             selector:@selector(messageArrived:)
                                                 name:kPNClientDidReceiveMessageNotification
                                               object:nil];

    self.sendHandler = ^(PNMessageState state, id data) {

        switch (state) {
            case PNMessageSending:
                break;
            case PNMessageSent:
                PNLog(PNLogGeneralLevel, nil, @"sent %@", data);
                break;
            default:
                break;
        }
    };
}

- (void)messageArrived:(NSNotification *)notification {

    PNMessage *message = (PNMessage *)notification.userInfo;
    [self showText:[message.message description]];
}

- (void)openChannel:(NSString *)name {

    PNChannel *channel = [PNChannel channelWithName:name];
    NSArray *channels = [PNChannel channelsWithNames:@[name, [name stringByAppendingString:@"-archive"]]];
    [PubNub subscribeOnChannels:channels withPresenceEvent:NO];
    if (![PubNub isSubscribedOnChannel:channel]) {

        [PubNub unsubscribeFromChannel:self.currentChannel withPresenceEvent:YES
            andCompletionHandlingBlock:^(NSArray *left, PNError *error) {

                PNLog(PNLogGeneralLevel, self, @"left %@", [left valueForKey:@"name"]);
            }];
    }
    self.currentChannel = channel;
    [PubNub enablePresenceObservationForChannel:channel];
    PNChannelPresence *presence = [PNChannelPresence presenceForChannel:channel];
    NSLog(@"presence channel %@ for %@", presence, channel.name);
    if ([[PubNub sharedInstance] isConnected]) {

        [PubNub sendMessage:@{@"text": @"joined", @"count": @(channels.count)}
                  toChannel:channel
        withCompletionBlock:self.sendHandler];
    }
}

- (void)loadHistory {

    PNDate *now = [PNDate dateWithDate:[NSDate date]];
    [PubNub requestHistoryForChannel:self.currentChannel
                                from:self.oldest
                                  to:now
                               limit:50
                      reverseHistory:NO
                 withCompletionBlock:^(NSArray *messages, PNChannel *channel, PNDate *fromDate, PNDate *toDate,
                                       PNError *error) {

                     self.oldest = fromDate;
                     self.mode = ChatScreenModeHistory;
                 }];
    [PubNub requestParticipantsListForChannel:self.currentChannel
                          withCompletionBlock:^(NSArray *participants, PNChannel *channel, PNError *error) {

                              [self showText:[NSString stringWithFormat:@"%lu here",
                                                  (unsigned long)channel.participantsCount]];
                          }];
    [PubNub requestServerTimeTokenWithCompletionBlock:^(NSNumber *timeToken, PNError *error) {

        PNLog(PNLogGeneralLevel, self, @"server time %@ (%f)", timeToken, PNUnixTimeStampFromTimeToken(timeToken));
    }];
}

- (void)registerForPush {

    [PubNub enablePushNotificationsOnChannel:self.currentChannel
                         withDevicePushToken:self.pushToken
                  andCompletionHandlingBlock:^(NSArray *channels, PNError *error) {

                      if (error != nil) {

                          PNLog(PNLogGeneralLevel, self, @"push failed: %@", error.localizedFailureReason);
                      }
                  }];
    [PubNub setClientIdentifier:PNUniqueIdentifier()];
}

- (void)reconfigure {

    PNConfiguration *configuration = [[PNConfiguration alloc] initWithOrigin:@"chat.example.com"
                                                                  publishKey:@"pub-key"
                                                                subscribeKey:@"sub-key"
                                                                   secretKey:nil
                                                                   cipherKey:@"enigma"];
    configuration.autoReconnectClient = YES;
    [configuration setUseSecureConnection:NO];
    [PubNub setupWithConfiguration:configuration andDelegate:self];
    [self.currentChannel setName:@"renamed"];
    if ([[PubNub sharedInstance].configuration.origin isEqualToString:@"chat.example.com"]) {

        [PubNub disconnect];
    }
}

- (void)dealloc {

    [[PNObservationCenter defaultCenter] removeMessageReceiveObserver:self];
    [[PNObservationCenter defaultCenter] removePresenceEventObserver:self];
}

@end
