import Foundation

/// How an address and a shipping rate read a place, so that both keep it in one form and a rate
/// matches the addresses it names: the country as ISO 3166-1 writes it, a Japanese prefecture as
/// its ISO 3166-2 code, a Japanese postal code as its 7 digits.
enum PlaceRules {
    /// `jp` -> `JP`; a code ISO has not assigned is named in `errors`.
    static func country(_ text: String, into errors: inout FieldErrors) -> String {
        let code = text.uppercased()
        errors.require(CountryCode.isAssigned(code), "country", "must be an ISO 3166-1 alpha-2 code, as JP or US")
        return code
    }

    /// The region as kept: in Japan the prefecture's code (`東京都`, `Tokyo`, `13` -> `JP-13`,
    /// anything else named in `errors`, and none named when `required`); elsewhere the text
    /// trimmed. A blank region is none.
    static func region(_ text: String?, country: String, required: Bool, into errors: inout FieldErrors) -> String? {
        let region = text.map(trimmed).flatMap { $0.isEmpty ? nil : $0 }
        guard country == "JP" else { return region }
        guard let region else {
            if required { errors.add("region", "is required in Japan: one of the 47 prefectures, as JP-13 or 東京都") }
            return nil
        }
        let prefecture = JapanesePrefecture.named(region)
        errors.require(prefecture != nil, "region", "must be one of Japan's 47 prefectures, as JP-13 or 東京都")
        return prefecture?.code ?? region
    }

    /// A Japanese postal code as people write it (`〒100-0001`, `１００－０００１`, `100 0001`) with
    /// only its digits left, full-width ones made ASCII; anything else stays, so the code is
    /// refused rather than read as another.
    static func japanesePostalDigits(_ text: String) -> String {
        var digits = ""
        for scalar in text.unicodeScalars {
            if ("0"..."9").contains(scalar) {
                digits.unicodeScalars.append(scalar)
            } else if (0xFF10...0xFF19).contains(scalar.value), let ascii = Unicode.Scalar(scalar.value - 0xFF10 + 0x30) {
                digits.unicodeScalars.append(ascii)
            } else if !"〒-－‐ー".unicodeScalars.contains(scalar) && !scalar.properties.isWhitespace {
                digits.unicodeScalars.append(scalar)
            }
        }
        return digits
    }

    static func trimmed(_ text: String) -> String { text.trimmingCharacters(in: .whitespacesAndNewlines) }
}
