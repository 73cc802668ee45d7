import Domain
import Foundation
import Presenter
import Testing
import Translator

@Suite("Catalog translator and presenter")
struct CatalogPresenterTests {
    let item = Item(
        id: UUID(uuidString: "6F1C3C1E-8A55-4D39-9F3B-0C9D0A6B2E11")!, sku: "MUG-1", name: "Mug",
        description: "A mug", category: "kitchen", taxClass: .standard, price: Money(amount: 1200, currency: Currency("JPY")!),
        stock: 3, createdAt: Date(timeIntervalSince1970: 1_795_347_649.5), reviewCount: 2, ratingAverage: 4.5,
        options: [ItemOption(name: "size", values: ["S", "L"])],
        variants: [
            Variant(
                id: UUID(uuidString: "6F1C3C1E-8A55-4D39-9F3B-0C9D0A6B2E12")!, sku: "MUG-1-S", options: [.init(name: "size", value: "S")],
                price: Money(amount: 1200, currency: Currency("JPY")!), stock: 3)
        ],
        images: [
            ItemImage(
                id: UUID(uuidString: "6F1C3C1E-8A55-4D39-9F3B-0C9D0A6B2E13")!, url: "https://media.example/6f1c.jpg", alt: "A mug",
                variantID: nil, position: 0)
        ], thumbnailURL: "https://media.example/6f1c.jpg", archivedAt: nil)

    func json(_ presentation: Presentation) throws -> [String: Any] {
        let body = try #require(presentation.body)
        return try #require(JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    func header(_ presentation: Presentation, _ name: String) -> String? {
        presentation.headers.first { $0.name == name }?.value
    }

    @Test func itemJSONHasTheDocumentedShape() throws {
        let presentation = CatalogPresenter.show(.success(.item(item)))
        #expect(presentation.status == 200)
        #expect(header(presentation, "Content-Type") == "application/json")
        let body = try json(presentation)
        #expect(
            Set(body.keys) == [
                "id", "sku", "name", "description", "category", "tax_class", "price", "stock", "created_at", "rating_average",
                "review_count", "options", "variants", "images", "thumbnail_url", "archived_at",
            ])
        #expect(body["archived_at"] is NSNull, "on sale")
        #expect(body["id"] as? String == "6f1c3c1e-8a55-4d39-9f3b-0c9d0a6b2e11")
        let price = try #require(body["price"] as? [String: Any])
        #expect(price["amount"] as? Int == 1200 && price["currency"] as? String == "JPY")
        #expect(body["created_at"] as? String == "2026-11-22T11:40:49.500Z")
        #expect(body["rating_average"] as? Double == 4.5 && body["review_count"] as? Int == 2)
        let option = try #require((body["options"] as? [[String: Any]])?.first)
        #expect(option["name"] as? String == "size" && option["values"] as? [String] == ["S", "L"])
        let variant = try #require((body["variants"] as? [[String: Any]])?.first)
        #expect(Set(variant.keys) == ["id", "sku", "options", "price", "stock"])
        #expect(variant["options"] as? [[String: String]] == [["name": "size", "value": "S"]])
    }

    @Test func lastPageWritesAnExplicitNullCursor() throws {
        let body = try json(CatalogPresenter.list(.success(.page(ItemPage(data: [item], nextCursor: nil)))))
        #expect(body["next_cursor"] is NSNull)
        #expect((body["data"] as? [Any])?.count == 1)
    }

    @Test func createdCarriesLocation() {
        let presentation = CatalogPresenter.create(.success(.created(item)))
        #expect(presentation.status == 201)
        #expect(header(presentation, "Location") == "/v1/items/6f1c3c1e-8a55-4d39-9f3b-0c9d0a6b2e11")
    }

    @Test func validationIsA422ProblemWithFieldErrors() throws {
        let presentation = CatalogPresenter.edit(.failure(ValidationError([FieldError("stock", "must be between 0 and 1000000000")])))
        #expect(presentation.status == 422)
        #expect(header(presentation, "Content-Type") == "application/problem+json")
        let body = try json(presentation)
        #expect(body["status"] as? Int == 422)
        #expect(body["type"] as? String == "/problems/validation-failed")
        #expect(body["title"] != nil && body["detail"] != nil)
        let errors = try #require(body["errors"] as? [[String: String]])
        #expect(errors == [["field": "stock", "message": "must be between 0 and 1000000000"]])
    }

    @Test func outcomesAndErrorsMapToTheirStatuses() throws {
        let missing = try json(CatalogPresenter.show(.success(.notFound(id: item.id))))
        #expect(missing["status"] as? Int == 404 && missing["detail"] as? String == "No item has id 6f1c3c1e-8a55-4d39-9f3b-0c9d0a6b2e11.")
        let taken = FieldError("variants[1].sku", "is already taken")
        let duplicate = try json(CatalogPresenter.create(.success(.duplicateSKU(sku: "MUG-1-S", errors: [taken]))))
        #expect(duplicate["status"] as? Int == 409 && duplicate["title"] as? String == "Duplicate SKU")
        #expect(duplicate["detail"] as? String == "SKU MUG-1-S is taken by another item or variant.")
        #expect(duplicate["errors"] as? [[String: String]] == [["field": "variants[1].sku", "message": "is already taken"]])
        let unavailable = CatalogPresenter.show(.failure(StoreUnavailable("connection refused")))
        #expect(unavailable.status == 503)
        #expect(header(unavailable, "Retry-After") == "1")
    }

    @Test func unexpectedErrorsAre500sThatRevealNothing() throws {
        struct Secret: Error { let password = "hunter2" }
        let presentation = CatalogPresenter.show(.failure(Secret()))
        #expect(presentation.status == 500)
        let text = String(decoding: try #require(presentation.body), as: UTF8.self)
        #expect(!text.contains("hunter2") && !text.contains("Secret"))
    }
}
