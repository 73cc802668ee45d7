import Foundation

extension Dictionary where Key == String, Value == Any {
    /// The money member `key` (`{"amount": 2400, "currency": "JPY"}`) as `"2400 JPY"`; nil when
    /// the member is absent or not exactly an amount and a currency.
    public func money(_ key: String) -> String? {
        guard let member = self[key] as? [String: Any], member.count == 2, let amount = member["amount"] as? Int64,
            let currency = member["currency"] as? String
        else { return nil }
        return "\(amount) \(currency)"
    }
}
