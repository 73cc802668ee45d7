import Domain
import Foundation
import Testing

/// A body of objects (`MatrixBoard.yml`'s `arrange`: a list of `BoardSlot`s and one
/// `BoardFrame`): every element checked, each error named by its place, every error at once.
@Suite("Input objects (hand-written checks of generated code)")
struct MatrixInputObjectTests {
    static let record = UUID(uuidString: "00000000-0000-4000-8000-000000000001")!

    @Test func everyElementIsCheckedAndNamedByItsPlace() throws {
        let input = MatrixBoardArrangeInput.Unchecked(
            note: String(repeating: "n", count: 21),
            slots: [
                BoardSlot.Unchecked(recordID: Self.record, position: 1),
                BoardSlot.Unchecked(position: 10, size: "XL", fee: MoneyInput(amount: -1, currency: "yen")),
            ],
            frame: BoardFrame.Unchecked())
        do {
            _ = try input.validated()
            Issue.record("accepted bad elements")
        } catch {
            #expect(
                error.fields.map(\.field) == [
                    "note", "slots[1].record_id", "slots[1].position", "slots[1].size", "slots[1].fee.amount", "slots[1].fee.currency",
                    "frame.colour",
                ])
        }
    }

    @Test func aValidBodyOfObjectsIsChecked() throws {
        let checked = try MatrixBoardArrangeInput.Unchecked(
            slots: [BoardSlot.Unchecked(recordID: Self.record, position: 9, size: "M", fee: MoneyInput(amount: 5, currency: "JPY"))],
            frame: BoardFrame.Unchecked(colour: "navy")
        ).validated()
        #expect(
            checked.slots == [BoardSlot(recordID: Self.record, position: 9, size: .m, fee: Money(amount: 5, currency: Currency("JPY")!))])
        #expect(checked.frame == BoardFrame(colour: "navy") && checked.note == nil)
        #expect(try MatrixBoardArrangeInput.Unchecked(slots: []).validated().slots.isEmpty, "a list may be empty")
        #expect(throws: ValidationError([FieldError("slots", "is required")])) { try MatrixBoardArrangeInput.Unchecked().validated() }
    }

    /// `min_items` and `max_items` bound a list of values and a list of objects; an optional
    /// list left out is no list at all, so only one sent is counted.
    @Test func listsKeepTheirSizeBounds() throws {
        func fields(labels: [String]? = nil, hooks: [BoardHook.Unchecked]? = nil) -> [FieldError] {
            do throws(ValidationError) {
                _ = try MatrixBoardArrangeInput.Unchecked(labels: labels, slots: [], hooks: hooks).validated()
                return []
            } catch { return error.fields }
        }
        #expect(fields().isEmpty)
        #expect(fields(labels: []) == [FieldError("labels", "must have at least 1 entry")])
        #expect(fields(labels: ["a", "b", "c"]).isEmpty)
        #expect(fields(labels: ["a", "b", "c", "d"]) == [FieldError("labels", "must have at most 3 entries")])
        #expect(fields(labels: [String(repeating: "x", count: 11)]) == [FieldError("labels[0]", "must be at most 10 characters")])
        #expect(fields(hooks: []) == [FieldError("hooks", "must have at least 2 entries")])
        #expect(
            fields(hooks: [BoardHook.Unchecked(at: 10)])
                == [FieldError("hooks", "must have at least 2 entries"), FieldError("hooks[0].at", "must be 0 to 9")])
        #expect(fields(hooks: [BoardHook.Unchecked(at: 0), BoardHook.Unchecked(at: 9)]).isEmpty)
    }
}
