import Foundation
import TestSupport

@testable import PubNubLegacy

/// A certificate authority made at test time in a fresh temporary folder, with server certificates on demand:
/// `Scripts/tls_terminator.py ca` / `issue`, which drive the `openssl` tool. `remove()` deletes the folder.
final class TestCertificateAuthority: Sendable {
    /// A server certificate and its key, as PEM files.
    struct Identity: Sendable {
        let certificate: URL
        let key: URL
    }

    let folder: URL
    /// The CA certificate: what a client trusts (`anchorCertificatesFile`).
    let caFile: URL

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = packageRoot.appendingPathComponent("Scripts/tls_terminator.py")

    /// The SAN of a certificate valid for the loopback address and `localhost`.
    static let loopback = "IP:127.0.0.1,DNS:localhost"

    /// A new CA in its own temporary folder. Every tool this type runs is waited for off Swift's concurrency threads
    /// (`onOwnThread`): on Linux those are one per core, and a tool waited for on one held it — with two tests making
    /// certificates at once, a 2-core run's async tests stood still for 50 s.
    init() async throws {
        self.folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("pubnub-tls-\(UUID().uuidString)", isDirectory: true)
        self.caFile = self.folder.appendingPathComponent("ca.pem")
        do {
            try await Self.run(["ca", self.folder.path])
        } catch {
            self.remove()
            throw error
        }
    }

    /// A certificate for `san` signed by this CA (or self-signed), valid from `daysFrom` to `daysTo` days from now.
    func issue(
        _ name: String,
        san: String = TestCertificateAuthority.loopback,
        daysFrom: Double = -1,
        daysTo: Double = 2,
        selfSigned: Bool = false
    ) async throws -> Identity {
        var arguments = [
            "issue", self.folder.path, name, "--san", san, "--days-from", String(daysFrom), "--days-to", String(daysTo),
        ]
        if selfSigned { arguments.append("--self-signed") }
        try await Self.run(arguments)
        return Identity(
            certificate: self.folder.appendingPathComponent("\(name).pem"),
            key: self.folder.appendingPathComponent("\(name).key")
        )
    }

    /// The pin of `certificate` as `PNConfiguration.pinnedPublicKeyHashes` takes it: base64 of the SHA-256 of its
    /// DER SubjectPublicKeyInfo, computed from `openssl`'s output.
    func pin(of certificate: URL) async throws -> String {
        let pem = try await Self.capture(["openssl", "x509", "-in", certificate.path, "-pubkey", "-noout"])
        let key = self.folder.appendingPathComponent("pubkey-\(UUID().uuidString).pem")
        try pem.write(to: key)
        let der = try await Self.capture(["openssl", "pkey", "-pubin", "-in", key.path, "-outform", "DER"])
        return Base64.encode(SHA256.hash(der))
    }

    func remove() {
        try? FileManager.default.removeItem(at: self.folder)
    }

    /// Runs the terminator script with `arguments`; throws with its error output when it fails.
    static func run(_ arguments: [String]) async throws {
        let result = try await Self.execute(["python3", Self.script.path] + arguments)
        guard result.status == 0 else {
            throw CertificateError(
                command: arguments.joined(separator: " "),
                output: String(decoding: result.errors, as: UTF8.self)
            )
        }
    }

    /// Runs a tool found on `PATH` and returns its standard output; throws when it fails.
    static func capture(_ arguments: [String]) async throws -> Data {
        let result = try await Self.execute(arguments)
        guard result.status == 0 else {
            throw CertificateError(
                command: arguments.joined(separator: " "),
                output: "exit \(result.status): \(String(decoding: result.errors, as: UTF8.self))"
            )
        }
        return result.output
    }

    /// Runs `arguments` (the tool looked up on `PATH`) to its exit; its output goes to temporary files, read once
    /// it has exited.
    private static func execute(_ arguments: [String]) async throws -> (status: Int32, output: Data, errors: Data) {
        let scratch = FileManager.default.temporaryDirectory
        let outputFile = scratch.appendingPathComponent("pubnub-tls-out-\(UUID().uuidString)")
        let errorFile = scratch.appendingPathComponent("pubnub-tls-err-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        let child = SpawnedProcess()
        child.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        child.arguments = arguments
        child.standardInput = FileHandle.nullDevice
        for file in [outputFile, errorFile] where !FileManager.default.createFile(atPath: file.path, contents: nil) {
            throw CertificateError(command: arguments.joined(separator: " "), output: "could not create \(file.path)")
        }
        let output = try FileHandle(forWritingTo: outputFile)
        let errors = try FileHandle(forWritingTo: errorFile)
        child.standardOutput = output
        child.standardError = errors
        defer {
            try? output.close()
            try? errors.close()
        }
        try child.run()
        let status = try await onOwnThread("TestCertificateAuthority.execute") { () -> Int32 in
            child.waitUntilExit()
            return child.terminationStatus
        }
        return (status, (try? Data(contentsOf: outputFile)) ?? Data(), (try? Data(contentsOf: errorFile)) ?? Data())
    }
}

/// A certificate could not be made.
struct CertificateError: Error, CustomStringConvertible {
    let command: String
    let output: String

    var description: String { "\(self.command) failed: \(self.output)" }
}
