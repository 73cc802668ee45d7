import Synchronization

private let samplesTaken = Atomic<UInt64>(0)

/// `length` capital letters that no earlier call in this process returned, until 26^`length`
/// calls: what generated tests bind into a column of a unique key. (Random text collided: two
/// rows of a two-letter key shared a value one time in 256.)
public func distinctSampleText(length: Int) -> String {
    var number = samplesTaken.add(1, ordering: .relaxed).oldValue
    precondition(
        length >= 14 || number < (0..<length).reduce(1) { product, _ in product * 26 }, "distinct texts of \(length) letters ran out")
    var letters: [Character] = []
    for _ in 0..<length {
        letters.append(Character(Unicode.Scalar(UInt8(ascii: "A") + UInt8(number % 26))))
        number /= 26
    }
    return String(letters.reversed())
}
