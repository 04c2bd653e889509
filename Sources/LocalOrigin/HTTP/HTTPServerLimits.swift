/// Size and count limits the server enforces while parsing, and the answers it gives when one is exceeded.
///
/// Every rejection is a JSON error answer (`{"status":…,"error":true,"message":…,"service":"Balancer"}`) after which
/// the connection is closed; other connections are not affected.
public struct HTTPServerLimits: Sendable, Equatable {
    /// Longest request line (method, target and version, without the line end) in bytes. Longer → 414, sent as
    /// soon as the limit is passed, without waiting for the line end.
    public var maxRequestLineBytes: Int
    /// Largest header block (every header line with its line end, plus the empty line) in bytes. Larger → 431.
    public var maxHeaderBytes: Int
    /// Largest request body in bytes. A `Content-Length` above it → 413, sent when the header is read, before any
    /// body byte arrives.
    public var maxBodyBytes: Int
    /// Most connections open at once. Connections accepted above it are closed at once without an answer.
    public var maxConnections: Int
    /// Requests parsed on one connection but not yet answered at which the server stops reading that connection
    /// until answers are written (bounds the memory a pipelining client can make the server hold).
    public var maxPipelinedRequests: Int
    /// Event-loop threads that serve connections (plus one thread that accepts). At least 1.
    public var eventLoopCount: Int
    /// How long, in milliseconds, a connection the server closes after an answer keeps being drained before it is
    /// closed for good. Draining the client's unread bytes lets the kernel end with FIN instead of RST, so the
    /// client reliably reads the last answer.
    public var lingerMilliseconds: Int

    /// Creates limits; every default is the value the PubNub origin uses.
    public init(
        maxRequestLineBytes: Int = 40_960,
        maxHeaderBytes: Int = 32_768,
        maxBodyBytes: Int = 1_048_576,
        maxConnections: Int = 10_000,
        maxPipelinedRequests: Int = 256,
        eventLoopCount: Int = 2,
        lingerMilliseconds: Int = 2_000
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxConnections = maxConnections
        self.maxPipelinedRequests = maxPipelinedRequests
        self.eventLoopCount = eventLoopCount
        self.lingerMilliseconds = lingerMilliseconds
    }
}
