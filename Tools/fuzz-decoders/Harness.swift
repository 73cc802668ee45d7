import Foundation

// The coverage-guided fuzzer's entry point (libFuzzer, `swiftc -sanitize=fuzzer`): the decoders
// of client input, built from their own sources by Tools/fuzz-decoders. A trap anywhere (an
// overflow, an index out of range, a failed precondition) is a crash libFuzzer reports with the
// input that caused it; the checks below turn a broken property into one too. The first byte
// picks the decoder, the rest is its input.

/// Stops the run with `message` when `condition` fails: libFuzzer saves the input.
func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        FileHandle.standardError.write(Data("property broken: \(message())\n".utf8))
        abort()
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: start, count: count))
    let input = Array(bytes.dropFirst())
    switch bytes[0] % 6 {
    case 0: cursor(input)
    case 1: multipart(input)
    case 2: timestamp(input)
    case 3: validators(input)
    case 4: money(input)
    default: photoMetadata(input)
    }
    return 0
}

/// A page cursor from any text: none, or one inside the bounds whose token reads back the same.
func cursor(_ input: [UInt8]) {
    let token = String(decoding: input, as: UTF8.self)
    guard let cursor = PageCursor(token: token) else { return }
    require(PageCursor.validMicros.contains(cursor.createdAtMicros), "cursor outside the bounds: \(token)")
    require(PageCursor(token: cursor.token) == cursor, "cursor does not round-trip: \(token)")
    _ = PostgresTimestamp.format(cursor.createdAt)
}

/// A multipart body, fed whole and a byte at a time: the same outcome and the same parts.
func multipart(_ input: [UInt8]) {
    func parse(_ chunks: [[UInt8]]) -> [String]? {
        var parser = MultipartParser(boundary: "b")
        var events: [String] = []
        do {
            for chunk in chunks {
                try parser.feed(chunk) { event in
                    switch event {
                    case .partStarted(let name): events.append("start \(name ?? "-")")
                    case .bytes(let bytes): events.append(contentsOf: bytes.map { "byte \($0)" })
                    case .partEnded: events.append("end")
                    }
                }
            }
        } catch {
            return nil
        }
        return events + (parser.isDone ? ["done"] : [])
    }
    let whole = parse([input])
    let byByte = parse(input.map { [$0] })
    require((whole == nil) == (byByte == nil), "malformed one way, not the other: whole \(whole == nil), byte by byte \(byByte == nil)")
    if let whole, let byByte { require(whole == byByte, "parts differ with chunking") }
}

/// Timestamp text as PostgreSQL might send it, and any Double of seconds as a Date to send.
func timestamp(_ input: [UInt8]) {
    if let date = PostgresTimestamp.parse(String(decoding: input, as: UTF8.self)) {
        _ = PostgresTimestamp.format(date)
    }
    guard input.count >= 8 else { return }
    let bits = input.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    let seconds = Double(bitPattern: bits)
    let text = PostgresTimestamp.format(Date(timeIntervalSince1970: seconds))
    if seconds.isFinite, abs(seconds) < 2.5e11, let back = PostgresTimestamp.parse(text.replacingOccurrences(of: "T", with: " ")) {
        require(abs(back.timeIntervalSince1970 - seconds) <= 0.000_001 + abs(seconds) * 1e-15, "\(seconds) -> \(text)")
    }
}

/// The rules every text field of a request passes through: any text, no trap, and a value they
/// accept fits the database's count.
func validators(_ input: [UInt8]) {
    let text = String(decoding: input, as: UTF8.self)
    var errors = FieldErrors()
    let item = CatalogCreateInput.Unchecked(
        sku: text, name: text, description: text, category: text, price: MoneyInput(amount: 1, currency: text), stock: 1)
    if let checked = try? item.validated() { require(checked.name.unicodeScalars.count <= 200, "name too long accepted") }
    ItemRules.checkSKU(text, into: &errors)
    ItemRules.checkNotBlank(text, field: "name", into: &errors)
    _ = try? SignUp(email: text, password: text, name: text).validated()
    _ = AccountRules.emailIsPlausible(text)
    _ = LanguageTag.isWellFormed(text)
    _ = Currency(text)
    _ = try? PageRequest(limit: input.first.map(Int.init), cursor: text)
    _ = PhotoFormat.sniff(input)
}

/// Money from any two amounts: addition and multiplication report overflow, never trap.
func money(_ input: [UInt8]) {
    guard input.count >= 16 else { return }
    func int64(_ slice: ArraySlice<UInt8>) -> Int64 { Int64(bitPattern: slice.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }) }
    let a = Money(amount: int64(input[0..<8]), currency: Currency("JPY")!)
    let b = Money(amount: int64(input[8..<16]), currency: Currency("JPY")!)
    if let sum = try? a.adding(b) { require(sum.amount == a.amount &+ b.amount, "sum") }
    let factor = Int(truncatingIfNeeded: int64(input[8..<16]))
    if let product = try? a.multiplied(by: factor) { require(product.amount == a.amount &* Int64(factor), "product") }
}

/// A photo's bytes through the metadata filter, whole and a byte at a time: the same output, and
/// never longer than the input.
func photoMetadata(_ input: [UInt8]) {
    for prefix: [UInt8] in [[0xFF, 0xD8], [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], []] {
        let photo = prefix + input
        var whole = PhotoMetadataFilter()
        let once = whole.filter(photo[...]) + whole.finish()
        var bytewise = PhotoMetadataFilter()
        var piecewise: [UInt8] = []
        for byte in photo { piecewise += bytewise.filter([byte][...]) }
        piecewise += bytewise.finish()
        require(once == piecewise, "filter output depends on chunking")
        require(once.count <= photo.count, "filter grew the photo")
    }
}
