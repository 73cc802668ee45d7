import Domain
import Foundation
import Postgres

/// `CustomerStore` on PostgreSQL: table `customers` (Migrations/0002_accounts.sql).
public struct PostgresCustomerStore: CustomerStore {
    private let database: PostgresPool

    public init(database: PostgresPool) {
        self.database = database
    }

    public func create(_ customer: Customer, passwordHash: String) async throws {
        do {
            try await translatingUnavailable {
                try await database.query(
                    "INSERT INTO customers (id, email, name, password_hash, created_at) VALUES ($1, $2, $3, $4, $5)",
                    customer.id, customer.email, customer.name, passwordHash, customer.createdAt)
            }
        } catch let error as PostgresError where error.constraint == "customers_email_key" {
            throw AccountError.emailTaken
        }
    }

    public func credentials(email: String) async throws -> (customer: Customer, passwordHash: String, version: Int)? {
        try await translatingUnavailable {
            let rows = try await database.query(
                "SELECT id, email, name, password_hash, credentials_version, created_at FROM customers WHERE lower(email) = lower($1) AND deleted_at IS NULL",
                email
            ).rows
            guard let row = rows.first else { return nil }
            let customer = Customer(
                id: try row.decode("id"), email: try row.decode("email"), name: try row.decode("name"),
                createdAt: try row.decode("created_at"))
            return (customer, try row.decode("password_hash"), try row.decode("credentials_version"))
        }
    }
}
