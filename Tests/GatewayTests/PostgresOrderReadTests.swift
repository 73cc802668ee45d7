import Domain
import Foundation
import Postgres
import PropertyBased
import TestSupport
import Testing

@testable import Gateway

/// An order is read in one statement, its lines, refunds, shipments and events aggregated into
/// JSON beside it (`OrderAggregates`). Random orders written straight into the tables (any text,
/// amounts to the column's limits, instants from year 1000 to 9999 to the microsecond) read back
/// as written: the strings and numbers as generated, the instants as the plain columns give them.
@Suite("An order read back in one statement on real PostgreSQL")
struct PostgresOrderReadTests {
    @Test func readsBackLinesRefundsShipmentsAndEventsAsWritten() async throws {
        try await TestDatabase.with { db in
            let customer = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'reader@example.com', 'R', 'h')", customer)
            let yen = Currency("JPY")!
            let variants = (0..<4).map { index in
                VariantDraft(
                    id: UUID(), sku: "V\(index)", options: [.init(name: "n", value: "\(index)")], price: Money(amount: 1, currency: yen),
                    stock: 1)
            }
            _ = try await PostgresItemStore(database: db.pool).create(
                id: UUID(),
                draft: ItemDraft(
                    sku: "ITEM", name: "Item", description: "", category: "c",
                    options: [ItemOption(name: "n", values: ["0", "1", "2", "3"])],
                    variants: variants),
                createdAt: Date())
            let store = PostgresOrderStore(database: db.pool, currency: yen)

            await propertyCheck(count: 60, input: Gen.int()) { seed in
                var random = SplitMix(seed: UInt64(bitPattern: Int64(seed)))
                let written = try await Self.writeOrder(
                    customer: customer, variants: variants.map(\.id).shuffled(using: &random), on: db.pool, &random)
                let read = try #require(try await store.order(id: written.id, customerID: customer))
                #expect(read.lines == written.lines)
                #expect(read.refunds == (try await Self.refunds(of: written.id, on: db.pool)))
                #expect(read.shipments == (try await Self.shipments(of: written.id, on: db.pool)))
                #expect(read.shipments.map(\.lines) == written.shipmentLines)
                #expect(read.events == (try await Self.events(of: written.id, on: db.pool)))
                #expect(read.events.count == written.eventCount + 1, "the trigger's placed event and the written ones")
            }
        }
    }

    /// A page of orders reads each order's own aggregates (seed 7 writes orders with and without lines).
    @Test func aPageKeepsEachOrdersOwnAggregates() async throws {
        try await TestDatabase.with { db in
            let customer = UUID()
            try await db.pool.query(
                "INSERT INTO customers (id, email, name, password_hash) VALUES ($1, 'page@example.com', 'P', 'h')", customer)
            let variant = VariantDraft(
                id: UUID(), sku: "V", options: [], price: Money(amount: 1, currency: Currency("JPY")!), stock: 1)
            _ = try await PostgresItemStore(database: db.pool).create(
                id: UUID(),
                draft: ItemDraft(sku: "I", name: "I", description: "", category: "c", options: [], variants: [variant]),
                createdAt: Date())
            var random = SplitMix(seed: 7)
            var written: [UUID: [OrderLine]] = [:]
            for _ in 0..<5 {
                let order = try await Self.writeOrder(customer: customer, variants: [variant.id], on: db.pool, &random)
                written[order.id] = order.lines
            }
            let page = try await PostgresOrderStore(database: db.pool, currency: Currency("JPY")!).orders(
                customerID: customer, progress: nil, after: nil, limit: 10)
            #expect(page.count == 5)
            #expect(Set(page.map(\.id)) == Set(written.keys))
            #expect(written.values.contains { $0.isEmpty } && written.values.contains { !$0.isEmpty }, "seed 7 writes both kinds")
            for order in page { #expect(order.lines == written[order.id]) }
        }
    }

    private struct WrittenOrder {
        let id: UUID
        let lines: [OrderLine]
        let shipmentLines: [[ShipmentLine]]
        let eventCount: Int
    }

    private static func writeOrder(customer: UUID, variants: [UUID], on pool: PostgresPool, _ random: inout SplitMix) async throws
        -> WrittenOrder
    {
        let id = UUID()
        try await pool.query(
            """
            INSERT INTO orders (id, customer_id, status, total_amount, total_currency, payment_method, idempotency_key,
                                request_fingerprint, created_at, updated_at)
            VALUES ($1, $2, 'paid', 0, 'JPY', 'pm_card_visa', $3, 'f', now(), now())
            """, id, customer, id.lowercasedText)
        var lines: [OrderLine] = []
        for variant in variants.prefix(Int.random(in: 0...variants.count, using: &random)) {
            let options = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                VariantOption(name: random.text(), value: random.text())
            }
            let line = OrderLine(
                itemID: UUID(), variantID: variant, sku: random.text(), name: random.text(), options: options,
                taxClass: TaxClass.allCases.randomElement(using: &random)!,
                unitPrice: Money(
                    amount: Int64.random(in: 0 ... .max, using: &random) >> Int64.random(in: 0...63, using: &random),
                    currency: ["JPY", "USD", "EUR"].randomElement(using: &random).flatMap(Currency.init)!),
                quantity: Int.random(in: 1...99, using: &random))
            try await pool.query(
                """
                INSERT INTO order_lines (order_id, variant_id, item_id, sku, options, name, unit_price_amount, unit_price_currency,
                                         quantity, tax_class)
                VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10)
                """, id, line.variantID, line.itemID, line.sku, CatalogJSON.encodeInOrder(line.options), line.name,
                line.unitPrice.amount, line.unitPrice.currency.code, line.quantity, line.taxClass.rawValue)
            lines.append(line)
        }
        for index in 0..<Int.random(in: 0...2, using: &random) {
            try await pool.query(
                """
                INSERT INTO refunds (id, order_id, amount, currency, reason, restock, idempotency_key, request_fingerprint, status,
                                     created_at, updated_at)
                VALUES ($1, $2, $3, $4, 'other', false, $5, 'f', $6, 'epoch'::timestamptz + $7::bigint * interval '1 microsecond', now())
                """, UUID(), id, Int64.random(in: 1 ... .max, using: &random), "USD", "r\(index)",
                ["pending", "requires_action", "succeeded", "failed", "canceled"].randomElement(using: &random)!, instant(&random))
        }
        var shipmentLines: [(createdAt: Int64, lines: [ShipmentLine])] = []
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let shipment = UUID()
            let createdAt = instant(&random)
            try await pool.query(
                """
                INSERT INTO shipments (id, order_id, carrier, tracking_number, created_at, delivered_at)
                VALUES ($1, $2, $3, $4, 'epoch'::timestamptz + $5::bigint * interval '1 microsecond',
                        'epoch'::timestamptz + $6::bigint * interval '1 microsecond')
                """, shipment, id, "c" + random.text(), "t" + random.text(), createdAt, Bool.random(using: &random) ? instant(&random) : nil
            )
            var shipped: [ShipmentLine] = []
            for variant in variants.prefix(Int.random(in: 0...variants.count, using: &random)) {
                let line = ShipmentLine(variantID: variant, quantity: Int.random(in: 1...99, using: &random))
                try await pool.query(
                    "INSERT INTO shipment_lines (shipment_id, variant_id, quantity) VALUES ($1, $2, $3)", shipment, variant, line.quantity)
                shipped.append(line)
            }
            shipmentLines.append((createdAt, shipped.sorted { $0.variantID.lowercasedText < $1.variantID.lowercasedText }))
        }
        let eventCount = Int.random(in: 0...3, using: &random)
        for _ in 0..<eventCount {
            var data: [String: String] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &random) { data[random.text()] = random.text() }
            try await pool.query(
                """
                INSERT INTO order_events (order_id, type, at, actor, data)
                VALUES ($1, $2, 'epoch'::timestamptz + $3::bigint * interval '1 microsecond', $4, $5::jsonb)
                """, id, random.text(), instant(&random), ["customer", "staff", "system"].randomElement(using: &random)!,
                String(decoding: try JSONEncoder().encode(data), as: UTF8.self))
        }
        return WrittenOrder(
            id: id, lines: lines.sorted { $0.variantID.lowercasedText < $1.variantID.lowercasedText },
            shipmentLines: shipmentLines.sorted { $0.createdAt < $1.createdAt }.map(\.lines), eventCount: eventCount)
    }

    /// Microseconds since 1970 of an instant from year 1000 to 9999.
    private static func instant(_ random: inout SplitMix) -> Int64 {
        Int64.random(in: -30_610_224_000_000_000...253_402_300_799_999_999, using: &random)
    }

    // The same rows read the plain way: each table on its own, timestamps as columns.

    private static func refunds(of order: UUID, on pool: PostgresPool) async throws -> [RefundSummary] {
        try await pool.query(
            "SELECT id, amount, currency, status, created_at FROM refunds WHERE order_id = $1 ORDER BY created_at, id", order
        ).rows.map { row in
            RefundSummary(
                id: try row.decode("id"), amount: try row.money(amount: "amount", currency: "currency"),
                status: try row.enumeration("status", as: RefundStatus.self), createdAt: try row.decode("created_at"))
        }
    }

    private static func shipments(of order: UUID, on pool: PostgresPool) async throws -> [Shipment] {
        var shipments: [Shipment] = []
        for row in try await pool.query(
            "SELECT id, carrier, tracking_number, created_at, delivered_at FROM shipments WHERE order_id = $1 ORDER BY created_at, id",
            order
        ).rows {
            let id: UUID = try row.decode("id")
            let lines = try await pool.query(
                "SELECT variant_id, quantity FROM shipment_lines WHERE shipment_id = $1 ORDER BY variant_id", id
            ).rows.map { ShipmentLine(variantID: try $0.decode("variant_id"), quantity: try $0.decode("quantity")) }
            shipments.append(
                Shipment(
                    id: id, orderID: order, carrier: try row.decode("carrier"), trackingNumber: try row.decode("tracking_number"),
                    lines: lines, createdAt: try row.decode("created_at"), deliveredAt: try row.decode("delivered_at")))
        }
        return shipments
    }

    private static func events(of order: UUID, on pool: PostgresPool) async throws -> [OrderEvent] {
        try await pool.query("SELECT type, at, actor, data::text AS data FROM order_events WHERE order_id = $1 ORDER BY id", order)
            .rows.map { row in
                let data = try JSONDecoder().decode([String: String].self, from: Data(try row.decode("data", as: String.self).utf8))
                return OrderEvent(
                    type: try row.decode("type"), at: try row.decode("at"), actor: try row.enumeration("actor", as: EventActor.self),
                    data: data)
            }
    }
}
