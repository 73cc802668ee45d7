import Domain
import Foundation
import PropertyBased
import Testing

/// The rules across an address's fields (Sources/Domain/Address/Address+Rules.swift), through
/// the checked draft every create and replace goes through.
@Suite("Address rules")
struct AddressRulesTests {
    static let tokyo = AddressDraft(
        recipient: "山田 太郎", phone: "03-1234-5678", postalCode: "100-0001", country: "JP", region: "東京都", city: "千代田区",
        line1: "千代田1-1")

    func checked(_ draft: AddressDraft) throws(ValidationError) -> Address {
        try draft.validated(id: UUID(), customerID: UUID(), now: Date())
    }

    func refused(_ draft: AddressDraft) -> [String] {
        do {
            _ = try checked(draft)
            return []
        } catch {
            return error.fields.map(\.field)
        }
    }

    @Test func aJapaneseAddressIsKeptInOneForm() throws {
        let address = try checked(Self.tokyo)
        #expect(address.postalCode == "1000001")
        #expect(address.region == "JP-13")
        #expect(address.country == "JP")
        for written in ["〒100-0001", "１００－０００１", "100 0001", " 1000001 ", "100ー0001"] {
            var draft = Self.tokyo
            draft.postalCode = written
            #expect(try checked(draft).postalCode == "1000001", "\(written)")
        }
        for (written, code) in [
            ("Tokyo", "JP-13"), ("tokyo", "JP-13"), ("13", "JP-13"), ("jp-13", "JP-13"), ("東京", "JP-13"), ("北海道", "JP-01"),
            ("沖縄県", "JP-47"), ("Okinawa", "JP-47"), ("JP-01", "JP-01"),
        ] {
            var draft = Self.tokyo
            draft.region = written
            #expect(try checked(draft).region == code, "\(written)")
        }
        var lower = Self.tokyo
        lower.country = "jp"
        #expect(try checked(lower).country == "JP")
    }

    @Test func whatJapanRefusesIsNamedByField() {
        func with(_ change: (inout AddressDraft) -> Void) -> AddressDraft {
            var draft = Self.tokyo
            change(&draft)
            return draft
        }
        #expect(refused(with { $0.postalCode = "100-000" }) == ["postal_code"])
        #expect(refused(with { $0.postalCode = "1000-0001" }) == ["postal_code"])
        #expect(refused(with { $0.postalCode = "ABC1234" }) == ["postal_code"])
        #expect(refused(with { $0.postalCode = "100_0001" }) == ["postal_code"])
        #expect(refused(with { $0.region = nil }) == ["region"])
        #expect(refused(with { $0.region = "Tokio" }) == ["region"])
        #expect(refused(with { $0.region = "JP-48" }) == ["region"])
        #expect(refused(with { $0.region = "  " }) == ["region"])
        #expect(refused(with { $0.recipient = "   " }) == ["recipient"])
        #expect(refused(with { $0.phone = "call me" }) == ["phone"])
        #expect(refused(with { $0.phone = "12345" }) == ["phone"])
        #expect(refused(with { $0.country = "XX" }) == ["country"])
        // Every broken rule at once.
        let all = with {
            $0.postalCode = "1"
            $0.region = "Atlantis"
            $0.city = " "
        }
        #expect(Set(refused(all)) == ["city", "postal_code", "region"])
    }

    @Test func elsewhereThePostalCodeAndRegionAreKeptAsWritten() throws {
        var draft = Self.tokyo
        draft.country = "US"
        draft.postalCode = "94105-1804"
        draft.region = "CA"
        draft.line2 = "   "
        let address = try checked(draft)
        #expect(address.postalCode == "94105-1804" && address.region == "CA")
        #expect(address.line2 == nil, "a blank line2 is none")
        draft.region = nil
        #expect(try checked(draft).region == nil)
        draft.postalCode = " "
        #expect(refused(draft) == ["postal_code"])
    }

    /// However a 7-digit code is written (hyphens, spaces, 〒, full-width digits), it is kept
    /// as its digits; a letter anywhere is refused, never dropped.
    @Test func anyWrittenFormOfAPostalCodeReadsBackAsItsDigits() async {
        let digit = Gen.int(in: 0...9)
        let separator = Gen.element(of: ["", "-", " ", "－", "ー"])
        await propertyCheck(count: 300, input: digit.array(of: 7...7), Gen.bool, separator, Gen.bool) { digits, wide, middle, mark in
            let ascii = digits.map(String.init).joined()
            let shown = wide ? String(String.UnicodeScalarView(ascii.unicodeScalars.map { Unicode.Scalar($0.value + 0xFEE0)! })) : ascii
            var draft = Self.tokyo
            draft.postalCode = (mark ? "〒" : "") + shown.prefix(3) + (middle ?? "") + shown.dropFirst(3)
            #expect((try? checked(draft))?.postalCode == ascii, "\(draft.postalCode)")
            draft.postalCode += "a"
            #expect(refused(draft) == ["postal_code"])
        }
    }

    /// Any text in any field is checked or refused by field, never trapped on.
    @Test func anyTextIsCheckedOrRefusedByField() async {
        // Latin, kana, kanji and full-width forms (everything below the surrogates).
        let text = Gen.character(in: "\u{20}"..."\u{D7FF}").string(of: 0...12)
        await propertyCheck(count: 400, input: text, text, text, text) { postal, region, phone, country in
            var draft = Self.tokyo
            draft.postalCode = postal
            draft.region = region
            draft.phone = phone
            draft.country = country
            let fields = Set(refused(draft))
            #expect(fields.isSubset(of: ["postal_code", "region", "phone", "country"]), "\(fields)")
        }
    }
}
