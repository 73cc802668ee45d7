import Foundation

extension UUID {
    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// `uuidString.lowercased()`, the form every answer carries, without Foundation's formatting
    /// (a `snprintf` per id) and the lowercasing copy: a page of 20 items writes some 200 ids.
    public var lowercasedText: String {
        String(unsafeUninitializedCapacity: 36) { text in
            withUnsafeBytes(of: uuid) { bytes in
                var position = 0
                for (index, byte) in bytes.enumerated() {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        text[position] = UInt8(ascii: "-")
                        position += 1
                    }
                    text[position] = Self.hexDigits[Int(byte >> 4)]
                    text[position + 1] = Self.hexDigits[Int(byte & 0x0F)]
                    position += 2
                }
            }
            return 36
        }
    }

    /// What `UUID(uuidString:)` accepts (36 characters, hex digits of either case, dashes after
    /// the 8th, 12th, 16th and 20th digit), read without `sscanf`; `nil` for anything else.
    public init?(text: String) {
        var text = text
        let parsed: uuid_t? = text.withUTF8 { utf8 in
            guard utf8.count == 36 else { return nil }
            var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            let complete = withUnsafeMutableBytes(of: &value) { bytes -> Bool in
                var position = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        guard utf8[position] == UInt8(ascii: "-") else { return false }
                        position += 1
                    }
                    guard let high = Self.hexValue(utf8[position]), let low = Self.hexValue(utf8[position + 1]) else { return false }
                    bytes[index] = high << 4 | low
                    position += 2
                }
                return true
            }
            return complete ? value : nil
        }
        guard let parsed else { return nil }
        self.init(uuid: parsed)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
