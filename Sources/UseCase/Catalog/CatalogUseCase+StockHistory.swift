// once: created by scenegen from Specs/Catalog.yml; yours to edit: scenegen never rewrites it.
import Domain
import Foundation

extension CatalogUseCase {
    /// `GET /v1/admin/variants/{id}/stock-movements` (auth: admin): every change of a variant's
    /// stock (a removed variant's too), newest first, a page at a time.
    /// - Throws: `ValidationError` for a cursor this service did not issue (the spec bounds the
    ///   limit); `StoreUnavailable`.
    public func stockHistory(_ input: CatalogStockHistoryInput) async throws -> CatalogStockHistoryOutcome {
        let limit = input.limit ?? 20
        let before = input.cursor.map(SequenceCursor.init(token:))
        if before == .some(nil) {
            throw ValidationError([FieldError("cursor", "is not a cursor this service issued", malformed: true)])
        }
        guard let found = try await store.stockMovements(variantID: input.id, before: before??.value, limit: limit + 1) else {
            return .notFound(id: input.id)
        }
        let shown = Array(found.prefix(limit))
        let next = found.count > limit ? shown.last.map { SequenceCursor($0.id).token } : nil
        return .history(StockHistory(data: shown, nextCursor: next))
    }
}
