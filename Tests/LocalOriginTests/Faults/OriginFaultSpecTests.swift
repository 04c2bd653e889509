import Testing

@testable import LocalOrigin

// The text grammar of `--fault SPEC` and the `fault` control command: every kind and scope form, round trips
// through `description`, and the errors of text outside the grammar.

@Suite struct OriginFaultSpecTests {
    @Test(arguments: [
        ("refuse", OriginFault.refuseConnections(dropExisting: false)),
        ("refuse-drop", .refuseConnections(dropExisting: true)),
        ("never", .neverAnswer),
        ("delay=2.5", .delay(2.5)),
        ("delay=3", .delay(3)),
        ("cut=status", .closeMidResponse(.statusLine)),
        ("cut=headers", .closeMidResponse(.headers)),
        ("cut=body", .closeMidResponse(.body)),
        ("500", .serverError(status: 500)),
        ("502", .serverError(status: 502)),
        ("503", .serverError(status: 503)),
        ("504", .serverError(status: 504)),
        ("403", .accessDenied),
        ("malformed", .malformedJSON),
        ("non-utf8", .nonUTF8),
        ("html", .htmlPage),
        ("stall", .stallSubscribe(nil)),
        ("stall=15", .stallSubscribe(15)),
    ])
    func everyKindParsesAndPrintsBackTheSame(text: String, fault: OriginFault) throws {
        let spec = try OriginFaultSpec(parsing: text)
        #expect(spec == OriginFaultSpec(fault: fault))
        #expect(spec.description == text)
        #expect(fault.description == text)
    }

    @Test func scopesAndCountsParseInAnyOrder() throws {
        let spec = try OriginFaultSpec(parsing: "  503   count=2 subscribe,time ")
        #expect(spec.fault == .serverError(status: 503))
        #expect(spec.scope == .operations([.subscribe, .time]))
        #expect(spec.count == 2)
        #expect(spec.description == "503 subscribe,time count=2")
        #expect(try OriginFaultSpec(parsing: spec.description) == spec)

        let path = try OriginFaultSpec(parsing: "delay=1 path=/v2/presence/")
        #expect(path.scope == .pathPrefix("/v2/presence/"))
        #expect(path.description == "delay=1 path=/v2/presence/")
        #expect(try OriginFaultSpec(parsing: "html all").scope == .all)
        #expect(try OriginFaultSpec(parsing: "html all").description == "html")
        let every = OriginOperation.allCases.map(\.rawValue).joined(separator: ",")
        #expect(try OriginFaultSpec(parsing: "never \(every)").scope == .operations(Set(OriginOperation.allCases)))
    }

    @Test(arguments: [
        "", "teapot", "418", "5000", "delay", "delay=soon", "cut", "cut=middle", "refuse=1", "503 subscribe time",
        "503 count=two", "503 count=1 count=2", "503 subscribe,", "503 publish,nothing", "503 path=",
    ])
    func textOutsideTheGrammarIsASyntaxError(text: String) {
        #expect {
            try OriginFaultSpec(parsing: text)
        } throws: { error in
            guard case .syntax = error as? OriginFaultError else { return false }
            return true
        }
    }

    @Test(arguments: [
        "600", "999", "delay=-1", "delay=nan", "stall=1e9", "503 count=0", "refuse subscribe", "refuse count=1",
    ])
    func valuesTheOriginRejectsAreInvalidFaults(text: String) {
        #expect {
            try OriginFaultSpec(parsing: text)
        } throws: { error in
            guard case .invalidFault = error as? OriginFaultError else { return false }
            return true
        }
    }
}
