// The contract between the socket layer (`HTTPServer`) and whatever answers requests (the PubNub origin, tests).
// The server parses bytes into `HTTPRequest`s and hands each to an `HTTPHandler` together with an
// `HTTPResponseSink`; the handler answers through the sink exactly once, now or later (long-polls park the sink).

/// One parsed HTTP/1.1 request. The request-target is kept raw (undecoded): PubNub paths must be split before
/// they are percent-decoded (docs/PROTOCOL.md §1.5).
public struct HTTPRequest: Sendable {
    /// The method token as sent, e.g. `GET`.
    public var method: String
    /// The raw request-target, e.g. `/time/0?uuid=a`, never percent-decoded. Raw non-ASCII bytes that form UTF-8
    /// are kept as sent; each byte of a sequence that is not UTF-8 is written as `%XX` (percent-decoding the target
    /// gives back exactly the bytes sent, so such input can be recognised and refused).
    public var target: String
    /// The protocol version as sent, e.g. `HTTP/1.1`.
    public var version: String
    /// Header fields in arrival order; names keep their case. A parsed request makes them from the received bytes
    /// when they are first read (the PubNub origin reads none).
    public var headers: [(name: String, value: String)] {
        get {
            switch self.headerFields {
            case .made(let headers): return headers
            case .received(let received): return received.decoded
            }
        }
        set { self.headerFields = .made(newValue) }
    }
    /// The body (`Content-Length` bytes); empty when there is none.
    public var body: [UInt8]
    private var headerFields: HeaderFields

    private enum HeaderFields: Sendable {
        case made([(name: String, value: String)])
        case received(ReceivedHeaders)
    }

    /// Creates a request; used by the parser and by tests that call a handler directly.
    public init(
        method: String,
        target: String,
        version: String = "HTTP/1.1",
        headers: [(name: String, value: String)] = [],
        body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headerFields = .made(headers)
        self.body = body
    }

    /// A parsed request, its header fields still bytes.
    init(method: String, target: String, version: String, receivedHeaders: ReceivedHeaders, body: [UInt8]) {
        self.method = method
        self.target = target
        self.version = version
        self.headerFields = .received(receivedHeaders)
        self.body = body
    }

    /// The value of the first header named `name`, compared case-insensitively; `nil` when absent.
    public func header(_ name: String) -> String? {
        let wanted = name.lowercased()
        return self.headers.first { $0.name.lowercased() == wanted }?.value
    }
}

/// A request's header lines as received: the bytes of its header block and where each name and value is in them.
struct ReceivedHeaders: Sendable {
    let bytes: [UInt8]
    let fields: [(name: Range<Int>, value: Range<Int>)]

    /// The fields as text (bytes that are not UTF-8 become U+FFFD).
    var decoded: [(name: String, value: String)] {
        self.fields.map {
            (
                String(decoding: self.bytes[$0.name], as: UTF8.self),
                String(decoding: self.bytes[$0.value], as: UTF8.self)
            )
        }
    }
}

/// One HTTP/1.1 response. The server adds `Content-Length` and `Connection` itself.
public struct HTTPResponse: Sendable {
    /// The status code, e.g. 200.
    public var status: Int
    /// Extra header fields, written in this order after the status line.
    public var headers: [(name: String, value: String)]
    /// The body; PubNub answers are never empty (docs/PROTOCOL.md §1.2).
    public var body: [UInt8]

    /// Creates a response with `status`, `headers` and `body`.
    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The standard reason phrase for `status` (`OK`, `Bad Request`, …), `Unknown` for codes it does not name.
    public var reason: String { HTTPResponse.reasonPhrase(for: self.status) }

    /// The standard reason phrase for a status code.
    public static func reasonPhrase(for status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 411: return "Length Required"
        case 413: return "Payload Too Large"
        case 414: return "URI Too Long"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 502: return "Bad Gateway"
        case 503: return "Service Unavailable"
        case 504: return "Gateway Timeout"
        case 505: return "HTTP Version Not Supported"
        default: return "Unknown"
        }
    }
}

/// Where a handler sends its answer to one request. Every method may be called from any thread.
///
/// Exactly one of `respond`, `respondRaw` or `close` takes effect; later calls are ignored. Answers to pipelined
/// requests on one connection are written in request order, whatever order the handler answers them in.
public protocol HTTPResponseSink: AnyObject, Sendable {
    /// Writes `response` (the server adds `Content-Length` and `Connection: keep-alive`).
    func respond(_ response: HTTPResponse)
    /// Writes `bytes` exactly as given, then closes the connection when `thenClose` is true. For fault injection.
    func respondRaw(_ bytes: [UInt8], thenClose: Bool)
    /// Closes the connection without answering. For fault injection.
    func close()
    /// True once the connection is gone (the peer closed it, the server stopped, or `close` was called).
    var isClosed: Bool { get }
    /// Registers `handler` to run once, on a server thread, when the connection closes before this request is
    /// answered; runs at once if it is already closed. Long-polls use it to drop a parked request.
    func onClose(_ handler: @escaping @Sendable () -> Void)
}

/// Answers requests. Called on a server thread; must not block (park the sink instead).
public protocol HTTPHandler: Sendable {
    /// Handles `request`, answering through `sink` exactly once, now or later.
    func handle(_ request: HTTPRequest, sink: any HTTPResponseSink)
}
