import Testing

@testable import SceneGenKit

@Suite("scenegen: the String enums of Domain an enum_type may name")
struct DomainEnumsTests {
    @Test func readsCasesAndRawValuesAsSwiftGivesThem() {
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
        let declared = DomainEnums.declared(in: [source])
        #expect(
            declared.mapValues { $0.map(\.value) } == [
                "Kind": ["plain", "a/b", "default", "in-transit"], "Small": ["a", "b"], "Last": ["only"],
            ])
        #expect(declared["Kind"]?.map(\.name) == ["plain", "quoted", "default", "inTransit"])
    }
}
