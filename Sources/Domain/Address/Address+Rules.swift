// once: created by scenegen from Specs/Address.yml; yours to edit: scenegen never rewrites it.
import Foundation

extension Address {
    /// The rules across this address's fields, checked on create and replace after each field's
    /// own: text is trimmed (a blank required field is refused), the country is an assigned
    /// ISO 3166-1 alpha-2 code (`jp` is read as `JP`), the phone number is digits with `+`, `-`,
    /// `(`, `)` and spaces, and in Japan the postal code is 7 digits (`〒123-4567` and full-width
    /// digits are read, `1234567` kept) and the region one of the 47 prefectures (`東京都`, `Tokyo`
    /// or `13` is kept as `JP-13`). Elsewhere the postal code and region are kept as written.
    func checkingRules() throws(ValidationError) -> Address {
        var errors = FieldErrors()
        var address = self
        address.recipient = Self.required(recipient, "recipient", into: &errors)
        address.phone = Self.required(phone, "phone", into: &errors)
        address.city = Self.required(city, "city", into: &errors)
        address.line1 = Self.required(line1, "line1", into: &errors)
        address.line2 = line2.map(PlaceRules.trimmed).flatMap { $0.isEmpty ? nil : $0 }
        address.country = PlaceRules.country(country, into: &errors)
        address.region = PlaceRules.region(region, country: address.country, required: true, into: &errors)
        let phoneDigits = address.phone.unicodeScalars.filter { ("0"..."9").contains($0) }.count
        errors.require(
            address.phone.isEmpty || (phoneDigits >= 6 && address.phone.allSatisfy { $0.isASCII && "0123456789+-() ".contains($0) }),
            "phone", "must be a phone number: at least 6 digits, with + - ( ) and spaces")
        if address.country == "JP" {
            address.postalCode = PlaceRules.japanesePostalDigits(postalCode)
            errors.require(
                address.postalCode.count == 7 && address.postalCode.allSatisfy { $0.isASCII && $0.isNumber },
                "postal_code", "must be 7 digits in Japan, as 100-0001")
        } else {
            address.postalCode = Self.required(postalCode, "postal_code", into: &errors)
        }
        try errors.throwIfAny()
        return address
    }

    /// `text` trimmed; a blank one is named in `errors`.
    private static func required(_ text: String, _ field: String, into errors: inout FieldErrors) -> String {
        let value = PlaceRules.trimmed(text)
        errors.require(!value.isEmpty, field, "must not be blank")
        return value
    }
}
