import Domain

/// `POST /v1/admin/items` body.
struct CreateItemRequest: Decodable {
    let sku: String
    let name: String
    let description: String?
    let category: String
    let price: MoneyRequest
    let stock: Int

    var draft: ItemDraft {
        ItemDraft(
            sku: sku, name: name, description: description ?? "", category: category,
            priceAmount: price.amount, currency: price.currency, stock: stock)
    }
}

/// `PATCH /v1/admin/items/{id}` body: every field optional; `price` may change amount,
/// currency or both.
struct UpdateItemRequest: Decodable {
    let name: String?
    let description: String?
    let category: String?
    let price: PartialPriceRequest?
    let stock: Int?

    var changes: ItemChanges {
        ItemChanges(
            name: name, description: description, category: category,
            priceAmount: price?.amount, currency: price?.currency, stock: stock)
    }
}

struct PartialPriceRequest: Decodable {
    let amount: Int64?
    let currency: String?
}
