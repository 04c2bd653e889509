import Testing

@testable import LocalOrigin

@Suite struct HTTPBytesTests {
    @Test func tokenBytesAreExactlyRFC9110Tchars() {
        let tchars = Set(Array("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8))
        for value in 0...255 {
            let byte = UInt8(value)
            #expect(HTTPBytes.isTokenByte(byte) == tchars.contains(byte), "byte \(value)")
        }
    }

    @Test func targetAndValueBytesExcludeControls() {
        #expect(!HTTPBytes.isTargetByte(0x20))
        #expect(!HTTPBytes.isTargetByte(0x00))
        #expect(!HTTPBytes.isTargetByte(0x7F))
        #expect(HTTPBytes.isTargetByte(UInt8(ascii: "%")))
        #expect(HTTPBytes.isTargetByte(0xC3))
        #expect(HTTPBytes.isFieldValueByte(0x20))
        #expect(HTTPBytes.isFieldValueByte(HTTPBytes.tab))
        #expect(!HTTPBytes.isFieldValueByte(HTTPBytes.cr))
        #expect(!HTTPBytes.isFieldValueByte(0x00))
        #expect(!HTTPBytes.isFieldValueByte(0x7F))
    }

    @Test func headerNamesCompareCaseInsensitively() {
        let name = Array("Content-LENGTH".utf8)
        let other = Array("Content_Length".utf8)
        name.withUnsafeBufferPointer { #expect(HTTPBytes.equalsLowercased($0, Array("content-length".utf8))) }
        other.withUnsafeBufferPointer { #expect(!HTTPBytes.equalsLowercased($0, Array("content-length".utf8))) }
    }

    @Test func tokensAreSplitOnCommasAndTrimmed() {
        let value = Array(" keep-alive ,, \tUpgrade,close ".utf8)
        let tokens = value.withUnsafeBufferPointer { buffer in
            HTTPBytes.tokens(of: buffer).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(tokens == ["keep-alive", "Upgrade", "close"])
    }
}
