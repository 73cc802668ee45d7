import Domain
import PropertyBased
import Testing

/// Japan's consumption tax on an order (`OrderTotals`): one rounding per rate per order, never
/// per line; shipping at the standard rate; integer arithmetic only.
@Suite("Consumption tax")
struct ConsumptionTaxTests {
    static let yen = Currency("JPY")!
    static func yen(_ amount: Int64) -> Money { Money(amount: amount, currency: yen) }

    static func totals(
        _ lines: [(TaxClass, Int64)], shipping: Int64 = 0, policy: TaxPolicy = TaxPolicy()
    ) throws -> OrderTotals {
        try OrderTotals.compute(
            lines: lines.map { (taxClass: $0.0, total: yen($0.1)) }, shippingFee: yen(shipping), policy: policy)
    }

    static func taxes(_ totals: OrderTotals) -> [TaxClass: Int64] {
        Dictionary(uniqueKeysWithValues: totals.taxLines.map { ($0.taxClass, $0.tax.amount) })
    }

    @Test func theEdgeCasesOfAJapaneseShop() throws {
        // A 1-yen item carries no whole yen of tax; 110 yen carries 10, 108 reduced 8.
        #expect(Self.taxes(try Self.totals([(.standard, 1)])) == [.standard: 0])
        #expect(Self.taxes(try Self.totals([(.standard, 110)])) == [.standard: 10])
        #expect(Self.taxes(try Self.totals([(.reduced, 108)])) == [.reduced: 8])
        // A hundred 1-yen lines: per line nothing, per rate 9 (100 × 10 / 110 = 9.09).
        let many = try Self.totals(Array(repeating: (.standard, 1), count: 100))
        #expect(Self.taxes(many) == [.standard: 9])
        #expect(many.total.amount == 100)
        // Mixed rates, each summed and rounded on its own; shipping joins the standard rate.
        let mixed = try Self.totals([(.standard, 1000), (.reduced, 540), (.reduced, 540)], shipping: 500)
        #expect(mixed.taxLines.map(\.taxClass) == [.standard, .reduced])
        #expect(mixed.taxLines.map(\.taxable.amount) == [1500, 1080])
        #expect(Self.taxes(mixed) == [.standard: 136, .reduced: 80])
        #expect(mixed.subtotal.amount == 2080 && mixed.total.amount == 2580)
        // Food only with a shipping fee: the fee alone is taxed at the standard rate.
        #expect(Self.taxes(try Self.totals([(.reduced, 3240)], shipping: 550)) == [.standard: 50, .reduced: 240])
        // Free shipping (fee 0) adds no standard line to a food-only order.
        #expect(try Self.totals([(.reduced, 5400)]).taxLines.map(\.taxClass) == [.reduced])
        // An empty cart's totals are zero with no lines.
        #expect(try Self.totals([]).taxLines.isEmpty)
    }

    @Test func pricesWithoutTaxAddItOnce() throws {
        let policy = TaxPolicy(pricesIncludeTax: false, rounding: .floor)
        let totals = try Self.totals([(.standard, 999), (.reduced, 999)], shipping: 500, policy: policy)
        // 1499 × 10 % = 149.9 -> 149; 999 × 8 % = 79.92 -> 79.
        #expect(Self.taxes(totals) == [.standard: 149, .reduced: 79])
        #expect(totals.total.amount == 999 + 999 + 500 + 149 + 79)
    }

