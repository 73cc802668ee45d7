import Domain
import Foundation

extension Money {
    /// `1200 JPY` as `¥1,200`, `1250 USD` as `$12.50`: a price as people read it, in a web
    /// page or a problem's detail, with the currency's own minor digits (`Currency.minorUnits`;
    /// Foundation on Linux gives every currency two).
    public var priceText: String {
        let digits = currency.minorUnits
        let formatter = NumberFormatter()
        formatter.numberStyle = .currency
        formatter.locale = Locale(identifier: "en_US")
        formatter.currencyCode = currency.code
        formatter.minimumFractionDigits = digits
        formatter.maximumFractionDigits = digits
        let value = Decimal(amount) / pow(Decimal(10), digits)
        return formatter.string(from: NSDecimalNumber(decimal: value)) ?? "\(amount) \(currency.code)"
    }
}
