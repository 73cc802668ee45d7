/// Japan's 47 prefectures, in the order of their JIS X 0401 codes, which ISO 3166-2 uses
/// (`JP-01` Hokkaido to `JP-47` Okinawa). Addresses keep the code; shipping fees are set by it.
public struct JapanesePrefecture: Hashable, Sendable {
    /// `JP-13`.
    public let code: String
    /// `東京都`, as addresses are written in Japan.
    public let name: String
    /// `Tokyo`, without the suffix (`-to`, `-fu`, `-ken`).
    public let romanized: String

    public static let all: [JapanesePrefecture] = [
        ("北海道", "Hokkaido"), ("青森県", "Aomori"), ("岩手県", "Iwate"), ("宮城県", "Miyagi"), ("秋田県", "Akita"),
        ("山形県", "Yamagata"), ("福島県", "Fukushima"), ("茨城県", "Ibaraki"), ("栃木県", "Tochigi"), ("群馬県", "Gunma"),
        ("埼玉県", "Saitama"), ("千葉県", "Chiba"), ("東京都", "Tokyo"), ("神奈川県", "Kanagawa"), ("新潟県", "Niigata"),
        ("富山県", "Toyama"), ("石川県", "Ishikawa"), ("福井県", "Fukui"), ("山梨県", "Yamanashi"), ("長野県", "Nagano"),
        ("岐阜県", "Gifu"), ("静岡県", "Shizuoka"), ("愛知県", "Aichi"), ("三重県", "Mie"), ("滋賀県", "Shiga"),
        ("京都府", "Kyoto"), ("大阪府", "Osaka"), ("兵庫県", "Hyogo"), ("奈良県", "Nara"), ("和歌山県", "Wakayama"),
        ("鳥取県", "Tottori"), ("島根県", "Shimane"), ("岡山県", "Okayama"), ("広島県", "Hiroshima"), ("山口県", "Yamaguchi"),
        ("徳島県", "Tokushima"), ("香川県", "Kagawa"), ("愛媛県", "Ehime"), ("高知県", "Kochi"), ("福岡県", "Fukuoka"),
        ("佐賀県", "Saga"), ("長崎県", "Nagasaki"), ("熊本県", "Kumamoto"), ("大分県", "Oita"), ("宮崎県", "Miyazaki"),
        ("鹿児島県", "Kagoshima"), ("沖縄県", "Okinawa"),
    ].enumerated().map { index, names in
        let number = index + 1
        return JapanesePrefecture(code: "JP-" + (number < 10 ? "0" : "") + String(number), name: names.0, romanized: names.1)
    }

    /// The prefecture `text` names: its code (`JP-13`, `jp-13`, `13`), its name (`東京都`, or
    /// `東京` without the suffix) or its romanized name (`Tokyo`, `tokyo`); `nil` for anything else.
    public static func named(_ text: String) -> JapanesePrefecture? {
        let key = text.uppercased()
        return all.first { prefecture in
            let number = prefecture.code.dropFirst(3)
            return key == prefecture.code || key == number || key == prefecture.romanized.uppercased()
                || text == prefecture.name || text == prefecture.shortName
        }
    }

    /// `東京` for `東京都`: the name without its suffix (都, 道, 府 or 県), except 北海道, whose 道
    /// is part of the name.
    var shortName: String {
        code == "JP-01" ? name : String(name.dropLast())
    }
}
