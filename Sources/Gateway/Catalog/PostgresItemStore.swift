import Domain
import Foundation
import Postgres

/// `ItemStore` on PostgreSQL: tables `items` and `item_variants` (Migrations/0001_catalog.sql,
/// 0014_variants.sql). An item is read with its live variants in one statement (`columns`).
public struct PostgresItemStore: ItemStore {
    /// At most this many search words are matched; the rest are ignored.
    static let maxSearchWords = 5
    /// An item's live variants, in order, as one JSON array per item: a page of items is one
    /// statement, whatever it holds.
    static let variantsColumn = """
        (SELECT COALESCE(json_agg(json_build_array(v.id, v.sku, v.options, v.price_amount, v.price_currency, v.stock) \
        ORDER BY v.position, v.id), '[]') FROM item_variants v WHERE v.item_id = items.id AND v.removed_at IS NULL) AS variants
        """
    /// An item's images in order, as one JSON array per item.
    static let imagesColumn = """
        (SELECT COALESCE(json_agg(json_build_array(m.id, m.filename, m.alt, m.variant_id, m.position) ORDER BY m.position, m.id), \
        '[]') FROM item_images m WHERE m.item_id = items.id) AS images
        """
    /// What `item(from:)` reads, selected from `items`.
    static let columns =
        "id, sku, name, description, category, tax_class, price_amount, price_currency, created_at, review_count, rating_sum, options, archived_at, \(variantsColumn), \(imagesColumn)"

    let database: PostgresPool
    /// Where the media API's files are published (`MEDIA_PUBLIC_URL`): an image's URL is this
    /// and its file name.
    let mediaURL: String?
    /// Where `shownItem(id:)` looks first; every change made here forgets its item there.
    let cache: ItemCache
    /// The facet counts and text searches this instance runs at once (each reads many items);
    /// nil: no bound.
    let catalogScans: ConcurrencyLimit?

    public init(database: PostgresPool, mediaURL: String? = nil, cache: ItemCache = .off, catalogScans: ConcurrencyLimit? = nil) {
        self.database = database
        self.mediaURL = mediaURL
        self.cache = cache
        self.catalogScans = catalogScans
    }

    public func items(matching filter: ItemFilter, sort: ItemSort, after cursor: ItemCursor?, limit: Int) async throws
        -> [(item: Item, cursor: ItemCursor)]
    {
        let statement = Self.listStatement(matching: filter, sort: sort, after: cursor, limit: limit)
        let ticket = cache.ticket()
        // A text search reads every item until a page matches (some 150 ms at 50,000 items), so it
        // takes one of the places facet counts take: twenty connections of searches from one
        // client held the pool, and checkouts took 7.5 s.
        guard filter.search?.isEmpty == false else { return try await page(statement, sort: sort, ticket: ticket) }
        return try await scanning { try await page(statement, sort: sort, ticket: ticket) }
    }

    private func page(_ statement: (sql: String, binds: [any PostgresEncodable]), sort: ItemSort, ticket: ItemCache.Ticket?) async throws
        -> [(item: Item, cursor: ItemCursor)]
    {
        try await translatingUnavailable {
            try await database.query(statement.sql, binds: statement.binds).rows.map { row in
                let item = try self.shownItem(from: row, ticket: ticket)
                let key: ItemSortKey
                switch sort {
                case .newest: key = .time(PageCursor(createdAt: item.createdAt, id: item.id).createdAtMicros)
                case .priceAsc, .priceDesc, .rating: key = .number(try row.decode("sort_key"))
                case .name: key = .text(try row.decode("sort_key"))
                }
                return (item, ItemCursor(sort: sort, key: key, id: item.id))
            }
        }
    }

    /// The statement of a page of items, its values bound: public so that its plan can be read
    /// at scale (CatalogPlanTests). Benchmarks/item-lookup replays the statement the server
    /// logged, not this.
    static func listStatement(matching filter: ItemFilter, sort: ItemSort, after cursor: ItemCursor?, limit: Int)
        -> (sql: String, binds: [any PostgresEncodable])
    {
        var query = ItemListQuery()
        query.whereMatches(filter)
        let order = Self.order(sort)
        if let cursor {
            let comparison = sort.descending ? "<" : ">"
            switch cursor.key {
            case .time(let micros):
                query.where(
                    "(\(order.key), id) \(comparison) ($::timestamptz, $::uuid)", Date(timeIntervalSince1970: Double(micros) / 1_000_000),
                    cursor.id)
            case .number(let number): query.where("(\(order.key), id) \(comparison) ($::bigint, $::uuid)", number, cursor.id)
            case .text(let text): query.where("(\(order.key), id) \(comparison) ($::text, $::uuid)", text, cursor.id)
            }
        }
        // The limit is bound too, so every page size shares one prepared statement.
        let sql = """
            SELECT \(Self.columns), \(order.key) AS sort_key FROM items\(query.whereClause)
            ORDER BY \(order.key) \(order.direction), id \(order.direction) LIMIT $\(query.binds.count + 1)
            """
        return (sql, query.binds + [limit])
    }

