import Domain

/// Reads a JSON body's members one by one, so that every member of the wrong type is named in
/// one answer (a string where a number belongs and a money object without its currency, both),
/// not only the first the decoder meets. Generated bodies decode through it; `RequestParsing.json`
/// answers what it throws as 422.
struct MemberDecoder<Key: CodingKey> {
    private let container: KeyedDecodingContainer<Key>
    private var errors: [FieldError] = []

    /// - Throws: `DecodingError` when the body is not a JSON object.
    init(_ decoder: any Decoder, keyedBy: Key.Type) throws {
        container = try decoder.container(keyedBy: Key.self)
    }

    /// The member at `key`, `nil` when absent, null or unreadable (then recorded).
    mutating func decode<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        do {
            return try container.decodeIfPresent(T.self, forKey: key)
        } catch let error as DecodingError {
            errors.append(
                RequestParsing.fieldError(for: error, expecting: T.self) ?? FieldError(key.stringValue, RequestParsing.invalidValue(T.self))
            )
        } catch {
            errors.append(FieldError(key.stringValue, RequestParsing.invalidValue(T.self)))
        }
        return nil
    }

    /// Whether the member at `key` is there and null (a partial update's removal of the field).
    func isNull(_ key: Key) -> Bool {
        (try? container.decodeNil(forKey: key)) ?? false
    }

    /// Records the member at `key` as unreadable when it is null: a partial update cannot remove
    /// a field that always has a value.
    mutating func refuseNull(_ key: Key) {
        if isNull(key) { errors.append(FieldError(key.stringValue, "cannot be null: it always has a value")) }
    }

    /// - Throws: `ValidationError` naming every unreadable member.
    func finish() throws {
        if !errors.isEmpty { throw ValidationError(errors) }
    }
}
