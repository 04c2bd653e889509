//
//  ChatViewController.h
//

#import <UIKit/UIKit.h>
#import "PNObservationCenter.h"
#import "PNChannel.h"


@interface ChatViewController : UIViewController

@property (nonatomic, strong) PNChannel *currentChannel;
@property (nonatomic, strong) PNDate *oldest;
@property (nonatomic, strong) NSData *pushToken;

- (void)showText:(NSString *)text;

@end