    @Test func theRoundingModeIsTheShops() throws {
        // 1050 × 10 / 110 = 95.45...; 5 × 10 / 100 = 0.5 exactly.
        let inclusive = [(TaxClass.standard, Int64(1050))]
        #expect(Self.taxes(try Self.totals(inclusive, policy: TaxPolicy(rounding: .floor))) == [.standard: 95])
        #expect(Self.taxes(try Self.totals(inclusive, policy: TaxPolicy(rounding: .halfUp))) == [.standard: 95])
        #expect(Self.taxes(try Self.totals(inclusive, policy: TaxPolicy(rounding: .ceiling))) == [.standard: 96])
        let half = [(TaxClass.standard, Int64(5))]
        #expect(Self.taxes(try Self.totals(half, policy: TaxPolicy(pricesIncludeTax: false, rounding: .floor))) == [.standard: 0])
        #expect(Self.taxes(try Self.totals(half, policy: TaxPolicy(pricesIncludeTax: false, rounding: .halfUp))) == [.standard: 1])
        #expect(Self.taxes(try Self.totals(half, policy: TaxPolicy(pricesIncludeTax: false, rounding: .ceiling))) == [.standard: 1])
    }

    @Test func overflowAndMixedCurrenciesAreRefused() {
        #expect(throws: MoneyError.overflow) { try Self.totals([(.standard, Int64.max / 5)]) }
        #expect(throws: MoneyError.overflow) { try Self.totals([(.standard, Int64.max), (.standard, 1)]) }
        let dollars = Money(amount: 100, currency: Currency("USD")!)
        #expect(throws: MoneyError.currencyMismatch(Self.yen, Currency("USD")!)) {
            try OrderTotals.compute(lines: [(taxClass: .standard, total: dollars)], shippingFee: Self.yen(0), policy: TaxPolicy())
        }
    }

    /// For random carts and settings: the total is the lines, the fee and (without tax in the
    /// prices) the tax; each rate's tax is its sum rounded once, checked against 128-bit
    /// arithmetic; the order of the lines changes nothing.
    @Test func anyCartFollowsTheOneRoundingRule() async {
        let line = Gen.bool.map { $0 ? TaxClass.standard : .reduced }.array(of: 0...40)
        let amounts = Gen.int64(in: 0...2_000_000_000).array(of: 40...40)
        let settings = Gen.int(in: 0...5)
        await propertyCheck(count: 300, input: line, amounts, Gen.int64(in: 0...100_000), settings) { classes, amounts, fee, setting in
            let policy = TaxPolicy(pricesIncludeTax: setting < 3, rounding: TaxRounding.allCases[setting % 3])
            let lines = zip(classes, amounts).map { ($0, $1) }
            guard let totals = try? Self.totals(lines, shipping: fee, policy: policy) else {
                Issue.record("no totals for \(lines)")
                return
            }
            var taxTotal: Int64 = 0
            for taxClass in TaxClass.allCases {
                let sum = lines.filter { $0.0 == taxClass }.reduce(Int64(0)) { $0 + $1.1 } + (taxClass == .standard ? fee : 0)
                let line = totals.taxLines.first { $0.taxClass == taxClass }
                let present = lines.contains { $0.0 == taxClass } || (taxClass == .standard && fee > 0)
                #expect((line != nil) == present)
                guard let line else { continue }
                #expect(line.taxable.amount == sum)
                let rate = Int128(taxClass.ratePercent)
                let numerator = Int128(sum) * rate
                let denominator: Int128 = policy.pricesIncludeTax ? 100 + rate : 100
                let tax = Int128(line.tax.amount)
                switch policy.rounding {
                case .floor: #expect(tax * denominator <= numerator && numerator < (tax + 1) * denominator)
                case .ceiling: #expect((tax - 1) * denominator < numerator && numerator <= tax * denominator)
                case .halfUp: #expect(2 * numerator >= (2 * tax - 1) * denominator && 2 * numerator < (2 * tax + 1) * denominator)
                }
                taxTotal += line.tax.amount
            }
            let subtotal = lines.reduce(Int64(0)) { $0 + $1.1 }
            #expect(totals.subtotal.amount == subtotal)
            #expect(totals.total.amount == subtotal + fee + (policy.pricesIncludeTax ? 0 : taxTotal))
            #expect((try? Self.totals(lines.reversed(), shipping: fee, policy: policy)) == totals)
        }
    }
}
