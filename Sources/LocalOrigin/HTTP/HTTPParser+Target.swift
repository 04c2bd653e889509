// How the parser turns a request-target's raw bytes into the text the handler sees.

extension HTTPParser {
    /// The request-target as text without losing a byte: raw UTF-8 stays as sent, and every byte of a sequence that
    /// is not UTF-8 is written as `%XX`, which percent-decodes back to that byte (so the handler sees it and can
    /// refuse it, instead of a U+FFFD that two different byte sequences would share).
    static func targetString(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if bytes.allSatisfy({ $0 < 0x80 }) || String(validating: bytes, as: UTF8.self) != nil {
            return String(decoding: bytes, as: UTF8.self)
        }
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 3)
        var position = 0
        var iterator = bytes.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                out.append(contentsOf: encoded)
                position += encoded.count
            case .error(let length):
                for byte in bytes[position..<(position + length)] {
                    out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]]
                }
                position += length
            case .emptyInput:
                return String(decoding: out, as: UTF8.self)
            }
        }
    }
}
