import Domain
import Foundation
import Testing

@Suite("UUID.random")
struct RandomUUIDTests {
    @Test func isAVersion4UUIDWithTheRFCVariant() {
        for _ in 0..<1000 {
            let text = UUID.random().uuidString
            let characters = Array(text)
            #expect(characters[14] == "4", "version nibble of \(text)")
            #expect("89AB".contains(characters[19]), "variant of \(text)")
            #expect(UUID(uuidString: text) != nil)
        }
    }

    @Test func tenThousandAreDistinct() {
        #expect(Set((0..<10_000).map { _ in UUID.random() }).count == 10_000)
    }
}
