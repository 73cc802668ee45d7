import Domain
import Foundation
import Gateway
import TestSupport
import Testing

/// The reconciler's reads of orders left waiting on the provider, on real PostgreSQL: each pass
/// claims them, least recently tried first, so one the provider cannot answer about goes behind
/// the others. They were read oldest first every pass: 500 such orders (a payment key switched,
/// an outage) filled every pass and newer ones were never settled, their stock held. A claim
/// takes no more than its limit: a claim's `IN (SELECT ... LIMIT n FOR UPDATE SKIP LOCKED)` ran
/// its subquery again past the rows it had just changed, and took more.
@Suite("The reconciler's claims on real PostgreSQL")
struct PostgresReconcileClaimTests {
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    /// An order of `customer` placed and marked `requires_action` at `placed`, its wait ending at
    /// `expires`.
    static func awaitingAction(_ db: TestDatabase, customer: UUID, placed: Date, expires: Date) async throws -> UUID {
        let order = try await TestRows.insertOrder(db, customer: customer, status: "pending_payment", at: placed)
        try await db.pool.query(
            """
            UPDATE orders SET status = 'requires_action', action_expires_at = $2, action_client_secret = 's',
                              action_type = 'use_stripe_sdk'
            WHERE id = $1
            """, order, expires)
        return order
    }

    @Test func pendingOrdersAreClaimedLeastRecentlyTriedFirst() async throws {
        try await TestDatabase.with { db in
            let customer = try await TestRows.insertCustomer(db)
            let stuck = try await TestRows.insertOrder(db, customer: customer, status: "pending_payment", at: Self.now - 7200)
            let newer = try await TestRows.insertOrder(db, customer: customer, status: "pending_payment", at: Self.now - 3600)
            let young = try await TestRows.insertOrder(db, customer: customer, status: "pending_payment", at: Self.now - 10)
            let store = PostgresOrderStore(database: db.pool, currency: Currency("JPY")!)
            let cutoff = Self.now - 60
            #expect(try await store.claimPendingOrders(changedBefore: cutoff, at: Self.now, limit: 1).map(\.id) == [stuck])
            // The stuck one was tried just now: the next pass takes the other.
            #expect(try await store.claimPendingOrders(changedBefore: cutoff, at: Self.now, limit: 1).map(\.id) == [newer])
            #expect(try await store.claimPendingOrders(changedBefore: cutoff, at: Self.now, limit: 5).isEmpty)
            // Once the cutoff passes them again, both are tried again, and the young one now.
            let later = try await store.claimPendingOrders(changedBefore: Self.now + 1, at: Self.now + 1, limit: 5).map(\.id)
            #expect(later.count == 3 && Set(later) == [stuck, newer, young])
        }
    }

    @Test func expiredActionsAreClaimedLeastRecentlyTriedFirst() async throws {
        try await TestDatabase.with { db in
            let customer = try await TestRows.insertCustomer(db)
            var orders: [UUID] = []
            for placed in [7200.0, 3600] {
                orders.append(
                    try await Self.awaitingAction(db, customer: customer, placed: Self.now - placed, expires: Self.now - placed + 900))
            }
            let store = PostgresOrderStore(database: db.pool, currency: Currency("JPY")!)
            func claim(limit: Int) async throws -> [UUID] {
                try await store.claimOrdersAwaitingAction(expiredBefore: Self.now, changedBefore: Self.now - 60, at: Self.now, limit: limit)
                    .map(\.id)
            }
            #expect(try await claim(limit: 1) == [orders[0]])
            #expect(try await claim(limit: 1) == [orders[1]])
            #expect(try await claim(limit: 5).isEmpty)
        }
    }

    /// An expired action is claimed at once, however short its wait was
    /// (`PAYMENT_ACTION_TIMEOUT_SECONDS` may be 10 s, the minimum age some 90): only a second
    /// claim waits for the cutoff.
    @Test func anExpiredActionIsClaimedAtOnceThenSpacedOut() async throws {
        try await TestDatabase.with { db in
            let customer = try await TestRows.insertCustomer(db)
            let order = try await Self.awaitingAction(db, customer: customer, placed: Self.now - 11, expires: Self.now - 1)
            let store = PostgresOrderStore(database: db.pool, currency: Currency("JPY")!)
            func claim(at: Date) async throws -> [UUID] {
                try await store.claimOrdersAwaitingAction(expiredBefore: at, changedBefore: at - 90, at: at, limit: 5).map(\.id)
            }
            #expect(try await claim(at: Self.now) == [order])
            #expect(try await claim(at: Self.now + 30).isEmpty)
            #expect(try await claim(at: Self.now + 91) == [order])
        }
    }

    /// The claims of refunds take no more than their limit either, least recently tried first.
    @Test func refundClaimsTakeTheirLimit() async throws {
        try await TestDatabase.with { db in
            let customer = try await TestRows.insertCustomer(db)
            let store = PostgresOrderStore(database: db.pool, currency: Currency("JPY")!)
            var orders: [UUID] = []
            for placed in [7200.0, 3600] {
                orders.append(try await TestRows.insertOrder(db, customer: customer, status: "refund_pending", at: Self.now - placed))
            }
            #expect(try await store.claimRefundPendingOrders(changedBefore: Self.now - 60, at: Self.now, limit: 1).map(\.id) == [orders[0]])
            #expect(try await store.claimRefundPendingOrders(changedBefore: Self.now - 60, at: Self.now, limit: 1).map(\.id) == [orders[1]])

            let paid = try await TestRows.insertOrder(db, customer: customer, status: "paid", total: 1000, at: Self.now - 7200)
            var refunds: [UUID] = []
            for (index, placed) in [7200.0, 3600].enumerated() {
                let refund = UUID()
                try await db.pool.query(
                    """
                    INSERT INTO refunds (id, order_id, amount, currency, reason, restock, idempotency_key, request_fingerprint, status,
                                         created_at, updated_at)
                    VALUES ($1, $2, 100, 'JPY', 'other', false, $3, 'f', 'pending', $4, $4)
                    """, refund, paid, "k\(index)", Self.now - placed)
                refunds.append(refund)
            }
            let refundStore = PostgresRefundStore(database: db.pool)
            #expect(
                try await refundStore.claimUnsettledRefunds(changedBefore: Self.now - 60, at: Self.now, limit: 1).map(\.id) == [refunds[0]])
            #expect(
                try await refundStore.claimUnsettledRefunds(changedBefore: Self.now - 60, at: Self.now, limit: 1).map(\.id) == [refunds[1]])
        }
    }
}
