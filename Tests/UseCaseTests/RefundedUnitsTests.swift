import Domain
import PropertyBased
import Testing

/// What refunds by lines give back (`RefundedUnits.value`): the prices, and without tax in the
/// prices the tax the order charged on them, so that refunding every unit, in any number of
/// refunds, gives back exactly what the lines cost and never more at any step.
@Suite("Refund value of lines")
struct RefundedUnitsTests {
    static let yen = Currency("JPY")!

    /// Lines of random classes, prices and quantities, each unit given to one of up to 4
    /// refunds made one after the other.
    @Test func refundsOfEveryUnitGiveBackExactlyWhatTheLinesCost() async {
        let lines = zip(Gen.bool, Gen.int64(in: 1...1_000_000), Gen.int(in: 1...5)).array(of: 1...8)
        let refundOfUnit = Gen.int(in: 0...3).array(of: 40...40)
        await propertyCheck(count: 300, input: lines, refundOfUnit, Gen.int(in: 0...5)) { lines, refundOfUnit, setting in
            // Each of the shop's settings: tax in the prices or not, and each rounding.
            let policy = TaxPolicy(pricesIncludeTax: setting < 3, rounding: TaxRounding.allCases[setting % 3])
            let bought = lines.map {
                RefundedUnits(unitPrice: Money(amount: $0.1, currency: Self.yen), quantity: $0.2, taxClass: $0.0 ? .standard : .reduced)
            }
            // Refund k takes, of each line, the units whose refundOfUnit is k.
            var unit = 0
            var refunds = Array(repeating: [RefundedUnits](), count: 4)
            for line in bought {
                var counts = [0, 0, 0, 0]
                for _ in 0..<line.quantity {
                    counts[refundOfUnit[unit % refundOfUnit.count]] += 1
                    unit += 1
                }
                for (k, count) in counts.enumerated() where count > 0 {
                    refunds[k].append(RefundedUnits(unitPrice: line.unitPrice, quantity: count, taxClass: line.taxClass))
                }
            }
            var earlier: [RefundedUnits] = []
            var given: Int64 = 0
            for refund in refunds {
                guard
                    let value = try? RefundedUnits.value(of: refund, after: earlier, in: Self.yen, tax: policy),
                    let alone = try? RefundedUnits.value(of: refund, after: [], in: Self.yen, tax: policy)
                else {
                    Issue.record("no value for \(refund)")
                    return
                }
                let net = refund.reduce(Int64(0)) { $0 + $1.unitPrice.amount * Int64($1.quantity) }
                #expect(value.amount >= net, "never less than the prices")
                // Within a yen per rate of the refund's own tax; nothing past the prices with tax in them.
                #expect(abs(value.amount - alone.amount) <= (policy.pricesIncludeTax ? 0 : 2), "\(value) and alone \(alone)")
                given += value.amount
                earlier += refund
            }
            let totals = try? OrderTotals.compute(
                lines: bought.map { (taxClass: $0.taxClass, total: try! $0.unitPrice.multiplied(by: $0.quantity)) },
                shippingFee: Money(amount: 0, currency: Self.yen), policy: policy)
            #expect(given == totals?.total.amount)
        }
    }
}
