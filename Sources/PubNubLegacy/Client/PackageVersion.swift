/// This package's version, `MAJOR.MINOR.PATCH` as Semantic Versioning 2.0.0 defines it: the newest release
/// CHANGELOG.md lists, and the name of the git tag that release carries, so `.package(url:from:)` finds it.
///
/// Within one major version the 3.4 surface — every name, error code and text, notification, default and the
/// delivery order MIGRATION.md describes — and this package's additions keep working as documented (CHANGELOG.md
/// says what the number promises). New in this package: 3.4's `kPNClientVersion` (`"3.4"`) named the API version,
/// which is 3.4 for every release of this package. A constant: read it from any thread.
///
/// (Not named `PubNubLegacyVersion`: symbol graphs, and so DocC, leave out every symbol named after its module
/// followed by `Version`, the names Xcode generates for framework versions.)
public let kPNPackageVersion = "1.0.0"
