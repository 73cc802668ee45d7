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
}
