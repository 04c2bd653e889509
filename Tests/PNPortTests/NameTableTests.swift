import Testing

@testable import PNPort

/// The name table generated from MIGRATION.md holds the 3.4 API as docs/API-3.4.md counts it, and every section
/// the assistant cites exists.
@Suite struct NameTableTests {
    let table = NameTable.migration

    private func threeFour(_ kind: APIName.Kind, in container: String, classSide: Bool? = nil) -> Set<String> {
        Set(
            self.table.names.filter {
                $0.kind == kind && $0.container == container && !$0.isAddition
                    && (classSide == nil || $0.isClassSide == classSide)
            }.map(\.objcName)
        )
    }

    /// docs/API-3.4.md's counts: `PubNub` 70 methods (69 class, 1 instance), `PNObservationCenter` 31,
    /// `PNDelegate` 39, 34 notifications, 30 error codes, 17 block types, 9 `PNConfiguration` constructors.
    @Test func theTableHoldsThe34APIAsTheReferenceCountsIt() {
        // `clientIdentifier` is listed twice: the method, and the protected header's property of the same name.
        #expect(self.threeFour(.method, in: "PubNub", classSide: true).count == 69)
        #expect(self.threeFour(.method, in: "PubNub", classSide: false) == ["isConnected"])
        #expect(self.threeFour(.method, in: "PNObservationCenter").count == 31)
        #expect(self.threeFour(.method, in: "PNDelegate").count == 39)
        #expect(self.threeFour(.notification, in: "-").count == 34)
        let codes = self.table.names.filter { $0.kind == .constant && $0.declaration.type == "Int" && !$0.isAddition }
        #expect(codes.count == 30)
        #expect(self.threeFour(.blockType, in: "-").count == 17)
        #expect(self.threeFour(.method, in: "PNConfiguration").count == 9)
    }

    @Test func selectorsAndTheirSwiftNamesFollowTheRule() throws {
        let send = try #require(
            self.table.method("sendMessage:toChannel:withCompletionBlock:", of: "PubNub", classSide: true)
        )
        #expect(send.declaration.swiftName == "sendMessage(_:toChannel:withCompletionBlock:)")
        #expect(send.declaration.objcSelector == "sendMessage:toChannel:withCompletionBlock:")
        let initializer = try #require(
            self.table.members(
                of: "PNConfiguration",
                named: "initWithOrigin:publishKey:subscribeKey:secretKey:cipherKey:"
            )
            .first
        )
        #expect(initializer.declaration.kind == .initializer)
        #expect(initializer.declaration.swiftName == "init(origin:publishKey:subscribeKey:secretKey:cipherKey:)")
        // A PubNub instance has the class methods too (MIGRATION.md §2); sharedInstance stays a class method.
        #expect(self.table.method("connect", of: "PubNub", classSide: false) != nil)
        #expect(self.table.method("sharedInstance", of: "PubNub", classSide: false) == nil)
        // PNChannelPresence inherits PNChannel's members.
        #expect(self.table.property("name", of: "PNChannelPresence") != nil)
    }

    @Test func delegateShapesAreListedCanonicalFirst() {
        let shapes = self.table.delegateMethods("pubnubClient:didFailMessageSend:withError:").map(\.declaration.text)
        #expect(shapes.count == 4)
        #expect(
            shapes.first == "func pubnubClient(_ client: PubNub, didFailMessageSend: PNMessage?, withError: PNError)"
        )
        #expect(self.table.delegateMethods("shouldResubscribeOnConnectionRestore").count == 2)
    }

    @Test func namesOfEnumsConstantsAndUnavailableMembersAreKnown() {
        #expect(self.table.enumType(ofConstant: "PNSubscriptionProcessSubscribedState") == "PNSubscriptionProcessState")
        #expect(self.table.enumType(ofConstant: "PNLogGeneralLevel") == "PNLogLevels")
        #expect(self.table.global("kPNOriginHost")?.kind == .configurationDefault)
        #expect(self.table.global("PNLOG_GENERAL_LOGGING_ENABLED")?.kind == .logSwitch)
        #expect(self.table.global("PNLog")?.kind == .function)
        #expect(self.table.unavailableName("setName:") != nil)
        #expect(self.table.unavailableName("launchSessionIdentifier") != nil)
    }

    @Test func everyEditCitesASectionMIGRATIONHas() {
        for kind in Edit.Kind.allCases {
            #expect(
                self.table.section(titled: kind.sectionTitle) != nil,
                "\(kind): no section titled \(kind.sectionTitle)"
            )
        }
        #expect(self.table.cite("10") == "MIGRATION.md §10 (Porting a real app)")
    }

    @Test func aTableReadFromTextParsesItsRows() {
        let table = NameTable(
            sections: "2 ‖ The naming rule",
            rows: """
                9 ‖ PubNub ‖ +connect ‖ PubNub::static func connect()
                9 ‖ PubNub ‖ -setName: ‖  ‖ Not available: because.
                9 ‖ Enums ‖ PNMessageSent ‖ PNMessageState::case PNMessageSent ¦ -::let PNMessageSent: PNMessageState
                """
        )
        #expect(table.method("connect", of: "PubNub", classSide: true)?.declaration.swiftName == "connect()")
        #expect(table.unavailableName("setName:")?.note == "Not available: because.")
        #expect(table.enumType(ofConstant: "PNMessageSent") == "PNMessageState")
        #expect(table.global("PNMessageSent")?.kind == .enumConstant)
        #expect(table.section(titled: "The naming") == "2")
    }
}
