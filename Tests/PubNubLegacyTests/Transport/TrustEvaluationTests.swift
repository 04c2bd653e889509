import Foundation
import Testing

@testable import PubNubLegacy

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The trust decision both TLS paths share (`TrustEvaluation`): PEM anchors, the SubjectPublicKeyInfo a pin hashes,
/// the pin check and the failures. Certificates come from the `openssl` tool at test time, and the public-key
/// digests are checked against what `openssl` computes for the same certificate (MIGRATION.md "TLS: trust anchors
/// and pins" gives the same command to users), so the parser is checked against an implementation it does not share.
@Suite struct TrustEvaluationTests {
    static let untrusted = URLError.Code.serverCertificateUntrusted.rawValue
    static let setupFailed = URLError.Code.secureConnectionFailed.rawValue

    /// A CA, a server certificate it issued (EC P-256), and self-signed ones with RSA and Ed25519 keys.
    final class Certificates: Sendable {
        let authority: TestCertificateAuthority
        let server: TestCertificateAuthority.Identity
        let rsa: URL
        let ed25519: URL

        init() async throws {
            self.authority = try await TestCertificateAuthority()
            do {
                self.server = try await self.authority.issue("server")
                self.rsa = try await Self.selfSigned(
                    in: self.authority.folder,
                    name: "rsa",
                    key: ["-newkey", "rsa:2048"]
                )
                self.ed25519 = try await Self.selfSigned(
                    in: self.authority.folder,
                    name: "ed",
                    key: ["-newkey", "ed25519"]
                )
            } catch {
                self.authority.remove()
                throw error
            }
        }

        private static func selfSigned(in folder: URL, name: String, key: [String]) async throws -> URL {
            let certificate = folder.appendingPathComponent("\(name).pem")
            let keyFile = folder.appendingPathComponent("\(name).key")
            _ = try await TestCertificateAuthority.capture(
                ["openssl", "req", "-x509", "-nodes"] + key + [
                    "-keyout", keyFile.path, "-out", certificate.path, "-days", "2", "-subj", "/CN=\(name)",
                ]
            )
            return certificate
        }

        /// The DER of the PEM certificate `file`, as `openssl x509 -outform DER` writes it.
        func der(_ file: URL) async throws -> [UInt8] {
            [UInt8](
                try await TestCertificateAuthority.capture(["openssl", "x509", "-in", file.path, "-outform", "DER"])
            )
        }

        func pem(_ file: URL) throws -> [UInt8] {
            [UInt8](try Data(contentsOf: file))
        }

        func remove() {
            self.authority.remove()
        }
    }

    static func evaluation(pins: [[UInt8]] = [], anchors: String? = nil, relaxed: Bool = false) -> TrustEvaluation {
        TrustEvaluation(
            host: "origin.example",
            trust: TLSTrust(anchorCertificatesFile: anchors, pinnedKeyDigests: Set(pins)),
            relaxed: relaxed
        )
    }

    // MARK: - SubjectPublicKeyInfo

