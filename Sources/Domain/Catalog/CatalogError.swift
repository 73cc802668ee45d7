import Foundation

/// What can go wrong in the catalog besides invalid input.
public enum CatalogError: Error, Equatable, Sendable {
    case itemNotFound(UUID)
    case duplicateSKU(String)
}
