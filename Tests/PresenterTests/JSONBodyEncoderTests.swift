import Domain
import Foundation
import Presenter
import Testing
import Translator

/// `JSONBodyEncoder` writes exactly what `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` writes, which the service answered with before it.
@Suite("JSON body encoder")
struct JSONBodyEncoderTests {
    static let foundation: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    /// Ours equals Foundation's, on the path `encode` takes (a model's own `writeJSON` when it
    /// has one) and through `Encodable`'s tree alike.
    func expectSameBytes(_ value: some Encodable, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let theirs = try Self.foundation.encode(value)
        for ours in [try JSONBodyEncoder.encode(value), try JSONBodyEncoder.encodeThroughTree(value)] {
            #expect(
                ours == theirs, "\(String(decoding: ours, as: UTF8.self)) != \(String(decoding: theirs, as: UTF8.self))",
                sourceLocation: sourceLocation)
        }
    }

    @Test func everyKindOfValueAndContainer() throws {
        try expectSameBytes(Everything())
    }

    @Test(arguments: [
        "", "plain", "quote \" backslash \\ slash /", "\n\r\t\u{8}\u{c}", "\u{0}\u{1}\u{1f}\u{7f}", "é ü 日本 😀 \u{2028}",
        "mid\u{0}dle", String(repeating: "long text ", count: 200),
    ])
    func strings(_ text: String) throws {
        try expectSameBytes(text)
        try expectSameBytes([text: text])
    }

    @Test(arguments: [
        0.0, -0.0, 4.0, 4.5, 1.0 / 3.0, 0.1, 100.0, 1e-7, 1e16, 1e21, 1.2345678901234568e20, .leastNonzeroMagnitude,
        .greatestFiniteMagnitude,
        -273.15,
    ])
    func doubles(_ value: Double) throws {
        try expectSameBytes([value])
        try expectSameBytes(Float(value).isFinite ? [Float(value)] : [])
    }

    @Test func keysSortLikeSortedKeys() throws {
        try expectSameBytes(["b": 1, "a": 2, "B": 3, "_x": 4, "a_b": 5, "ab": 6, "10": 7, "9": 8, "é": 9, "Z": 10, "": 11])
        try expectSameBytes([3: "c", 1: "a", 20: "t"])
    }

    @Test func theServicesModels() throws {
        let createdAt = Date(timeIntervalSince1970: 1_795_347_649.5)
        let item = Item(
            id: UUID(uuidString: "6F1C3C1E-8A55-4D39-9F3B-0C9D0A6B2E11")!, sku: "MUG-1", name: "Mug \"Classic\"",
            description: "A mug\nfor tea/coffee", category: "kitchen", taxClass: .standard,
            price: Money(amount: 1200, currency: Currency("JPY")!),
            stock: 3, createdAt: createdAt, reviewCount: 3, ratingAverage: 4.67,
            options: [ItemOption(name: "colour", values: ["navy", "白"])],
            variants: [
                Variant(
                    id: UUID(), sku: "MUG-1-W", options: [.init(name: "colour", value: "白")],
                    price: Money(amount: 1200, currency: Currency("JPY")!), stock: 3)
            ], images: [ItemImage(id: UUID(), url: nil, alt: "\"白\"", variantID: UUID(), position: 0)], thumbnailURL: nil, archivedAt: nil)
        try expectSameBytes(CatalogTranslator.model(item))
        try expectSameBytes(PageModel(data: [item, item].map(CatalogTranslator.model), nextCursor: nil))
        let review = Review(
            id: UUID(), itemID: item.id, customerID: UUID(), content: "Sturdy", rating: 5, photos: [], createdAt: createdAt)
        try expectSameBytes(ReviewTranslator.model(review))
        try expectSameBytes(ReviewTranslator.model(RatingSummary(histogram: [5: 2, 3: 1, 1: 7])))
    }

    @Test func problemsAreTheBytesFoundationWrote() throws {
        let presentation = Problem.make(
            409, "out-of-stock", "Out of stock", detail: "Only 2 left.", errors: [FieldError("quantity", "is too large")],
            extensions: ["available": .int(2), "lines": .strings(["a", "b"])])
        let body = try #require(presentation.body)
        #expect(
            String(decoding: body, as: UTF8.self)
                == #"{"available":2,"detail":"Only 2 left.","errors":[{"field":"quantity","message":"is too large"}],"#
                + #""lines":["a","b"],"status":409,"title":"Out of stock","type":"/problems/out-of-stock"}"#)
    }

    @Test func nonFiniteNumbersAreRefusedWithTheirPath() throws {
        let error = try #require(throws: EncodingError.self) { try JSONBodyEncoder.encode(["ratings": [1.5, .nan]]) }
        guard case .invalidValue(_, let context) = error else { Issue.record("\(error)"); return }
        #expect(context.codingPath.map(\.stringValue) == ["ratings", "Index 1"])
        #expect(throws: EncodingError.self) { try JSONBodyEncoder.encode([Float.infinity]) }
    }

    @Test func typesFoundationWritesItsOwnWayAreRefused() {
        #expect(throws: EncodingError.self) { try JSONBodyEncoder.encode(["photo": Data([1, 2])]) }
        #expect(throws: EncodingError.self) { try JSONBodyEncoder.encode([URL(string: "https://example.com")!]) }
        #expect(throws: EncodingError.self) { try JSONBodyEncoder.encode([Decimal(1)]) }
    }
}

