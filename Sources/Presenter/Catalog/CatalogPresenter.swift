import Domain
import Translator

/// Catalog outcomes to HTTP answers.
public enum CatalogPresenter {
    /// 200 with `{"data", "next_cursor"}`.
    public static func page(_ outcome: Result<Page<Item>, any Error>) -> Presentation {
        outcome.map { .json(200, CatalogTranslator.model($0)) }.recover(problem)
    }

    /// 200 with the item.
    public static func item(_ outcome: Result<Item, any Error>) -> Presentation {
        outcome.map { .json(200, CatalogTranslator.model($0)) }.recover(problem)
    }

    /// 201 with the item and its `Location`.
    public static func created(_ outcome: Result<Item, any Error>) -> Presentation {
        outcome.map { item in
            .json(201, CatalogTranslator.model(item), headers: [("Location", "/v1/items/\(item.id.uuidString.lowercased())")])
        }.recover(problem)
    }

    static func problem(_ error: any Error) -> Presentation {
        switch error {
        case CatalogError.itemNotFound(let id):
            return Problem.notFound("No item has id \(id.uuidString.lowercased()).")
        case CatalogError.duplicateSKU(let sku):
            return Problem.make(
                409, "duplicate-sku", "Duplicate SKU", detail: "An item with SKU \(sku) already exists.",
                errors: [FieldError("sku", "is already taken")])
        default:
            return Problem.from(error)
        }
    }
}
