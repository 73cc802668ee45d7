import Foundation
import HTTPTestSupport
import HummingbirdTesting
import Postgres
import TestSupport
import Testing

/// The address book's rules across a customer's rows, raced on the real app and PostgreSQL:
/// one default, and 50 addresses at most, however many requests arrive at once.
@Suite("Address book over HTTP")
struct AddressHTTPTests {
    static let tokyo =
        #"{"recipient":"山田 太郎","phone":"03-1234-5678","postal_code":"100-0001","country":"JP","region":"東京都","city":"千代田区","line1":"千代田1-1","line2":"2F""#

    static func body(default isDefault: Bool) -> String { tokyo + #","is_default":\#(isDefault)}"# }

    static func defaults(_ db: TestDatabase, _ customerID: UUID) async throws -> [UUID] {
        try await db.pool.query("SELECT id FROM addresses WHERE customer_id = $1 AND is_default", customerID).rows.map {
            try $0.decode("id") as UUID
        }
    }

    @Test func concurrentDefaultsLeaveExactlyOne() async throws {
        try await withApp { client, db in
            let (customerID, token) = try await signedInCustomer(db)
            let created = try await withThrowingTaskGroup(of: String?.self) { group in
                for _ in 0..<12 {
                    group.addTask {
                        let answer = try await client.send(.post, "/v1/addresses", json: Self.body(default: true), token: token)
                        #expect(answer.status == .created, "\(String(buffer: answer.body))")
                        return try answer.json["id"] as? String
                    }
                }
                return try await group.reduce(into: [String]()) { if let id = $1 { $0.append(id) } }
            }
            #expect(created.count == 12)
            let held = try await Self.defaults(db, customerID)
            #expect(held.count == 1)
            // The one the list shows as default is that row, and it is one of those created.
            let page = try await client.send(.get, "/v1/addresses", token: token).json["data"] as? [[String: Any]] ?? []
            #expect(
                page.filter { $0["is_default"] as? Bool == true }.compactMap { $0["id"] as? String }
                    == held.map { $0.uuidString.lowercased() })
        }
    }

    @Test func concurrentCreatesStopAtFifty() async throws {
        try await withApp { client, db in
            let (customerID, token) = try await signedInCustomer(db)
            for _ in 0..<45 {
                try await db.pool.query(
                    "INSERT INTO addresses (id, customer_id, recipient, phone, postal_code, country, region, city, line1) VALUES ($1, $2, 'a', '0312345678', '1000001', 'JP', 'JP-13', 'c', 'l')",
                    UUID(), customerID)
            }
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        let answer = try await client.send(.post, "/v1/addresses", json: Self.body(default: false), token: token)
                        if answer.status != .created {
                            let problem = try answer.expectProblem(409)
                            #expect(problem["type"] as? String == "/problems/limit-reached")
                            #expect((problem["detail"] as? String)?.contains("50 addresses") == true)
                        }
                        return Int(answer.status.code)
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 201 }.count == 5)
            #expect(statuses.filter { $0 == 409 }.count == 5)
            let kept = try await db.pool.query("SELECT count(*)::int AS n FROM addresses WHERE customer_id = $1", customerID)
            #expect(try kept.rows[0].decode("n") as Int == 50)
        }
    }

    @Test func aReplaceMovesTheDefaultAndClearsWhatItLeavesOut() async throws {
        try await withApp { client, db in
            let (customerID, token) = try await signedInCustomer(db)
            let first = try await client.send(.post, "/v1/addresses", json: Self.body(default: false), token: token)
            let firstID = try #require(try first.json["id"] as? String)
            #expect(try first.json["is_default"] as? Bool == true, "the first address is the default")
            #expect(try first.json["postal_code"] as? String == "1000001")
            #expect(try first.json["region"] as? String == "JP-13")
            let second = try await client.send(.post, "/v1/addresses", json: Self.body(default: false), token: token)
            let secondID = try #require(try second.json["id"] as? String)
            #expect(try second.json["is_default"] as? Bool == false)

            // PUT the second as default, without line2: it takes the default and loses line2.
            let whole =
                #"{"recipient":"佐藤 花子","phone":"+81 98-123-4567","postal_code":"9000001","country":"JP","region":"Okinawa","city":"那覇市","line1":"泉崎1-1","is_default":true}"#
            let replaced = try await client.send(.put, "/v1/addresses/\(secondID)", json: whole, token: token)
            #expect(replaced.status == .ok, "\(String(buffer: replaced.body))")
            let body = try replaced.json
            #expect(body["line2"] is NSNull && body["region"] as? String == "JP-47" && body["is_default"] as? Bool == true)
            #expect(try await Self.defaults(db, customerID).map { $0.uuidString.lowercased() } == [secondID])
            #expect(try await client.send(.get, "/v1/addresses/\(firstID)", token: token).json["is_default"] as? Bool == false)

            // A rule across fields, named by its field; nothing changes.
            let foreign = whole.replacingOccurrences(of: #""region":"Okinawa""#, with: #""region":"Hawaii""#)
            let refused = try await client.send(.put, "/v1/addresses/\(secondID)", json: foreign, token: token)
            _ = try refused.expectProblem(422)
            #expect(refused.fieldNames == ["region"])
            #expect(try await client.send(.get, "/v1/addresses/\(secondID)", token: token).json["region"] as? String == "JP-47")

            // Deleting the default leaves none; the next address made is the default.
            #expect(try await client.send(.delete, "/v1/addresses/\(secondID)", token: token).status == .noContent)
            #expect(try await Self.defaults(db, customerID).isEmpty)
            let third = try await client.send(.post, "/v1/addresses", json: Self.body(default: false), token: token)
            #expect(try third.json["is_default"] as? Bool == true)
        }
    }
}