/// Every container and method a model may use, with values that need care.
private struct Everything: Encodable {
    enum Key: String, CodingKey {
        case text, flag, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, double, float
        case missing, null, present, nested, list, object, superValue, empty, emptyList, optionalList, z, a
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode("tab\there", forKey: .text)
        try container.encode(true, forKey: .flag)
        try container.encode(Int.min, forKey: .int)
        try container.encode(Int8.min, forKey: .int8)
        try container.encode(Int16.max, forKey: .int16)
        try container.encode(Int32.min, forKey: .int32)
        try container.encode(Int64.max, forKey: .int64)
        try container.encode(UInt.max, forKey: .uint)
        try container.encode(UInt8.max, forKey: .uint8)
        try container.encode(UInt16.max, forKey: .uint16)
        try container.encode(UInt32.max, forKey: .uint32)
        try container.encode(UInt64.max, forKey: .uint64)
        try container.encode(2.5, forKey: .double)
        try container.encode(Float(0.1), forKey: .float)
        try container.encodeIfPresent(nil as Int?, forKey: .missing)
        try container.encode(nil as String?, forKey: .null)
        try container.encodeIfPresent(7 as Int?, forKey: .present)
        try container.encode(Optional(Optional(1.5)), forKey: .z)
        try container.encode([[1, 2], [], [3]], forKey: .a)
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: .nested)
        try nested.encode(false, forKey: .flag)
        try nested.encodeNil(forKey: .null)
        var list = container.nestedUnkeyedContainer(forKey: .list)
        try list.encode("x")
        try list.encode(1)
        try list.encodeNil()
        try list.encode(Double(3))
        try list.encode(Int8(-1))
        try list.encode(["k": "v"])
        var inner = list.nestedContainer(keyedBy: Key.self)
        try inner.encode("in", forKey: .text)
        var innerList = list.nestedUnkeyedContainer()
        try innerList.encode(UInt16(9))
        try container.encode(["b": [1], "a": [2, 3]], forKey: .object)
        try container.encode([String: Int](), forKey: .empty)
        try container.encode([String](), forKey: .emptyList)
        try container.encode([nil, "s"] as [String?], forKey: .optionalList)
        var superValue = container.superEncoder(forKey: .superValue).singleValueContainer()
        try superValue.encode("from super")
        var superObject = container.superEncoder().container(keyedBy: Key.self)
        try superObject.encode(1, forKey: .int)
    }
}
