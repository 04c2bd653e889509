// 3.4's class constructors of `PNConfiguration` (docs/API-3.4.md §2.7.3): each fills in the arguments it lacks from
// the `PNDefaultConfiguration.h` values, read when it is called, and goes to the designated initializer.

extension PNConfiguration {
    /// 3.4's `+defaultConfiguration`: origin `kPNOriginHost`, keys `kPNPublishKey`, `kPNSubscriptionKey`,
    /// `kPNSecretKey`, `kPNCipherKey` and `kPNAuthorizationKey` — the `PNDefaultConfiguration.h` values, read at call
    /// time, so an app that assigned its own (MIGRATION.md) gets them.
    public static func defaultConfiguration() -> PNConfiguration {
        PNConfiguration(
            origin: kPNOriginHost,
            publishKey: kPNPublishKey,
            subscribeKey: kPNSubscriptionKey,
            secretKey: kPNSecretKey,
            cipherKey: kPNCipherKey,
            authorizationKey: kPNAuthorizationKey
        )
    }

    /// 3.4's `+configurationWithPublishKey:subscribeKey:secretKey:`: origin `kPNDefaultOriginHost`, cipher and auth
    /// keys `kPNCipherKey` and `kPNAuthorizationKey` (nil unless the app set them), read at call time.
    public static func configurationWithPublishKey(
        _ publishKey: String?,
        subscribeKey: String?,
        secretKey: String?
    ) -> PNConfiguration {
        self.configurationWithPublishKey(
            publishKey,
            subscribeKey: subscribeKey,
            secretKey: secretKey,
            authorizationKey: kPNAuthorizationKey
        )
    }

    /// 3.4's `+configurationWithPublishKey:subscribeKey:secretKey:authorizationKey:`: origin `kPNDefaultOriginHost`
    /// and cipher key `kPNCipherKey`, read at call time.
    public static func configurationWithPublishKey(
        _ publishKey: String?,
        subscribeKey: String?,
        secretKey: String?,
        authorizationKey: String?
    ) -> PNConfiguration {
        self.configurationForOrigin(
            kPNDefaultOriginHost,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secretKey: secretKey,
            cipherKey: kPNCipherKey,
            authorizationKey: authorizationKey
        )
    }

    /// 3.4's `+configurationForOrigin:publishKey:subscribeKey:secretKey:`: cipher and auth keys `kPNCipherKey` and
    /// `kPNAuthorizationKey`, read at call time.
    public static func configurationForOrigin(
        _ originHostName: String?,
        publishKey: String?,
        subscribeKey: String?,
        secretKey: String?
    ) -> PNConfiguration {
        self.configurationForOrigin(
            originHostName,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secretKey: secretKey,
            cipherKey: kPNCipherKey,
            authorizationKey: kPNAuthorizationKey
        )
    }

    /// 3.4's `+configurationForOrigin:publishKey:subscribeKey:secretKey:authorizationKey:`: cipher key
    /// `kPNCipherKey`, read at call time.
    public static func configurationForOrigin(
        _ originHostName: String?,
        publishKey: String?,
        subscribeKey: String?,
        secretKey: String?,
        authorizationKey: String?
    ) -> PNConfiguration {
        self.configurationForOrigin(
            originHostName,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secretKey: secretKey,
            cipherKey: kPNCipherKey,
            authorizationKey: authorizationKey
        )
    }

    /// 3.4's `+configurationForOrigin:publishKey:subscribeKey:secretKey:cipherKey:`: auth key
    /// `kPNAuthorizationKey`, read at call time.
    public static func configurationForOrigin(
        _ originHostName: String?,
        publishKey: String?,
        subscribeKey: String?,
        secretKey: String?,
        cipherKey: String?
    ) -> PNConfiguration {
        self.configurationForOrigin(
            originHostName,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secretKey: secretKey,
            cipherKey: cipherKey,
            authorizationKey: kPNAuthorizationKey
        )
    }

    /// 3.4's designated factory `+configurationForOrigin:publishKey:subscribeKey:secretKey:cipherKey:authorizationKey:`.
    public static func configurationForOrigin(
        _ originHostName: String?,
        publishKey: String?,
        subscribeKey: String?,
        secretKey: String?,
        cipherKey: String?,
        authorizationKey: String?
    ) -> PNConfiguration {
        PNConfiguration(
            origin: originHostName,
            publishKey: publishKey,
            subscribeKey: subscribeKey,
            secretKey: secretKey,
            cipherKey: cipherKey,
            authorizationKey: authorizationKey
        )
    }
}
