// One request-shaped operation described as data (docs/BEHAVIOR.md §1.2, §4): what it sends, how it reads the
// answer, what it reports on success and on failure, and whether it may be re-sent. `ClientEngine.run(_:)` executes
// every descriptor the same way: submit in call order → preflight → request → parse → one outcome, reported once.

/// One event and the user-block call that follows it on the delivery queue.
struct Emission {
    let event: ClientEvent
    let completion: DeliveryBlock?

    init(_ event: ClientEvent, completion: DeliveryBlock? = nil) {
        self.event = event
        self.completion = completion
    }
}

/// How a request operation goes on once its preflight ran.
enum RequestStart<Value> {
    /// Sends `endpoint`; `announcing` (a publish's `willSendMessage`) is emitted just before. `draft`: a publish's
    /// escaped channel and message, made by its preflight (`PublishDraft`).
    case send(Endpoint, announcing: Emission?, draft: PublishDraft? = nil)
    /// Fails without a request: a build, validation or pre-flight error (docs/API-3.4.md §3.3).
    case fail(PNError)
    /// Succeeds without a request: there is nothing to change.
    case succeed(Value)
}

/// A request-shaped operation (time, publish, history, here-now, push): everything `ClientEngine.run(_:)` needs to
/// execute it. The closures run on the client queue.
struct RequestOperation<Value> {
    /// The operation's name, for logs.
    var name: String
    /// Whether the request may be re-sent after a malformed answer or a connection that failed without an answer
    /// (3 attempts in total). Publishes and push changes are not: the origin may have applied one whose answer was
    /// lost (docs/BEHAVIOR.md §4.3).
    var idempotent: Bool
    /// Whether it may be written on the pipelined lane and release the operation lock before its answer arrives
    /// (publishes, with `publishPipelineDepth` above 1).
    var pipelinable = false
    /// The message of the timeout error (code `kPNRequestExecutionFailedByTimeoutError`).
    var timeoutMessage: String
    /// The object a response error carries (a channel, a message, a channel list).
    var associatedObject: Any?
    /// Runs when the operation starts (not when it is called): its checks in order, then what to send.
    var preflight: () -> RequestStart<Value>
    /// Reads the origin's answer.
    var parse: (TransportResponse) -> Result<Value, ResponseFailure>
    /// What a success emits, in order; the block belongs to the first (or the only) emission.
    var succeeded: (Value) -> [Emission]
    /// What a failure emits: one failure event and its block.
    var failed: (PNError) -> Emission
}