    /// The column a sort orders by and its direction (the id follows in the same one).
    static func order(_ sort: ItemSort) -> (key: String, direction: String) {
        let key: String
        switch sort {
        case .newest: key = "created_at"
        case .priceAsc, .priceDesc: key = "price_amount"
        case .rating: key = "rating_key"
        case .name: key = "name"
        }
        return (key, sort.descending ? "DESC" : "ASC")
    }

    public func item(id: UUID) async throws -> Item? {
        try await translatingUnavailable {
            try await database.query("SELECT \(Self.columns) FROM items WHERE id = $1", id).rows.first.map(item(from:))
        }
    }

    /// A listed row's item as the cache holds it, which spares decoding the row's variants and
    /// images (PostgreSQL built them all the same); read from the row and kept otherwise. The
    /// cache's copy may run behind the row by as much as the cache may (`ItemCache`), so within
    /// that a page filtered on stock or price can show an item as it was a moment before.
    private func shownItem(from row: PostgresRow, ticket: ItemCache.Ticket?) throws -> Item {
        if let kept = cache.item(id: try row.decode("id")) { return kept }
        let item = try item(from: row)
        if let ticket { cache.keep(item, ticket: ticket) }
        return item
    }

    /// From the cache when it holds the item; read and kept there otherwise.
    public func shownItem(id: UUID) async throws -> Item? {
        if let kept = cache.item(id: id) { return kept }
        let ticket = cache.ticket()
        let item = try await item(id: id)
        if let item, let ticket { cache.keep(item, ticket: ticket) }
        return item
    }

    public func item(variantID: UUID) async throws -> Item? {
        try await translatingUnavailable {
            try await database.query(
                """
                SELECT \(Self.columns) FROM items
                WHERE id = (SELECT item_id FROM item_variants WHERE id = $1 AND removed_at IS NULL)
                """, variantID
            ).rows.first.map(item(from:))
        }
    }

    public func insertIfEmpty(_ items: [Item]) async throws -> Bool {
        try await translatingUnavailable {
            try await database.withTransaction { connection in
                // Blocks concurrent writers (and seeders) until commit; readers go on.
                try await connection.query("LOCK TABLE items IN SHARE ROW EXCLUSIVE MODE")
                guard try await connection.query("SELECT 1 FROM items LIMIT 1").rows.isEmpty else { return false }
                var start = 0
                while start < items.count {
                    let batch = items[start..<min(start + Self.seedBatch, items.count)]
                    try await insertBatch(Array(batch), on: connection)
                    start += Self.seedBatch
                }
                return true
            }
        }
    }

    /// Items a seeding statement carries: 50,000 items are 50 round trips of three statements.
    static let seedBatch = 1000

