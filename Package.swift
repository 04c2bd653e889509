// swift-tools-version:6.0
// The PubNub 3.4 compatibility layer. Foundation and Dispatch only: no package dependencies (DESIGN.md §1).
// Warnings are errors in every build the project runs (`Scripts/test.sh` passes -warnings-as-errors); the flag is
// not set here because SwiftPM refuses unsafe flags in packages that others depend on.
import PackageDescription

let package = Package(
    name: "PubNubLegacy",
    products: [
        .library(name: "PubNubLegacy", targets: ["PubNubLegacy"]),
        .library(name: "PNObservation", targets: ["PNObservation"]),
        .library(name: "LocalOrigin", targets: ["LocalOrigin"]),
        .executable(name: "LegacyDemo", targets: ["LegacyDemo"]),
    ],
    targets: [
        .target(name: "PubNubLegacy"),
        .testTarget(
            name: "PubNubLegacyTests",
            dependencies: ["PubNubLegacy", "PNObservation", "LocalOrigin", "TestSupport"]
        ),
        .target(name: "PNObservation", dependencies: ["PubNubLegacy"]),
        .testTarget(name: "PNObservationTests", dependencies: ["PNObservation", "PubNubLegacy", "LocalOrigin"]),
        .target(name: "LocalOrigin"),
        .testTarget(name: "LocalOriginTests", dependencies: ["LocalOrigin"]),
        .executableTarget(name: "LegacyDemo", dependencies: ["PubNubLegacy", "PNObservation", "LocalOrigin"]),
        .testTarget(name: "LegacyDemoTests", dependencies: ["LegacyDemo"]),
        .testTarget(name: "SnippetTests", dependencies: ["PubNubLegacy", "PNObservation", "LocalOrigin"]),
        // Real 3.x programs ported by the mechanical rule, driven against LocalOrigin (MIGRATION.md "Porting a real
        // app").
        .testTarget(
            name: "PortedAppsTests",
            dependencies: ["PubNubLegacy", "PNObservation", "LocalOrigin", "TestSupport"]
        ),
        // What several test targets share: the lock of the process-wide state (shared client, logger, defaults).
        .target(name: "TestSupport", path: "Tests/TestSupport"),
    ],
    swiftLanguageModes: [.v6]
)
