//
//  PresenceMonitor.m
//  A model object (no UIKit) that counts occupants, with a C helper.
//

#import "PresenceMonitor.h"
#import "PNPresenceEvent.h"


static void PresenceMonitorLogChannels(NSArray *channels) {

    PNLog(PNLogGeneralLevel, nil, @"subscribed channels: %@", channels);
}


@implementation PresenceMonitor

+ (PresenceMonitor *)sharedMonitor {

    static PresenceMonitor *monitor = nil;
    if (monitor == nil) {

        monitor = [PresenceMonitor new];
    }

    return monitor;
}

- (void)pubnubClient:(PubNub *)client didReceivePresenceEvent:(PNPresenceEvent *)event {

    switch (event.type) {
        case PNPresenceEventJoin:
            PNLog(PNLogGeneralLevel, self, @"%@ joined %@ (%lu here)", event.uuid, event.channel,
                  (unsigned long)event.occupancy);
            break;
        default:
            break;
    }
    PresenceMonitorLogChannels([PubNub subscribedChannels]);
    if ([PubNub isPresenceObservationEnabledForChannel:event.channel] == NO) {

        [PubNub enablePresenceObservationForChannels:@[event.channel]
                         withCompletionHandlingBlock:^(NSArray *channels, PNError *error) {
                         }];
    }
    PNLog(PNLogGeneralLevel, self, @"state of %@: %@", event.uuid, kPNClientDidReceiveClientStateNotification);
    if ([self.forward respondsToSelector:@selector(pubnubClient:didReceivePresenceEvent:)]) {

        [self.forward pubnubClient:client didReceivePresenceEvent:event];
    }
}

- (void)refresh:(PNChannel *)channel {

    PNClientParticipantsHandlingBlock handler = ^(NSArray *uuids, PNChannel *target, PNError *error) {

        PNLog(PNLogGeneralLevel, self, @"%lu in %@", (unsigned long)[uuids count], target.name);
    };
    [PubNub requestParticipantsListForChannel:channel withCompletionBlock:handler];
}

- (void)pubnubClient:(PubNub *)client didReceiveParticipantsList:(NSArray *)participants
          forChannel:(PNChannel *)channel {

    PNLog(PNLogGeneralLevel, self, @"%@ in %@", participants, channel);
}

- (NSNumber *)shouldResubscribeOnConnectionRestore {

    return [NSNumber numberWithBool:YES];
}

@end
