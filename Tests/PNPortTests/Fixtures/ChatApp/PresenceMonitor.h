//
//  PresenceMonitor.h
//

#import <Foundation/Foundation.h>
#import "PNDelegate.h"


@interface PresenceMonitor : NSObject <PNDelegate>

@property (nonatomic, pn_desired_weak) id<PNDelegate> forward;

+ (PresenceMonitor *)sharedMonitor;
- (void)refresh:(PNChannel *)channel;

@end
