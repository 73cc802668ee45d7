import Domain
import Testing

@testable import Presenter

/// Prices as people read them (link pages, problems' details): in the currency's own minor digits.
@Suite("Price text")
struct MoneyPriceTextTests {
    @Test(arguments: [
        (1200, "JPY", "¥1,200"), (1, "JPY", "¥1"), (1250, "USD", "$12.50"), (5, "USD", "$0.05"), (1234, "BHD", "BHD 1.234"),
        (-1200, "JPY", "-¥1,200"),
    ])
    func pricesUseTheCurrencysMinorDigits(amount: Int64, code: String, shown: String) {
        let text = Money(amount: amount, currency: Currency(code)!).priceText
        // en_US may put a no-break space between a code and the amount.
        #expect(text.replacingOccurrences(of: "\u{00A0}", with: " ") == shown)
    }
}
