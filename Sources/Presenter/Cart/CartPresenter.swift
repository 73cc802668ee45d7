import Domain
import Translator

/// Cart outcomes to HTTP answers.
public enum CartPresenter {
    /// 200 with the cart.
    public static func cart(_ outcome: Result<Cart, any Error>) -> Presentation {
        outcome.flatMap { cart in Result { .json(200, try CartTranslator.model(cart)) } }.recover(problem)
    }

    static func problem(_ error: any Error) -> Presentation {
        switch error {
        case CartError.itemNotFound(let id):
            return Problem.notFound("No item has id \(id.uuidString.lowercased()).")
        case CartError.insufficientStock(let itemID, let available):
            return Problem.make(
                409, "insufficient-stock", "Insufficient stock",
                detail: "Only \(available) of item \(itemID.uuidString.lowercased()) \(available == 1 ? "is" : "are") available.",
                errors: [FieldError("quantity", "must be at most \(available)")],
                extensions: ["available": .int(available), "item_id": .string(itemID.uuidString.lowercased())])
        case CartError.currencyMismatch(let cart, let item):
            return Problem.make(
                409, "currency-mismatch", "Currency mismatch",
                detail: "The cart is priced in \(cart); this item is priced in \(item).")
        default:
            return Problem.from(error)
        }
    }
}
