import Testing

@testable import PubNubLegacy

@Suite struct PNErrorCategoryTests {
    @Test func hasTheTenFourXCategories() {
        #expect(
            PNErrorCategory.allCases == [
                .networkIssues, .timeout, .tlsFailure, .unexpectedDisconnect, .reconnected, .accessDenied,
                .malformedResponse, .decryptionError, .messageCountExceeded, .unknown,
            ]
        )
    }

    @Test(arguments: [
        (102, PNErrorCategory.networkIssues),
        (104, .networkIssues),
        (105, .networkIssues),
        (103, .unexpectedDisconnect),
        (106, .timeout),
        (112, .accessDenied),
        (113, .accessDenied),
        (126, .malformedResponse),
        (127, .malformedResponse),
        (128, .tlsFailure),
        (200, .messageCountExceeded),
        (-1, .unknown),
        (100, .unknown),
        (101, .unknown),
        (107, .unknown),
        (109, .unknown),
        (110, .unknown),
        (111, .unknown),
        (119, .unknown),
        (122, .unknown),
        (125, .unknown),
    ])
    func codesWithoutExplicitCategoryGetTheirDefault(_ code: Int, _ category: PNErrorCategory) {
        #expect(PNError(code: code).category == category)
        #expect(PNErrorCategory.defaultCategory(forCode: code) == category)
    }
}
