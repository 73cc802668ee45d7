// once: created by scenegen from Specs/ShippingRate.yml; yours to edit: scenegen never rewrites it.
import Foundation

extension ShippingRate {
    /// The rules across a rate's fields, read as an address's are (`PlaceRules`), so the rate
    /// matches the addresses it names: the country an assigned ISO code (`jp` -> `JP`), in Japan
    /// the region a prefecture kept as its code (`沖縄県` -> `JP-47`) and the postal prefix 1 to 7
    /// digits (`〒907-` -> `907`); elsewhere both are kept as written, trimmed.
    func checkingRules() throws(ValidationError) -> ShippingRate {
        var errors = FieldErrors()
        var rate = self
        rate.country = PlaceRules.country(country, into: &errors)
        rate.region = PlaceRules.region(region, country: rate.country, required: false, into: &errors)
        if let prefix = postalCodePrefix {
            let kept = rate.country == "JP" ? PlaceRules.japanesePostalDigits(prefix) : PlaceRules.trimmed(prefix)
            let valid =
                rate.country == "JP" ? (1...7).contains(kept.count) && kept.allSatisfy { $0.isASCII && $0.isNumber } : !kept.isEmpty
            errors.require(valid, "postal_code_prefix", rate.country == "JP" ? "must be 1 to 7 digits in Japan" : "must not be blank")
            rate.postalCodePrefix = kept
        }
        try errors.throwIfAny()
        return rate
    }
}
