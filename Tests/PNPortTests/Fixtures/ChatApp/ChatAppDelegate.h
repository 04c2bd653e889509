//
//  ChatAppDelegate.h
//  A chat app written against PubNub 3.4 for the porting assistant's tests (not PubNub's code).
//

#import <UIKit/UIKit.h>
#import "PNImports.h"


@interface ChatAppDelegate : UIResponder <UIApplicationDelegate, PNDelegate>

@property (nonatomic, strong) UIWindow *window;
@property (nonatomic, strong) PNChannel *lobby;
@property (nonatomic, copy) PNClientConnectionSuccessBlock onConnect;

- (void)startChat;

@end
