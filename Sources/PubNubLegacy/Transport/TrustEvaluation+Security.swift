// Apple platforms only: URLSession's server-trust challenge carries out `TrustEvaluation` through the Security
// framework. This file only turns a `SecTrust` into DER certificates and calls the Security functions; what is
// decided (anchors, pins, refusals, their codes and texts) is decided in `TrustEvaluation`, and the bookkeeping of
// the challenges in `TrustChallenges`, both tested on Linux. `Scripts/check-apple-branches.py` type-checks this
// file on Linux against the stand-ins of `Tests/AppleStandIns`; `TrustEvaluation+NoSecurity.swift` is its
// counterpart everywhere else.

#if canImport(Security)
import Foundation
import Security

/// The URLSession delegate of one `URLSessionTransport` session: it judges the server trust of the tasks
/// registered in `challenges` and leaves every other challenge to URLSession. Called on the session's delegate
/// queue.
final class SessionTrust: NSObject, URLSessionTaskDelegate, Sendable {
    /// The package judges server trust here: relaxed validation, own anchors and pins all work.
    static let judgesServerTrust = true

    let challenges = TrustChallenges()

    /// What the session is created with.
    var sessionDelegate: (any URLSessionDelegate)? { self }

    /// TLS 1.2 or later, as the package's own TLS requires.
    static func configure(_ configuration: URLSessionConfiguration) {
        configuration.tlsMinimumSupportedProtocolVersion = .TLSv12
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        let space = challenge.protectionSpace
        guard space.authenticationMethod == NSURLAuthenticationMethodServerTrust, let serverTrust = space.serverTrust
        else {
            completionHandler(.performDefaultHandling, nil)
            return
        }
        switch self.challenges.answer(task.taskIdentifier, judge: { Self.judge(serverTrust, by: $0) }) {
        case .platformDefault: completionHandler(.performDefaultHandling, nil)
        case .accept: completionHandler(.useCredential, URLCredential(trust: serverTrust))
        case .refuse: completionHandler(.cancelAuthenticationChallenge, nil)
        }
    }

    /// Carries out `evaluation` on the server's `trust`: the anchors replace the system's, the Security framework
    /// verifies (unless relaxed), then the pins are checked on the chain. Nil when the server is accepted.
    static func judge(_ trust: SecTrust, by evaluation: TrustEvaluation) -> TransportFailure? {
        if let file = evaluation.anchorsFile {
            if let failure = Self.setAnchors(of: file, on: trust) { return failure }
        }
        if evaluation.verifies {
            var error: CFError?
            if !SecTrustEvaluateWithError(trust, &error) {
                let status = error.map { Int(CFErrorGetCode($0)) } ?? 0
                let detail = error.map { CFErrorCopyDescription($0) as String } ?? "the trust evaluation failed"
                let refusal = TrustEvaluation.Refusal(securityStatus: status)
                return evaluation.refused(refusal, library: "Security", detail: detail)
            }
        }
        guard evaluation.pins else { return nil }
        let certificates = SecTrustCopyCertificateChain(trust) as? [SecCertificate] ?? []
        let chain = certificates.map { [UInt8](SecCertificateCopyData($0) as Data) }
        return evaluation.pinFailure(chain: chain, chainVerified: evaluation.verifies)
    }

    /// Makes the certificates of `file` the only anchors of `trust`; nil when done.
    private static func setAnchors(of file: String, on trust: SecTrust) -> TransportFailure? {
        let certificates: [[UInt8]]
        switch TrustEvaluation.anchorCertificates(inFile: file) {
        case .success(let read): certificates = read
        case .failure(let failure): return failure
        }
        var anchors: [SecCertificate] = []
        for (index, der) in certificates.enumerated() {
            guard let certificate = SecCertificateCreateWithData(nil, Data(der) as CFData) else {
                let reason = "the Security framework cannot read its certificate \(index + 1)"
                return TrustEvaluation.anchorsFailure(file: file, reason: reason)
            }
            anchors.append(certificate)
        }
        guard SecTrustSetAnchorCertificates(trust, anchors as CFArray) == errSecSuccess,
            SecTrustSetAnchorCertificatesOnly(trust, true) == errSecSuccess
        else {
            return TrustEvaluation.anchorsFailure(file: file, reason: "the Security framework refuses its certificates")
        }
        return nil
    }
}
#endif
