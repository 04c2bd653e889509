// swift-tools-version:6.1
// The PubNub 3.4 compatibility layer. Foundation and Dispatch only: no package dependencies (docs/DESIGN.md §1).
// Tools 6.1 for package traits: an app that depends on this package turns 3.4's compile switches on through them
// (MIGRATION.md §8), which an Xcode app cannot do with `-D` flags on a package dependency.
// Warnings are errors in every build the project runs (`Scripts/test.sh` passes -warnings-as-errors); the flag is
// not set here because SwiftPM refuses unsafe flags in packages that others depend on.
import PackageDescription

let package = Package(
    name: "PubNubLegacy",
    // The platforms the code is written for. Linux is what `Scripts/test.sh` builds and tests; Apple platforms are
    // not built here, their Apple-only files are type-checked against SDK stand-ins (README "Platforms"). Their
    // minimums are those of the clock APIs the tests use (`ContinuousClock`, `Duration`).
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9)],
    products: [
        .library(name: "PubNubLegacy", targets: ["PubNubLegacy"]),
        .library(name: "PNObservation", targets: ["PNObservation"]),
        .library(name: "LocalOrigin", targets: ["LocalOrigin"]),
        .library(name: "PubNubAsync", targets: ["PubNubAsync"]),
        .executable(name: "LegacyDemo", targets: ["LegacyDemo"]),
        .executable(name: "pnport", targets: ["PNPort"]),
    ],
    // 3.4's compile-time switches. Each trait is also the compile condition of the same name in every target (a trait
    // is one), so `swift build --traits NAME` and `-Xswiftc -DNAME` do the same. None is on by default; the runtime
    // settings (`PNConfiguration.cryptoBackwardCompatibilityMode`, `PNLogger`) work in every build.
    traits: [
        .trait(
            name: "PUBNUB_DISABLE_LOGGER",
            description: "Removes logging from the library: PNLog and the log categories do nothing (3.4's switch)."
        ),
        .trait(
            name: "CRYPTO_BACKWARD_COMPATIBILITY_MODE",
            description: "Makes the 3.3 cipher scheme the default of every configuration (3.4's switch)."
        ),
    ],
    targets: [
        // What the client, LocalOrigin and the demo share below the protocol: the lock box, the condition box, the
        // one-shot latch and the POSIX socket shim. No wire format and no PubNub knowledge, so LocalOrigin stays an independent
        // implementation of the protocol (docs/DESIGN.md). Not a product: everything in it has `package` access.
        .target(name: "PlatformSupport"),
        .target(name: "PubNubLegacy", dependencies: ["PlatformSupport"]),
        .testTarget(
            name: "PubNubLegacyTests",
            dependencies: ["PubNubLegacy", "PNObservation", "LocalOrigin", "PlatformSupport", "TestSupport"],
            resources: [.copy("Fixtures/crypto-vectors.json")]  // docs/CRYPTO.md §6
        ),
        .target(name: "PNObservation", dependencies: ["PubNubLegacy", "PlatformSupport"]),
        .testTarget(
            name: "PNObservationTests",
            dependencies: ["PNObservation", "PubNubLegacy", "LocalOrigin", "PlatformSupport", "TestSupport"]
        ),
        .target(name: "LocalOrigin", dependencies: ["PlatformSupport"]),
        // The async/await overlay and 4.x statuses on the same engine (MIGRATION.md "Modernising a ported app").
        .target(name: "PubNubAsync", dependencies: ["PubNubLegacy", "PlatformSupport"]),
        .testTarget(
            name: "PubNubAsyncTests",
            dependencies: [
                "PubNubAsync", "PubNubLegacy", "PNObservation", "LocalOrigin", "PlatformSupport", "TestSupport",
            ]
        ),
        .testTarget(name: "LocalOriginTests", dependencies: ["LocalOrigin", "PlatformSupport", "TestSupport"]),
        .executableTarget(
            name: "LegacyDemo",
            dependencies: ["PubNubLegacy", "PNObservation", "LocalOrigin", "PubNubAsync", "PlatformSupport"]
        ),
        .testTarget(name: "LegacyDemoTests", dependencies: ["LegacyDemo", "PlatformSupport", "TestSupport"]),
        .testTarget(
            name: "SnippetTests",
            dependencies: ["PubNubLegacy", "PNObservation", "LocalOrigin", "PubNubAsync", "TestSupport"]
        ),
        // The porting assistant: reads 3.x Objective-C and says how every PubNub line ports (MIGRATION.md §10). Foundation
        // only; its name table is generated from MIGRATION.md (Scripts/extract-names.py).
        .executableTarget(name: "PNPort"),
        // The assistant's tests: its own 3.4-style Objective-C fixtures, every use listed, and every Swift spelling
        // type-checked against the built PubNubLegacy and PNObservation modules (hence the dependencies).
        .testTarget(
            name: "PNPortTests",
            dependencies: ["PNPort", "PubNubLegacy", "PNObservation", "PlatformSupport", "TestSupport"],
            resources: [.copy("Fixtures")]
        ),
        // Real 3.x programs ported by the mechanical rule, driven against LocalOrigin (MIGRATION.md "Porting a real
        // app").
        .testTarget(
            name: "PortedAppsTests",
            dependencies: ["PubNubLegacy", "PNObservation", "LocalOrigin", "PlatformSupport", "TestSupport"]
        ),
        // Callbacks waited for by running the run loop, as 3.x tests and apps did. XCTest, not Swift Testing: XCTest on
        // Linux runs each test method on the main thread and waits by running its run loop, as the app hosts of
        // 3.x's SenTestingKit suites did, while Swift Testing runs tests off the main thread under `dispatchMain()`,
        // where no run loop runs (MIGRATION.md §4).
        .testTarget(
            name: "RunLoopDeliveryTests",
            dependencies: ["PubNubLegacy", "PNObservation", "LocalOrigin", "PlatformSupport"]
        ),
        // What several test targets share, importing no PubNub module: `eventually(within:)` (the one wait with a
        // deadline), `LoopbackSocket` (raw TCP on 127.0.0.1), the lock of the process-wide state (shared client,
        // logger, defaults) and the lock of the tests that block their thread for seconds.
        .target(name: "TestSupport", path: "Tests/TestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
