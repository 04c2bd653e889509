/// Size, count and time limits the server enforces, and the answers it gives when one is exceeded.
///
/// Every rejection is a JSON error answer (`{"status":…,"error":true,"message":…,"service":"Balancer"}`) after which
/// the connection is closed; other connections are not affected.
///
/// The defaults are what a public origin uses. The timeouts follow the common web servers: Apache's
/// `mod_reqtimeout` gives a request header 20 s and a body 20 s, nginx keeps an idle keep-alive connection 75 s and
/// gives up on a client that reads nothing for 60 s (`send_timeout`). PubNub clients write a whole request at once
/// and give up on an answer after 10 s themselves, so only a broken or hostile client comes near them. A timeout of
/// 0 or less is off.
public struct HTTPServerLimits: Sendable, Equatable {
    /// Longest request line (method, target and version, without the line end) in bytes. Longer → 414, sent as
    /// soon as the limit is passed, without waiting for the line end.
    public var maxRequestLineBytes: Int
    /// Largest header block (every header line with its line end, plus the empty line) in bytes. Larger → 431.
    public var maxHeaderBytes: Int
    /// Largest request body in bytes. A `Content-Length` above it → 413, sent when the header is read, before any
    /// body byte arrives.
    public var maxBodyBytes: Int
    /// Most connections open at once. A connection accepted at the limit first takes the place of the connection
    /// that has been idle longest (a keep-alive connection waiting for its next request, as nginx reclaims them);
    /// when none is idle it is refused: answered 503 `{"status":503,"error":true,"message":"Too Many
    /// Connections","service":"Balancer"}` and closed. Connections with a request in progress or parked (long-polls)
    /// are never closed to make room. At most 64 refusals are in progress at once; past that, connections are closed
    /// at once without an answer.
    public var maxConnections: Int
    /// Requests parsed on one connection but not yet answered at which the server stops reading that connection
    /// until answers are written (bounds the memory a pipelining client can make the server hold).
    public var maxPipelinedRequests: Int
    /// Answer bytes held for one connection (written by the handler but not yet taken by the socket) at which the
    /// server stops handing that connection's next request to the handler, and stops reading it, until they drain
    /// below it. Bounds what a client that pipelines requests and reads nothing makes the server produce: one answer
    /// past this bound, not one per request.
    public var maxBufferedOutputBytes: Int
    /// Most time, in milliseconds, from the first byte of a request to the end of its header block. Past it the
    /// request is answered 408 and the connection closed, however steadily the bytes trickle in (a slowloris client).
    public var headerTimeoutMilliseconds: Int
    /// Most time, in milliseconds, from the end of a request's header block to its last body byte. Past it the
    /// request is answered 408 and the connection closed (a body shorter than its `Content-Length`).
    public var bodyTimeoutMilliseconds: Int
    /// How long, in milliseconds, a keep-alive connection may wait for its next request: no request in progress or
    /// parked, no answer waiting to be written. Past it the connection is closed without an answer. A parked
    /// long-poll is not idle.
    public var idleTimeoutMilliseconds: Int
    /// How long, in milliseconds, answers may wait while the client takes none of their bytes. Past it the
    /// connection is closed (the client is not reading).
    public var sendTimeoutMilliseconds: Int
    /// Event-loop threads that serve connections (plus one thread that accepts). At least 1.
    public var eventLoopCount: Int
    /// How long, in milliseconds, a connection the server closes after an answer keeps being drained before it is
    /// closed for good. Draining the client's unread bytes lets the kernel end with FIN instead of RST, so the
    /// client reliably reads the last answer.
    public var lingerMilliseconds: Int

    /// Creates limits; every default is the value a public origin uses (see the type's description).
    public init(
        maxRequestLineBytes: Int = 40_960,
        maxHeaderBytes: Int = 32_768,
        maxBodyBytes: Int = 1_048_576,
        maxConnections: Int = 10_000,
        maxPipelinedRequests: Int = 256,
        maxBufferedOutputBytes: Int = 1_048_576,
        headerTimeoutMilliseconds: Int = 20_000,
        bodyTimeoutMilliseconds: Int = 20_000,
        idleTimeoutMilliseconds: Int = 75_000,
        sendTimeoutMilliseconds: Int = 60_000,
        eventLoopCount: Int = 2,
        lingerMilliseconds: Int = 2_000
    ) {
        self.maxRequestLineBytes = maxRequestLineBytes
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxConnections = maxConnections
        self.maxPipelinedRequests = maxPipelinedRequests
        self.maxBufferedOutputBytes = maxBufferedOutputBytes
        self.headerTimeoutMilliseconds = headerTimeoutMilliseconds
        self.bodyTimeoutMilliseconds = bodyTimeoutMilliseconds
        self.idleTimeoutMilliseconds = idleTimeoutMilliseconds
        self.sendTimeoutMilliseconds = sendTimeoutMilliseconds
        self.eventLoopCount = eventLoopCount
        self.lingerMilliseconds = lingerMilliseconds
    }

    /// `milliseconds` as nanoseconds, or nil when the timeout is off.
    static func nanoseconds(_ milliseconds: Int) -> UInt64? {
        milliseconds > 0 ? UInt64(milliseconds) * 1_000_000 : nil
    }
}
