import Testing

@testable import SceneGenKit

@Suite("scenegen: the String enums of Domain an enum_type may name")
struct DomainEnumsTests {
    @Test func readsRawValuesAsSwiftGivesThem() {
        let source = """
            /// A kind.
            public enum Kind: String, CaseIterable, Sendable {
                case plain
                case quoted = "a/b", `default`  // a comment: case ignored
                case inTransit = "in-transit"

                /// A property whose switch has cases of its own.
                public var isPlain: Bool {
                    switch self {
                    case .plain: true
                    case .quoted, .default, .inTransit: false
                    }
                }
            }
            public enum Small: String { case a, b }
            enum Counted: Int {
                case one = 1
            }
            public struct Box { let kind: Kind }
            public enum Last: String, Hashable {
                case only
            }
            """
        #expect(
            DomainEnums.declared(in: [source]) == [
                "Kind": ["plain", "a/b", "default", "in-transit"], "Small": ["a", "b"], "Last": ["only"],
            ])
    }
}
