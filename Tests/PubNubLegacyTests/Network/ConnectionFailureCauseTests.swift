import Foundation
import LocalOrigin
import PlatformSupport
import TestSupport
import Testing

@testable import PubNubLegacy

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every way a connect can fail names its cause: in the `PNError` the four channels get (description or failure
/// reason, never the generic texts) and in its `underlyingError` (the URL-loading code and the transport's text),
/// and in the log, as text a person reads. Each cause is met for real, on loopback only: a closed port (refused), a
/// name the resolver refuses without asking a server (DNS), a listener that never answers (timeout), a plain port
/// spoken to in TLS and a server answering garbage.
@Suite struct ConnectionFailureCauseTests {
    /// A client against `origin` in plain HTTP (TLS when `secure`) whose connect attempts give up after
    /// `attemptTimeout`; connects and returns the one connection-failed error, after checking that all four channels
    /// carried that same error.
    static func failedConnect(
        to origin: String,
        secure: Bool = false,
        attemptTimeout: TimeInterval = 10
    ) async throws -> PNError {
        let harness = TLSFallbackTests.Harness(
            origin: origin,
            timings: EngineTimings.quietProbe.connectAttempts(timingOutAfter: attemptTimeout)
        ) { configuration in
            configuration.useSecureConnection = secure
        }
        defer { harness.stop() }
        try await harness.connect()
        let error = try harness.connectionError()
        #expect(harness.entries == harness.failedConnect(error))
        #expect(!harness.client.isConnected())
        return error
    }

    /// The underlying error: URL-loading domain, `code`, and a description that contains `text`.
    static func expectUnderlying(
        _ error: PNError,
        code: Int,
        containing text: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let underlying = error.underlyingError as NSError?
        #expect(underlying?.domain == NSURLErrorDomain, sourceLocation: sourceLocation)
        #expect(underlying?.code == code, sourceLocation: sourceLocation)
        #expect(underlying?.localizedDescription.contains(text) == true, "\(String(describing: underlying))")
        #expect((error.userInfo[NSUnderlyingErrorKey] as? NSError)?.code == code, sourceLocation: sourceLocation)
    }

    /// 102 with 3.4's description, the cause as failure reason (not 3.4's generic "lost connection" text).
    static func expectNetworkFailure(
        _ error: PNError,
        reason: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(error.code == kPNClientConnectionFailedOnInternetFailureError, sourceLocation: sourceLocation)
        #expect(error.localizedDescription == "PubNub client connection failed", sourceLocation: sourceLocation)
        #expect(error.category == .networkIssues, sourceLocation: sourceLocation)
        #expect(error.localizedFailureReason.contains(reason), "\(error)", sourceLocation: sourceLocation)
        #expect(
            error.localizedFailureReason != PNError.defaultFailureReason(forCode: error.code),
            sourceLocation: sourceLocation
        )
    }

    /// A TCP socket bound to 127.0.0.1 on a kernel-chosen port; listening when `listening` (with a backlog, so
    /// connects complete without anyone accepting). Returns the descriptor and the port.
    static func loopbackSocket(listening: Bool) throws -> (fd: Int32, port: UInt16) {
        let fd = LoopbackSocket.tcp()
        guard fd >= 0, LoopbackSocket.bind(fd, port: 0) == 0, let port = LoopbackSocket.localPort(fd) else {
            throw POSIXError(.EADDRINUSE)
        }
        if listening { guard listen(fd, 16) == 0 else { throw POSIXError(.EIO) } }
        return (fd, port)
    }

    // MARK: - Causes

    @Test func refusedNamesTheAddressAndThatNothingListens() async throws {
        // Bound but not listening: the port stays ours, and a connect to it is refused (RST), as on a closed port.
        let socket = try Self.loopbackSocket(listening: false)
        defer { close(socket.fd) }
        let error = try await Self.failedConnect(to: "127.0.0.1:\(socket.port)")
        Self.expectNetworkFailure(error, reason: "127.0.0.1:\(socket.port) refused the connection")
        Self.expectUnderlying(error, code: NSURLErrorCannotConnectToHost, containing: "refused the connection")
    }

    @Test func aNameThatCannotResolveIsADNSFailure() async throws {
        // A 64-character label: longer than DNS allows (RFC 1035 §2.3.4), so the resolver refuses the name itself
        // and no query leaves the machine (glibc's res_mkquery fails; systemd-resolved answers `.invalid` locally).
        let host = String(repeating: "x", count: 64) + ".invalid"
        let error = try await Self.failedConnect(to: host)
        Self.expectNetworkFailure(error, reason: "The name \(host) could not be resolved (DNS: ")
        Self.expectUnderlying(error, code: NSURLErrorCannotFindHost, containing: "could not be resolved")
    }

    @Test func aListenerThatNeverAnswersIsATimeout() async throws {
        // Connects complete in the kernel's backlog; nobody ever reads the request.
        let socket = try Self.loopbackSocket(listening: true)
        defer { close(socket.fd) }
        let error = try await Self.failedConnect(to: "127.0.0.1:\(socket.port)", attemptTimeout: 0.5)
        Self.expectNetworkFailure(error, reason: "127.0.0.1:\(socket.port) did not answer within 0.5 s")
        Self.expectUnderlying(error, code: NSURLErrorTimedOut, containing: "did not answer within 0.5 s")
    }

    @Test(.enabled(if: OpenSSLTests.loaded)) func tlsToAPlainPortIsATLSFailureWithASpecificSuggestion()
        async throws
    {
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let error = try await Self.failedConnect(to: origin.address, secure: true)
        TLSFallbackTests.expectTLSFailure(error, code: TLSFallbackTests.handshakeFailed)
        #expect(error.localizedDescription.hasPrefix("The TLS handshake with 127.0.0.1 failed"))
        #expect(error.localizedFailureReason == "The TLS connection to the origin could not be set up.")
        #expect(error.localizedRecoverySuggestion.contains("useSecureConnection"))
        #expect(error.localizedRecoverySuggestion != PNError.unknownRecoverySuggestion)
        Self.expectUnderlying(error, code: TLSFallbackTests.handshakeFailed, containing: "TLS handshake")
    }

    @Test func garbageInsteadOfHTTPIsABadResponseThatSaysWhatToCheck() async throws {
        let server = try RawHTTPServer { _ in .send("SSH-2.0-OpenSSH_9.2\r\n\r\n", close: true) }
        defer { server.stop() }
        let error = try await Self.failedConnect(to: "127.0.0.1:\(server.port)")
        #expect(error.code == NSURLErrorBadServerResponse)
        #expect(error.localizedFailureReason == "What came back from the origin is not an HTTP/1.x response.")
        #expect(error.localizedRecoverySuggestion.contains("useSecureConnection"))
        Self.expectUnderlying(error, code: NSURLErrorBadServerResponse, containing: "bad response")
    }

    @Test func anHTTPServerThatIsNotPubNubIsNamedAsSuch() async throws {
        let server = try RawHTTPServer { _ in .send(RawHTTPServer.ok("<html>It works!</html>"), close: false) }
        defer { server.stop() }
        let error = try await Self.failedConnect(to: "127.0.0.1:\(server.port)")
        Self.expectNetworkFailure(error, reason: "with HTTP 200 and a body that is not a PubNub time token")
        Self.expectUnderlying(error, code: NSURLErrorBadServerResponse, containing: "not a PubNub time token")
    }

    @Test func aLostConnectionNamesWhatTheProbeMet() async throws {
        // Connected, then the origin stops answering: the probe times out (5 s) and the loss (103) says so.
        let origin = try LocalOrigin.start()
        defer { origin.stop() }
        let recorder = EventRecorder()
        let client = try await NetworkFaultTests.connected(to: origin, recorder: recorder)
        defer { client.disconnect() }
        try origin.inject(.neverAnswer)
        let will = try #require(try await recorder.next(.delegate, "willDisconnectWithError", within: 20).error)
        let did = try #require(try await recorder.next(.delegate, "didDisconnectWithError", within: 10).error)
        for error in [will, did] {
            #expect(error.code == kPNClientConnectionClosedOnInternetFailureError)
            #expect(error.category == .unexpectedDisconnect)
            #expect(
                error.localizedFailureReason
                    == "\(origin.address) did not answer within 5 s (connection or request timed out)."
            )
            Self.expectUnderlying(error, code: NSURLErrorTimedOut, containing: "did not answer within 5 s")
        }
        try origin.clearFaults()
    }

    // MARK: - Log

    /// The log says why, in words: no Swift dump of the engine's values, a space after the tag.
    @Test(.sharedProcessState) func theLogNamesTheCauseInPlainText() async throws {
        let lines = Locked<[String]>([])
        PNLogger.setSink { _, line in lines.withLock { $0.append(line) } }
        PNLogger.enableAll()
        defer {
            PNLogger.disableAll()
            PNLogger.setSink(nil)
        }
        let socket = try Self.loopbackSocket(listening: false)
        defer { close(socket.fd) }
        _ = try await Self.failedConnect(to: "127.0.0.1:\(socket.port)")
        let logged = lines.current
        let failure = logged.first { $0.contains("{ERROR} cannot connect to 127.0.0.1:\(socket.port): 102") }
        #expect(failure?.contains("refused the connection") == true, "\(logged.joined(separator: "\n"))")
        #expect(logged.contains { $0.contains("{INFO} connection connecting: retrying the connect attempt in 2 s") })
        for line in logged {
            #expect(!line.contains("PubNubLegacy.") && !line.contains("Optional("), "a type dump: \(line)")
            #expect(!line.contains("}connection") && !line.contains("}subscribe"), "no space after the tag: \(line)")
        }
    }
}
