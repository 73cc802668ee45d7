import Domain
import Foundation

/// Universal links: the apple-app-site-association file, and the web pages of the paths it
/// claims, for whoever opens a link without the app (and for the previews chat apps draw).
public enum AppLinkPresenter {
    struct Association: Encodable {
        struct Links: Encodable { let details: [Detail] }
        struct Detail: Encodable {
            let appIDs: [String]
            let components: [[String: String]]
        }
        let applinks: Links
    }

    /// `GET /.well-known/apple-app-site-association`: JSON (Apple reads no other type and follows
    /// no redirect), 404 while no app is configured.
    public static func association(_ links: AppLinks?) -> Presentation {
        guard let links else { return Problem.notFound("No app is configured for this shop's links (APPLE_APP_IDS).") }
        let claimed = AppLinks.paths.map { ["/": $0] }
        return Presentation.json(
            200,
            Association(
                applinks: .init(details: [.init(appIDs: links.appIDs, components: claimed)])),
            headers: [("Cache-Control", "public, max-age=3600")])
    }

    /// `GET /items/{id}`: the item's page (name, price, description, picture), or 404.
    public static func itemPage(_ outcome: Result<CatalogShowOutcome, any Error>, links: AppLinks?) -> Presentation {
        outcome.map { answer in
            guard case .item(let item) = answer else { return notFound(links) }
            return itemPage(item, links: links)
        }.recover(Problem.from)
    }

    /// The page of a web path naming nothing (an unknown item, an id that is no UUID).
    public static func notFound(_ links: AppLinks?) -> Presentation {
        page(404, title: "Not found", body: "<h1>Not found</h1>\n<p>There is no such page.</p>", links: links)
    }

    static func itemPage(_ item: Item, links: AppLinks?) -> Presentation {
        let name = escaped(item.name)
        var head = """
            <meta property="og:title" content="\(name)">
            <meta property="og:description" content="\(escaped(String(item.description.prefix(200))))">
            <link rel="alternate" type="application/json" href="/v1/items/\(item.id.lowercasedText)">
            """
        var picture = ""
        if let url = item.thumbnailURL {
            head += "\n<meta property=\"og:image\" content=\"\(escaped(url))\">"
            picture = "<img src=\"\(escaped(url))\" alt=\"\(name)\">\n"
        }
        let body = """
            <h1>\(name)</h1>
            \(picture)<p class="price">\(escaped(item.price.priceText))</p>
            <p>\(escaped(item.description))</p>
            """
        return page(200, title: name, head: head, body: body, links: links, argument: "/items/\(item.id.lowercasedText)")
    }

    /// `GET /orders/{id}`: a page that opens the order in the app. It shows nothing of the order
    /// (a link carries no session) and is the same for every id, so it tells no one which exist.
    public static func orderPage(id: UUID, links: AppLinks?) -> Presentation {
        page(
            200, title: "Your order",
            body: "<h1>Your order</h1>\n<p>Open this link on the phone with the shop's app to see your order.</p>",
            links: links, argument: "/orders/\(id.lowercasedText)")
    }

    /// An HTML page, with the Smart App Banner that opens `argument` in the app when the App
    /// Store id is known.
    static func page(_ status: Int, title: String, head: String = "", body: String, links: AppLinks?, argument: String? = nil)
        -> Presentation
    {
        var banner = ""
        if let store = links?.appStoreID, let argument {
            banner = "\n<meta name=\"apple-itunes-app\" content=\"app-id=\(escaped(store)), app-argument=\(escaped(argument))\">"
        }
        let html = """
            <!doctype html>
            <html>
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(title)</title>\(banner)
            \(head)
            </head>
            <body>
            \(body)
            </body>
            </html>

            """
        let policy = "default-src 'none'; img-src https: http:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
        return Presentation(
            status: status, headers: [("Content-Type", "text/html; charset=utf-8"), ("Content-Security-Policy", policy)],
            body: Data(html.utf8))
    }

    /// `text` with the characters HTML gives a meaning to written as references, so a name
    /// like `<script>` is shown, never run, in text and in quoted attributes alike. By scalar,
    /// not by `Character`: a `<` joined to a combining mark is one `Character` but still a `<`.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
