import Foundation
import Testing

@testable import PubNubLegacy

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The URL-loading codes the package declares itself (`URLLoading.Code`) and the URLSession decisions that need no
/// URLSession (error classes, sessions per trust), which the Apple-only `URLSessionTransport` carries out.
@Suite struct URLLoadingTests {
    /// Every code the package reports, against Foundation's own `URLError.Code` (Apple's values on every platform),
    /// so no failure changed domain or code when the package stopped taking them from FoundationNetworking.
    @Test func theCodesAreFoundationsURLErrorCodes() {
        let pairs: [(Int, URLError.Code)] = [
            (URLLoading.Code.unknown, .unknown), (URLLoading.Code.cancelled, .cancelled),
            (URLLoading.Code.timedOut, .timedOut), (URLLoading.Code.unsupportedURL, .unsupportedURL),
            (URLLoading.Code.cannotFindHost, .cannotFindHost),
            (URLLoading.Code.cannotConnectToHost, .cannotConnectToHost),
            (URLLoading.Code.networkConnectionLost, .networkConnectionLost),
            (URLLoading.Code.dnsLookupFailed, .dnsLookupFailed),
            (URLLoading.Code.notConnectedToInternet, .notConnectedToInternet),
            (URLLoading.Code.badServerResponse, .badServerResponse),
            (URLLoading.Code.internationalRoamingOff, .internationalRoamingOff),
            (URLLoading.Code.callIsActive, .callIsActive), (URLLoading.Code.dataNotAllowed, .dataNotAllowed),
            (URLLoading.Code.dataLengthExceedsMaximum, .dataLengthExceedsMaximum),
            (URLLoading.Code.secureConnectionFailed, .secureConnectionFailed),
            (URLLoading.Code.serverCertificateHasBadDate, .serverCertificateHasBadDate),
            (URLLoading.Code.serverCertificateUntrusted, .serverCertificateUntrusted),
            (URLLoading.Code.serverCertificateHasUnknownRoot, .serverCertificateHasUnknownRoot),
            (URLLoading.Code.serverCertificateNotYetValid, .serverCertificateNotYetValid),
            (URLLoading.Code.clientCertificateRejected, .clientCertificateRejected),
            (URLLoading.Code.clientCertificateRequired, .clientCertificateRequired),
        ]
        for (ours, foundation) in pairs {
            #expect(ours == foundation.rawValue, "\(foundation)")
        }
        #expect(URLLoading.errorDomain == NSURLErrorDomain)
        // The non-TLS NSURLError constants agree too (FoundationNetworking's TLS ones are one below Apple's).
        #expect(URLLoading.Code.cannotConnectToHost == NSURLErrorCannotConnectToHost)
        #expect(URLLoading.Code.badServerResponse == NSURLErrorBadServerResponse)
        #expect(URLLoading.Code.dataLengthExceedsMaximum == NSURLErrorDataLengthExceedsMaximum)
        #expect(URLLoading.tlsCodes == Set(-1206 ... -1200))
    }

    @Test(arguments: Array(-1206 ... -1200))
    func theTLSCodesOfURLLoadingAreTLSFailures(code: Int) {
        let error = NSError(domain: NSURLErrorDomain, code: code, userInfo: [NSLocalizedDescriptionKey: "tls"])
        #expect(URLLoading.classify(error) == .tls(code: code, description: "tls"))
    }

    @Test func eachErrorClassIsSortedOut() {
        func classify(_ code: Int, domain: String = NSURLErrorDomain) -> TransportFailure {
            URLLoading.classify(NSError(domain: domain, code: code, userInfo: [NSLocalizedDescriptionKey: "text"]))
        }
        #expect(classify(NSURLErrorCancelled) == .cancelled)
        #expect(classify(NSURLErrorTimedOut) == .timedOut)
        for code in [
            NSURLErrorCannotFindHost, NSURLErrorCannotConnectToHost, NSURLErrorNetworkConnectionLost,
            NSURLErrorDNSLookupFailed, NSURLErrorNotConnectedToInternet, NSURLErrorInternationalRoamingOff,
            NSURLErrorDataNotAllowed, NSURLErrorCallIsActive,
        ] {
            #expect(classify(code) == .network(code: code, description: "text"), "\(code)")
        }
        #expect(
            classify(NSURLErrorBadServerResponse)
                == .other(domain: NSURLErrorDomain, code: NSURLErrorBadServerResponse, description: "text")
        )
        #expect(classify(NSURLErrorUnknown) == .other(domain: NSURLErrorDomain, code: -1, description: "text"))
        #expect(classify(-1200, domain: "Other") == .other(domain: "Other", code: -1200, description: "text"))
    }

    /// A connection is judged once, when it is made: requests under other trust (anchors, pins, relaxed validation)
    /// must not reuse it, so each trust gets its own session. The host is not part of it (a session serves many).
    @Test func requestsUnderOtherTrustGetSessionsOfTheirOwn() {
        let pinned = TLSTrust(pinnedKeyDigests: [[UInt8](repeating: 1, count: 32)])
        let anchored = TLSTrust(anchorCertificatesFile: "ca.pem")
        func key(_ trust: TLSTrust, relaxed: Bool = false, host: String = "a.example") -> URLLoading.SessionKey {
            URLLoading.SessionKey(TrustEvaluation(host: host, trust: trust, relaxed: relaxed))
        }
        let plain = URLLoading.SessionKey(nil)
        #expect(plain == key(TLSTrust()), "plain http and default https share the default session")
        #expect(key(pinned) == key(pinned, host: "b.example"))
        let distinct = Set([
            plain, key(TLSTrust(), relaxed: true), key(pinned), key(pinned, relaxed: true), key(anchored),
        ])
        #expect(distinct.count == 5)
    }

    @Test func onlyHTTPSRequestsAreJudgedWithTheirHostTrustAndRelaxation() throws {
        var request = TransportRequest(
            method: "GET",
            url: try #require(URL(string: "http://a.example/")),
            body: nil,
            timeout: 5
        )
        #expect(URLLoading.evaluation(of: request) == nil)
        request.url = try #require(URL(string: "HTTPS://b.example:443/time/0"))
        request.trust = TLSTrust(anchorCertificatesFile: "ca.pem")
        request.relaxedCertificateValidation = true
        #expect(
            URLLoading.evaluation(of: request)
                == TrustEvaluation(host: "b.example", trust: TLSTrust(anchorCertificatesFile: "ca.pem"), relaxed: true)
        )
    }
}