    @Test func publicKeyDigestsAreTheOnesOpenSSLComputes() async throws {
        let certificates = try await Certificates()
        defer { certificates.remove() }
        for file in [
            certificates.authority.caFile, certificates.server.certificate, certificates.rsa,
            certificates.ed25519,
        ] {
            let digest = try #require(TrustEvaluation.publicKeyDigest(ofCertificate: try await certificates.der(file)))
            #expect(
                Base64.encode(digest) == (try await certificates.authority.pin(of: file)),
                "\(file.lastPathComponent)"
            )
        }
    }

    @Test func pemCertificatesAreTheDEROpenSSLWrites() async throws {
        let certificates = try await Certificates()
        defer { certificates.remove() }
        // A bundle as CA files come: two certificates, a comment line and a key block between them, CRLF endings.
        let text =
            "# test bundle\r\n" + String(decoding: try certificates.pem(certificates.authority.caFile), as: UTF8.self)
            + "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"
            + String(decoding: try certificates.pem(certificates.rsa), as: UTF8.self).replacingOccurrences(
                of: "\n",
                with: "\r\n"
            )
        let parsed = try TrustEvaluation.certificates(fromPEM: Array(text.utf8)).get()
        #expect(
            parsed == [
                try await certificates.der(certificates.authority.caFile), try await certificates.der(certificates.rsa),
            ]
        )
    }

    @Test func damagedCertificatesHaveNoPublicKey() async throws {
        let certificates = try await Certificates()
        defer { certificates.remove() }
        let der = try await certificates.der(certificates.server.certificate)
        #expect(TrustEvaluation.subjectPublicKeyInfo(ofCertificate: der) != nil)
        #expect(TrustEvaluation.subjectPublicKeyInfo(ofCertificate: Array(der.dropLast())) == nil, "truncated")
        #expect(TrustEvaluation.subjectPublicKeyInfo(ofCertificate: der + [0]) == nil, "a byte after the certificate")
        var indefinite = der
        indefinite[1] = 0x80  // BER's indefinite length
        #expect(TrustEvaluation.subjectPublicKeyInfo(ofCertificate: indefinite) == nil)
        #expect(TrustEvaluation.subjectPublicKeyInfo(ofCertificate: []) == nil)
        #expect(TrustEvaluation.subjectPublicKeyInfo(ofCertificate: [0x30, 0x00]) == nil, "an empty SEQUENCE")
    }

    // MARK: - PEM problems

    @Test(
        arguments: [
            ("", TrustEvaluation.PEMProblem.noCertificate),
            ("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", .noCertificate),
            ("-----BEGIN CERTIFICATE-----\nMIIB\n", .unterminated(label: "CERTIFICATE")),
            ("-----BEGIN CERTIFICATE-----\nAAAA\n-----END PRIVATE KEY-----\n", .unterminated(label: "CERTIFICATE")),
            ("-----BEGIN CERTIFICATE-----\nnot base64!\n-----END CERTIFICATE-----\n", .notBase64(index: 1)),
            ("-----BEGIN CERTIFICATE-----\nMAA=\n-----END CERTIFICATE-----\n", .notACertificate(index: 1)),
        ]
    )
    func pemWithoutUsableCertificatesIsRefused(text: String, problem: TrustEvaluation.PEMProblem) {
        #expect(TrustEvaluation.certificates(fromPEM: Array(text.utf8)) == .failure(problem))
    }

    @Test func anAnchorsFileThatCannotBeUsedFailsNamingIt() async throws {
        let missing = TrustEvaluation.anchorCertificates(inFile: "/nonexistent/ca.pem") { path in
            try Data(contentsOf: URL(fileURLWithPath: path)).map { $0 }
        }
        guard case .failure(.tls(let code, let text)) = missing else {
            Issue.record("expected a TLS failure, got \(missing)")
            return
        }
        #expect(code == Self.setupFailed)
        #expect(
            text.hasPrefix("TLS cannot be set up: the anchor certificates file /nonexistent/ca.pem cannot be loaded")
        )
        let empty = TrustEvaluation.anchorCertificates(inFile: "empty.pem") { _ in Array("# nothing\n".utf8) }
        #expect(
            empty
                == .failure(
                    .tls(
                        code: Self.setupFailed,
                        description: "TLS cannot be set up: the anchor certificates file empty.pem cannot be loaded: "
                            + "it holds no PEM certificate (-----BEGIN CERTIFICATE-----)."
                    )
                )
        )
    }

    @Test func anchorsApplyOnlyWhenVerifying() {
        #expect(Self.evaluation().anchorCertificates() == nil, "the system trust store")
        #expect(Self.evaluation(anchors: "ca.pem", relaxed: true).anchorCertificates() == nil, "nothing is verified")
        #expect(Self.evaluation(anchors: "ca.pem").anchorsFile == "ca.pem")
        #expect(Self.evaluation().isPlatformDefault)
        #expect(!Self.evaluation(relaxed: true).isPlatformDefault)
        #expect(!Self.evaluation(anchors: "ca.pem").isPlatformDefault)
        #expect(!Self.evaluation(pins: [[UInt8](repeating: 1, count: 32)]).isPlatformDefault)
    }

    // MARK: - Pins

    @Test func pinsMatchTheServerKeyOrAVerifiedChain() async throws {
        let certificates = try await Certificates()
        defer { certificates.remove() }
        let leaf = try await certificates.der(certificates.server.certificate)
        let ca = try await certificates.der(certificates.authority.caFile)
        let leafPin = try #require(TrustEvaluation.publicKeyDigest(ofCertificate: leaf))
        let caPin = try #require(TrustEvaluation.publicKeyDigest(ofCertificate: ca))
        let otherPin = try #require(
            TrustEvaluation.publicKeyDigest(ofCertificate: try await certificates.der(certificates.rsa))
        )

        #expect(Self.evaluation().pinFailure(chain: [leaf], chainVerified: false) == nil, "no pins")
        #expect(Self.evaluation(pins: [leafPin]).pinFailure(chain: [leaf, ca], chainVerified: false) == nil)
        #expect(Self.evaluation(pins: [otherPin, caPin]).pinFailure(chain: [leaf, ca], chainVerified: true) == nil)

        // An unverified chain may list any certificate: only the server's own key counts then.
        let unverified = Self.evaluation(pins: [caPin], relaxed: true).pinFailure(
            chain: [leaf, ca],
            chainVerified: false
        )
        let expected = TransportFailure.tls(
            code: Self.untrusted,
            description: "The public key of origin.example matches none of the pinned keys (its SHA-256 is "
                + "\(Base64.encode(leafPin)))."
        )
        #expect(unverified == expected)
        #expect(Self.evaluation(pins: [otherPin]).pinFailure(chain: [leaf, ca], chainVerified: true) == expected)
        #expect(
            Self.evaluation(pins: [otherPin]).pinFailure(chain: [], chainVerified: true)
                == .tls(
                    code: Self.untrusted,
                    description: "The public key of origin.example matches none of the pinned keys."
                )
        )
    }

    // MARK: - Refusals

    @Test func refusalsCarryApplesCodesAndTheLibrarysWords() {
        let withAnchors = Self.evaluation(anchors: "ca.pem")
        let cases: [(TrustEvaluation.Refusal, URLError.Code, String)] = [
            (.expired, .serverCertificateHasBadDate, "has expired"),
            (.notYetValid, .serverCertificateNotYetValid, "is not valid yet"),
            (.otherHost, .serverCertificateUntrusted, "does not name origin.example"),
            (
                .unknownAuthority, .serverCertificateUntrusted,
                "is not issued by an authority in the anchor certificates in ca.pem"
            ),
            (.untrusted, .serverCertificateUntrusted, "is not trusted"),
        ]
        for (refusal, code, what) in cases {
            #expect(
                withAnchors.refused(refusal, library: "Security", detail: "why")
                    == .tls(
                        code: code.rawValue,
                        description: "The certificate of origin.example \(what) (Security: why)."
                    )
            )
        }
        #expect(
            Self.evaluation().refused(.unknownAuthority, library: "OpenSSL", detail: "x")
                == .tls(
                    code: Self.untrusted,
                    description: "The certificate of origin.example is not issued by an authority in the system trust "
                        + "store (OpenSSL: x)."
                )
        )
    }

    /// The Security framework's `OSStatus` values (`SecBase.h`) and OpenSSL's `X509_V_ERR_…` values (`x509_vfy.h`).
    @Test func libraryResultsMapToRefusals() {
        let security: [(Int, TrustEvaluation.Refusal)] = [
            (-67818, .expired), (-67819, .notYetValid), (-67602, .otherHost), (-67843, .unknownAuthority),
            (-25318, .unknownAuthority), (-67609, .untrusted), (0, .untrusted),
        ]
        for (status, refusal) in security {
            #expect(TrustEvaluation.Refusal(securityStatus: status) == refusal, "OSStatus \(status)")
        }
        let openSSL: [(Int, TrustEvaluation.Refusal)] = [
            (10, .expired), (9, .notYetValid), (62, .otherHost), (64, .otherHost), (18, .unknownAuthority),
            (19, .unknownAuthority), (20, .unknownAuthority), (2, .unknownAuthority), (21, .unknownAuthority),
            (23, .untrusted),
        ]
        for (result, refusal) in openSSL {
            #expect(TrustEvaluation.Refusal(openSSLResult: result) == refusal, "X509_V_ERR \(result)")
        }
    }
}
