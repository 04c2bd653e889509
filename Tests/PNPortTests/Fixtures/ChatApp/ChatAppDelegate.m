//
//  ChatAppDelegate.m
//  Connects, subscribes and logs; every PubNub callback shape the assistant must recognise.
//

#import "ChatAppDelegate.h"
#import "PubNub+Protected.h"
#import "PNCryptoHelper.h"


#pragma mark - Private interface

@interface ChatAppDelegate ()

@property (nonatomic, assign, getter = isReconnecting) BOOL reconnecting;

- (void)clientDidConnect:(NSNotification *)notification;

@end


@implementation ChatAppDelegate

- (BOOL)application:(UIApplication *)application didFinishLaunchingWithOptions:(NSDictionary *)options {

    [PubNub setDelegate:self];
    [PubNub setConfiguration:[PNConfiguration configurationForOrigin:@"chat.example.com"
                                                          publishKey:@"pub-key"
                                                        subscribeKey:@"sub-key"
                                                           secretKey:nil]];
    [self startChat];

    return YES;
}

- (void)startChat {

    __pn_desired_weak __typeof__(self) weakSelf = self;
    [PubNub connectWithSuccessBlock:^(NSString *origin) {

                PNLog(PNLogGeneralLevel, weakSelf, @"{BLOCK} connected to: %@", origin);
                weakSelf.lobby = [PNChannel channelWithName:@"lobby" shouldObservePresence:YES];
                [PubNub subscribeOnChannel:weakSelf.lobby
               withCompletionHandlingBlock:^(PNSubscriptionProcessState state,
                                             NSArray *channels,
                                             PNError *subscriptionError) {

                   switch (state) {
                       case PNSubscriptionProcessNotSubscribedState:
                           PNLog(PNLogGeneralLevel, weakSelf, @"subscribe failed: %@",
                                 [subscriptionError localizedDescription]);
                           break;
                       case PNSubscriptionProcessSubscribedState:
                           [PubNub sendMessage:@"hello from 3.4" toChannel:[channels lastObject]];
                           break;
                       case PNSubscriptionProcessWillRestoreState:
                       case PNSubscriptionProcessRestoredState:
                           break;
                   }
               }];
            }
                         errorBlock:^(PNError *connectionError) {

                             switch (connectionError.code) {
                                 case kPNClientConnectionFailedOnInternetFailureError:
                                     weakSelf.reconnecting = YES;
                                     break;
                                 case kPNClientTriedConnectWhileConnectedError:
                                     break;
                             }
                             NSLog(@"connection failed: %@", connectionError);
                         }];

    [[NSNotificationCenter defaultCenter] addObserver:self
                                             selector:@selector(clientDidConnect:)
                                                 name:kPNClientDidConnectToOriginNotification
                                               object:nil];
    [PubNub grantReadAccessRightForChannel:self.lobby forPeriod:10 withCompletionHandlingBlock:nil];
}

- (void)clientDidConnect:(NSNotification *)notification {

    NSString *origin = (NSString *)notification.userInfo;
    PNLog(PNLogGeneralLevel, self, @"notified of a connection to %@", origin);
}


#pragma mark - PubNub client delegate methods

- (void)pubnubClient:(PubNub *)client error:(PNError *)error {

    PNLog(PNLogGeneralLevel, self, @"PubNub reported an error: %@", error);
}

- (void)pubnubClient:(PubNub *)client didConnectToOrigin:(NSString *)origin {

    if (self.isReconnecting) {

        PNLog(PNLogGeneralLevel, self, @"connection restored to %@ as %@", origin, [PubNub clientIdentifier]);
    }
}

- (void)pubnubClient:(PubNub *)client subscriptionDidFailWithError:(NSError *)error {

    PNLog(PNLogGeneralLevel, self, @"subscription failed: %@", error);
}

- (void)pubnubClient:(PubNub *)client didReceiveMessage:(PNMessage *)message {

    PNLog(PNLogGeneralLevel, self, @"%@ said %@", message.channel.name, message.message);
}

- (void)pubnubClient:(PubNub *)client didFailMessageSend:(PNMessage *)message withError:(PNError *)error {

    if ([error code] == kPNRequestExecutionFailedByTimeoutError) {

        [PubNub sendMessage:message];
    }
}

- (void)pubnubClient:(PubNub *)client
        didReceiveMessageHistory:(NSArray *)messages
                      forChannel:(PNChannel *)channel
                    startingFrom:(NSDate *)startDate
                              to:(NSDate *)endDate {

    PNLog(PNLogGeneralLevel, self, @"%lu messages of %@", (unsigned long)[messages count], channel);
}

- (void)pubnubClient:(PubNub *)client didReceiveParticipantsLits:(NSArray *)participants
          forChannel:(PNChannel *)channel {

}

- (NSNumber *)shouldReconnectPubNubClient:(PubNub *)client {

    return nil;
}

- (NSNumber *)shouldRestoreSubscriptionFromLastTimeToken {

    return @(NO);
}

@end
