import Domain
import Foundation
import PropertyBased
import Testing

/// The staff's order search reads the start of an order's id as the range of ids beginning so.
struct StaffOrderFilterTests {
    @Test func anyStartOfAnIdOfSixDigitsOrMoreGivesARangeHoldingIt() async {
        let cut = Gen.int(in: 0...40)
        await propertyCheck(count: 300, input: cut, Gen.bool) { cut, upper in
            let id = UUID().uuidString.lowercased()
            let start = String(id.prefix(cut))
            let query = " " + (upper ? start.uppercased() : start) + " "
            let range = StaffOrderFilter(progress: nil, query: query).idRange
            let digits = start.filter { $0 != "-" }.count
            guard digits >= 6 else {
                #expect(range == nil, "\(query)")
                return
            }
            guard let found = range else {
                Issue.record("no range for \(query)")
                return
            }
            #expect(found.first.uuidString.lowercased().hasPrefix(start) && found.last.uuidString.lowercased().hasPrefix(start))
            #expect(found.first.uuidString <= id.uppercased() && id.uppercased() <= found.last.uuidString)
        }
    }

    @Test(arguments: ["3f2a9c0g", "3f2a9", "someone@example.com", "MUG-001", "3f2a9c01-e2b4-4c1d-8a6b-0c3e5f7a9b1d0"])
    func otherQueriesGiveNoRange(query: String) {
        #expect(StaffOrderFilter(progress: nil, query: query).idRange == nil)
    }
}
