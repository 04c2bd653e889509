//
//  PNDefaultConfiguration.h
//  The app's edited copy of the 3.4 header: its origin, keys and flags.
//

#ifndef PNDefaultConfiguration_h
#define PNDefaultConfiguration_h

#define kPNOriginHost @"chat.example.com"
#define kPNPublishKey @"pub-c-0000"
#define kPNSubscriptionKey @"sub-c-0000"
#define kPNSecretKey nil
#define kPNCipherKey @"enigma"
#define kPNSecureConnectionRequired YES
#define kPNShouldResubscribeOnConnectionRestore NO
#define kPNNonSubscriptionRequestTimeout 15.0f

#define PNLOG_GENERAL_LOGGING_ENABLED 1

#endif
