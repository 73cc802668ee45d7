import Domain
import Foundation

/// `{"amount": 1200, "currency": "JPY"}`: minor units and the ISO code.
public struct MoneyModel: Codable, Hashable, Sendable, JSONWritable {
    public let amount: Int64
    public let currency: String

    public init(_ money: Money) {
        self.amount = money.amount
        self.currency = money.currency.code
    }

    public func writeJSON(to writer: inout JSONWriter) throws {
        writer.beginObject()
        try writer.member("amount", amount)
        try writer.member("currency", currency)
        writer.endObject()
    }
}

/// Timestamps in responses: RFC 3339 in UTC with milliseconds, `2026-11-22T20:40:49.123Z`.
public enum Timestamp {
    private static let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    public static func rfc3339(_ date: Date) -> String { date.formatted(style) }
}

/// `{"data": [...], "next_cursor": "..." | null}`: the shape of every paged list. `next_cursor`
/// is written even when null, so clients can test for it without guessing.
public struct PageModel<Element: Encodable & Sendable>: Encodable, Sendable {
    public let data: [Element]
    public let nextCursor: String?

    public init(data: [Element], nextCursor: String?) {
        self.data = data
        self.nextCursor = nextCursor
    }

    enum CodingKeys: String, CodingKey {
        case data
        case nextCursor = "next_cursor"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(data, forKey: .data)
        try container.encode(nextCursor, forKey: .nextCursor)
    }
}

extension PageModel: JSONWritable where Element: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) throws {
        writer.beginObject()
        try writer.member("data", data)
        try writer.member("next_cursor", nextCursor)
        writer.endObject()
    }
}

/// Read back by the HTTP tests, which decode answers into the models the service writes.
extension PageModel: Decodable where Element: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            data: try container.decode([Element].self, forKey: .data),
            nextCursor: try container.decodeIfPresent(String.self, forKey: .nextCursor))
    }
}