    /// `items`, their variants and their first stock movements in three statements of arrays.
    private func insertBatch(_ items: [Item], on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            INSERT INTO items (id, sku, name, description, category, price_amount, price_currency, options, created_at, tax_class)
            SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[],
                                 $8::text[]::jsonb[], $9::text[]::timestamptz[], $10::text[])
            """,
            PostgresUUIDArray(items.map(\.id)), PostgresTextArray(items.map(\.sku)), PostgresTextArray(items.map(\.name)),
            PostgresTextArray(items.map(\.description)), PostgresTextArray(items.map(\.category)),
            PostgresInt64Array(items.map(\.price.amount)), PostgresTextArray(items.map(\.price.currency.code)),
            PostgresTextArray(items.map { CatalogJSON.encode($0.options) }),
            PostgresTextArray(items.map { $0.createdAt.postgresText ?? "" }), PostgresTextArray(items.map(\.taxClass.rawValue)))
        let variants = items.flatMap { item in item.variants.enumerated().map { (item: item, position: $0, variant: $1) } }
        try await connection.query(
            """
            WITH variant AS (
                INSERT INTO item_variants (id, item_id, position, sku, options, price_amount, price_currency, stock, created_at)
                SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::bigint[]::int[], $4::text[], $5::text[]::jsonb[], $6::bigint[],
                                     $7::text[], $8::bigint[]::int[], $9::text[]::timestamptz[])
                RETURNING id, stock, created_at
            )
            INSERT INTO stock_movements (variant_id, delta, stock_after, reason, at) SELECT id, stock, stock, 'created', created_at FROM variant
            """,
            PostgresUUIDArray(variants.map(\.variant.id)), PostgresUUIDArray(variants.map(\.item.id)),
            PostgresInt64Array(variants.map { Int64($0.position) }), PostgresTextArray(variants.map(\.variant.sku)),
            PostgresTextArray(variants.map { CatalogJSON.encode($0.variant.options) }),
            PostgresInt64Array(variants.map(\.variant.price.amount)),
            PostgresTextArray(variants.map(\.variant.price.currency.code)), PostgresInt64Array(variants.map { Int64($0.variant.stock) }),
            PostgresTextArray(variants.map { $0.item.createdAt.postgresText ?? "" }))
    }

    public func create(id: UUID, draft: ItemDraft, createdAt: Date) async throws -> Item {
        do {
            try await translatingUnavailable {
                try await database.withTransaction { connection in
                    try await insert(id: id, draft: draft, createdAt: createdAt, on: connection)
                }
            }
        } catch let error as PostgresError where error.constraint == "items_sku_key" {
            throw CatalogError.duplicateSKU(draft.sku)
        } catch let error as PostgresError where error.constraint == "item_variants_sku_key" {
            let taken = try await translatingUnavailable {
                try await database.query(
                    "SELECT sku FROM item_variants WHERE sku = ANY($1::text[]) AND removed_at IS NULL LIMIT 1",
                    PostgresTextArray(draft.variants.map(\.sku))
                ).rows.first?.decode("sku", as: String.self)
            }
            throw CatalogError.duplicateSKU(taken ?? draft.sku)
        }
        guard let item = try await item(id: id) else { throw StoreUnavailable("the item just created vanished") }
        return item
    }

    /// The item's row, its variants and their first stock movements; its price is the lowest of
    /// its variants'.
    private func insert(id: UUID, draft: ItemDraft, createdAt: Date, on connection: PostgresConnection) async throws {
        guard let lowest = draft.variants.map(\.price).min(by: { $0.amount < $1.amount }) else {
            throw StoreUnavailable("an item without variants")
        }
        try await connection.query(
            """
            INSERT INTO items (id, sku, name, description, category, price_amount, price_currency, options, created_at, tax_class)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9, $10)
            """,
            id, draft.sku, draft.name, draft.description, draft.category, lowest.amount, lowest.currency.code,
            CatalogJSON.encode(draft.options), createdAt, draft.taxClass.rawValue)
        for (position, variant) in draft.variants.enumerated() {
            try await connection.query(
                """
                WITH variant AS (
                    INSERT INTO item_variants (id, item_id, position, sku, options, price_amount, price_currency, stock, created_at)
                    VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9) RETURNING id, stock
                )
                INSERT INTO stock_movements (variant_id, delta, stock_after, reason, at)
                SELECT id, stock, stock, 'created', $9 FROM variant
                """,
                variant.id, id, position, variant.sku, CatalogJSON.encode(variant.options), variant.price.amount,
                variant.price.currency.code, variant.stock, createdAt)
        }
    }

    public func update(id: UUID, changes: ItemChanges) async throws -> Item? {
        do {
            return try await updating(id: id, changes: changes)
        } catch let error as PostgresError where error.constraint == "item_variants_sku_key" {
            // The SKU taken: the first of the changes whose SKU another live variant has.
            let skus = changes.variants.compactMap(\.sku)
            let holders: [(id: UUID, sku: String)] = try await translatingUnavailable {
                try await database.query(
                    "SELECT id, sku FROM item_variants WHERE sku = ANY($1::text[]) AND removed_at IS NULL", PostgresTextArray(skus)
                ).rows.map { (try $0.decode("id"), try $0.decode("sku")) }
            }
            let clash = changes.variants.first { change in holders.contains { $0.sku == change.sku && $0.id != change.id } }
            throw CatalogError.duplicateSKU(clash?.sku ?? skus.first ?? "")
        }
    }

    private func updating(id: UUID, changes: ItemChanges) async throws -> Item? {
        let found: Bool = try await cache.forgetting(items: [id]) {
            try await translatingUnavailable {
                try await database.withTransaction { connection in
                    // The item's row first: its lock orders this change after any other of the item.
                    let updated = try await connection.query(
                        """
                        UPDATE items SET
                            name = COALESCE($2, name),
                            description = COALESCE($3, description),
                            category = COALESCE($4, category),
                            price_currency = COALESCE($5, price_currency),
                            tax_class = COALESCE($6, tax_class)
                        WHERE id = $1 RETURNING id
                        """,
                        id, changes.name, changes.description, changes.category, changes.currency, changes.taxClass?.rawValue
                    ).rows
                    guard !updated.isEmpty else { return false }
                    if let amount = changes.priceAmount { try await reprice(onlyVariantOf: id, amount: amount, on: connection) }
                    // In variant id order, as checkouts lock them: in the request's order a staff
                    // edit and a checkout each held one the other waited for, until the lock
                    // timeout answered both 503.
                    for (index, variant) in changes.variants.enumerated().sorted(by: {
                        $0.element.id.lowercasedText < $1.element.id.lowercasedText
                    }) {
                        let changed = try await connection.query(
                            """
                            UPDATE item_variants SET sku = COALESCE($3, sku), price_amount = COALESCE($4, price_amount)
                            WHERE id = $1 AND item_id = $2 AND removed_at IS NULL RETURNING id
                            """, variant.id, id, variant.sku, variant.priceAmount)
                        guard !changed.rows.isEmpty else { throw CatalogError.unknownVariant(index: index) }
                    }
                    if changes.variants.contains(where: { $0.priceAmount != nil }) {
                        try await Self.refreshLowestPrice(of: id, on: connection)
                    }
                    if let options = changes.options { try await replaceOptions(of: id, with: options, on: connection) }
                    return true
                }
            }
        }
        return found ? try await item(id: id) : nil
    }

    /// Sets the item's options anew, under its row's lock (taken by the update before), if they
    /// fit the values its live variants hold.
    /// - Throws: `CatalogError.optionsIncompatible`.
    private func replaceOptions(of itemID: UUID, with options: [ItemOption], on connection: PostgresConnection) async throws {
        let current = try CatalogJSON.options(
            try await connection.query("SELECT options FROM items WHERE id = $1", itemID).rows[0].decode("options"))
        var used: [String: Set<String>] = [:]
        for row in try await connection.query(
            """
            SELECT DISTINCT o.name, o.value FROM item_variants v CROSS JOIN LATERAL variant_option_values(v.options) o
            WHERE v.item_id = $1 AND v.removed_at IS NULL
            """, itemID
        ).rows {
            used[try row.decode("name"), default: []].insert(try row.decode("value"))
        }
        let problems = VariantRules.replacing(current, with: options, used: used)
        guard problems.isEmpty else { throw CatalogError.optionsIncompatible(problems) }
        try await connection.query("UPDATE items SET options = $2::jsonb WHERE id = $1", itemID, CatalogJSON.encode(options))
    }

    /// Sets the price of the item's one variant, and the item's with it.
    /// - Throws: `CatalogError.itemHasVariants` when the item has more than one.
    private func reprice(onlyVariantOf itemID: UUID, amount: Int64, on connection: PostgresConnection) async throws {
        let variants = try await connection.query(
            "SELECT id FROM item_variants WHERE item_id = $1 AND removed_at IS NULL FOR UPDATE", itemID
        ).rows
        guard variants.count == 1 else { throw CatalogError.itemHasVariants(variants.count) }
        try await connection.query(
            "UPDATE item_variants SET price_amount = $2 WHERE id = $1", try variants[0].decode("id", as: UUID.self), amount)
        try await Self.refreshLowestPrice(of: itemID, on: connection)
    }

    /// Writes the lowest price of the item's live variants on its row (what lists show and sort by).
    static func refreshLowestPrice(of itemID: UUID, on connection: PostgresConnection) async throws {
        try await connection.query(
            """
            UPDATE items SET price_amount = (SELECT min(price_amount) FROM item_variants WHERE item_id = $1 AND removed_at IS NULL)
            WHERE id = $1
            """, itemID)
    }

    /// Decodes a row selected with `columns`.
    /// - Throws: `PostgresError.decoding` when the schema and this code disagree.
    func item(from row: PostgresRow) throws -> Item { try Self.item(from: row, mediaURL: mediaURL) }

    /// Decodes a row selected with `columns`: the item's price is the lowest of its variants'
    /// (kept on the row), its stock their sum, its thumbnail its first image.
    /// - Throws: `PostgresError.decoding` when the schema and this code disagree.
    static func item(from row: PostgresRow, mediaURL: String?) throws -> Item {
        let reviewCount: Int = try row.decode("review_count")
        let options = try CatalogJSON.options(try row.decode("options"))
        let variants = try CatalogJSON.variants(try row.decode("variants"), options: options)
        let images = try CatalogJSON.images(try row.decode("images"), mediaURL: mediaURL)
        return Item(
            id: try row.decode("id"),
            sku: try row.decode("sku"),
            name: try row.decode("name"),
            description: try row.decode("description"),
            category: try row.decode("category"),
            taxClass: try row.enumeration("tax_class", as: TaxClass.self),
            price: try row.money(amount: "price_amount", currency: "price_currency"),
            stock: variants.reduce(0) { $0 + $1.stock },
            createdAt: try row.decode("created_at"),
            reviewCount: reviewCount,
            ratingAverage: reviewCount > 0 ? RatingSummary.rounded(sum: try row.decode("rating_sum"), count: reviewCount) : nil,
            options: options,
            variants: variants,
            images: images,
            thumbnailURL: images.first?.url,
            archivedAt: try row.decode("archived_at")
        )
    }
}
