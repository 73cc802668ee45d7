import Domain
import Foundation
import Postgres
import PropertyBased
import TestSupport
import Testing

@testable import Gateway

/// An order's `shipping` and `tax_lines` columns read back what was written, as written and after
/// PostgreSQL's `jsonb` wrote them anew (its member order and spacing), for any text and for
/// amounts to the limits of 64 bits; other shapes are refused, never misread.
@Suite("An order's stored shipping and tax lines")
struct StoredOrderColumnsTests {
    private static func shipping(_ seed: Int) -> OrderShipping {
        var random = SplitMix(seed: UInt64(bitPattern: Int64(seed)))
        let address = ShippingAddress(
            recipient: random.text(), phone: random.text(), postalCode: random.text(), country: random.text(),
            region: Bool.random(using: &random) ? random.text() : nil, city: random.text(), line1: random.text(),
            line2: Bool.random(using: &random) ? random.text() : nil)
        return OrderShipping(address: address, methodID: UUID(), methodName: random.text(), carrier: random.text())
    }

    private static func taxLines(_ seed: Int) -> [TaxLine] {
        var random = SplitMix(seed: UInt64(bitPattern: Int64(seed)))
        let yen = Currency("JPY")!
        return (0..<Int.random(in: 0...3, using: &random)).map { _ in
            TaxLine(
                taxClass: TaxClass.allCases.randomElement(using: &random)!, ratePercent: Int.random(in: 0...100, using: &random),
                taxable: Money(amount: Int64.random(in: .min ... .max, using: &random), currency: yen),
                tax: Money(amount: Int64.random(in: .min ... .max, using: &random), currency: yen))
        }
    }

    @Test func readsBackWhatItWrites() async {
        await propertyCheck(count: 300, input: Gen.int()) { seed in
            let shipping = Self.shipping(seed)
            let readShipping = try StoredShipping.shipping(try StoredShipping.json(shipping))
            #expect(readShipping == shipping)
            let lines = Self.taxLines(seed)
            let readLines = try StoredTaxLines.lines(try StoredTaxLines.json(lines), currency: Currency("JPY")!)
            #expect(readLines == lines)
        }
    }

    @Test func readsBackWhatPostgreSQLKeeps() async throws {
        try await TestDatabase.with(migrated: false) { db in
            await propertyCheck(count: 100, input: Gen.int()) { seed in
                let shipping = Self.shipping(seed)
                let lines = Self.taxLines(seed)
                let row = try await db.pool.query(
                    "SELECT $1::jsonb::text AS shipping, $2::jsonb::text AS tax_lines", try StoredShipping.json(shipping),
                    try StoredTaxLines.json(lines)
                ).rows[0]
                let readShipping = try StoredShipping.shipping(try row.decode("shipping"))
                let readLines = try StoredTaxLines.lines(try row.decode("tax_lines"), currency: Currency("JPY")!)
                #expect(readShipping == shipping)
                #expect(readLines == lines)
            }
        }
    }

    /// What SQL wrote rather than `JSONEncoder`: explicit nulls (an account's deletion,
    /// `PostgresCustomerSettingStore`) and Migrations/0020's tax line.
    @Test func readsWhatSQLWrote() async throws {
        try await TestDatabase.with(migrated: false) { db in
            let row = try await db.pool.query(
                """
                SELECT jsonb_build_object('address', jsonb_build_object('recipient', '', 'phone', '', 'postal_code', '',
                           'country', 'JP', 'region', NULL, 'city', '', 'line1', '', 'line2', NULL),
                           'method_id', '00000000-0000-4000-8000-00000000000A', 'method_name', 'm', 'carrier', 'c')::text AS shipping,
                       jsonb_build_array(jsonb_build_object('tax_class', 'standard', 'rate_percent', 10, 'taxable', 1100::bigint,
                           'tax', 100::bigint))::text AS tax_lines
                """
            ).rows[0]
            let shipping = try StoredShipping.shipping(try row.decode("shipping"))
            #expect(shipping.address.region == nil && shipping.address.line2 == nil && shipping.address.country == "JP")
            #expect(shipping.methodID == UUID(uuidString: "00000000-0000-4000-8000-00000000000A"))
            let yen = Currency("JPY")!
            let lines = try StoredTaxLines.lines(try row.decode("tax_lines"), currency: yen)
            #expect(
                lines == [
                    TaxLine(
                        taxClass: .standard, ratePercent: 10, taxable: Money(amount: 1100, currency: yen),
                        tax: Money(amount: 100, currency: yen))
                ])
        }
    }

    @Test func refusesOtherShapes() {
        let valid = try! StoredShipping.json(Self.shipping(1))
        for broken in [
            "", "[]", "{}", valid.replacingOccurrences(of: "\"carrier\"", with: "\"courier\""),
            valid.replacingOccurrences(of: "\"method_id\":\"", with: "\"method_id\":\"x"),
            #"{"address": 1, "method_id": "00000000-0000-4000-8000-000000000001", "method_name": "m", "carrier": "c"}"#,
        ] {
            #expect(throws: PostgresError.self, "\(broken)") { try StoredShipping.shipping(broken) }
        }
        let yen = Currency("JPY")!
        for broken in [
            "", "{}", #"[{"tax_class": "standard", "rate_percent": 10, "taxable": 1.5, "tax": 0}]"#,
            #"[{"tax_class": "luxury", "rate_percent": 10, "taxable": 1, "tax": 0}]"#,
            #"[{"tax_class": "standard", "rate_percent": 10, "taxable": 9223372036854775808, "tax": 0}]"#,
            #"[{"tax_class": "standard", "taxable": 1, "tax": 0}]"#,
        ] {
            #expect(throws: PostgresError.self, "\(broken)") { try StoredTaxLines.lines(broken, currency: yen) }
        }
    }
}
