/// The rules of options and variants the spec cannot state: what an option's name may be, that
/// names and values are not repeated, and that a variant chooses one value of each of its item's
/// options, a combination no sibling has. Every error is named by its place in the request
/// (`variants[2].options[0].value`), all at once.
public enum VariantRules {
    /// An option's name is a lowercase key, as the catalog's filters name it (`option.size=M`).
    public static func isOptionName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, ("a"..."z").contains(first), name.storedLength <= 40 else {
            return false
        }
        return name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }
    }

    /// The options of a new item, checked: names that are keys and unique, values that are not
    /// blank and not repeated within their option.
    public static func options(_ options: [(name: String, values: [String])], into errors: inout FieldErrors) -> [ItemOption] {
        var names = Set<String>()
        for (index, option) in options.enumerated() {
            errors.require(
                isOptionName(option.name), "options[\(index)].name",
                "must be a lowercase key: a letter, then letters, digits or '_' (size, sleeve_length)")
            errors.require(names.insert(option.name).inserted, "options[\(index)].name", "appears twice")
            errors.require(!option.values.isEmpty, "options[\(index)].values", "must list at least one value")
            var values = Set<String>()
            for (position, value) in option.values.enumerated() {
                let place = "options[\(index)].values[\(position)]"
                errors.require(!value.allSatisfy(\.isWhitespace), place, "must not be blank")
                errors.require(values.insert(value).inserted, place, "appears twice")
            }
        }
        return options.map { ItemOption(name: $0.name, values: $0.values) }
    }

    /// A variant's choice of values, checked against its item's options and ordered as they are.
    /// With `newValues`, a value an option does not list yet is accepted (the caller adds it).
    /// - Parameter place: where the choice is in the request (`variants[2].options`).
    /// - Returns: the choice, or `nil` with its errors recorded.
    public static func choice(
        _ chosen: [(name: String, value: String)], at place: String, of options: [ItemOption], newValues: Bool = false,
        into errors: inout FieldErrors
    ) -> [VariantOption]? {
        var valid = true
        var named = Set<String>()
        for (index, pick) in chosen.enumerated() {
            guard let option = options.first(where: { $0.name == pick.name }) else {
                let known = options.isEmpty ? "the item has none" : options.map(\.name).joined(separator: ", ")
                errors.add("\(place)[\(index)].name", "must be one of the item's options (\(known))")
                valid = false
                continue
            }
            if !named.insert(pick.name).inserted {
                errors.add("\(place)[\(index)].name", "appears twice")
                valid = false
            }
            if pick.value.allSatisfy(\.isWhitespace) {
                errors.add("\(place)[\(index)].value", "must not be blank")
                valid = false
            } else if !newValues && !option.values.contains(pick.value) {
                errors.add("\(place)[\(index)].value", "must be one of \(option.values.joined(separator: ", "))")
                valid = false
            }
        }
        let missing = options.map(\.name).filter { !named.contains($0) }
        if !missing.isEmpty {
            errors.add(place, "must choose a value of every option: \(missing.joined(separator: ", ")) missing")
            valid = false
        }
        guard valid else { return nil }
        return options.compactMap { option in
            chosen.first { $0.name == option.name }.map { VariantOption(name: option.name, value: $0.value) }
        }
    }

    /// Why `options` cannot replace an item's `current` ones while its live variants use the
    /// values `used` (per option name): they must keep every option's name (renaming or adding
    /// one would leave the variants without a value of it) and every value a variant holds.
    public static func replacing(
        _ current: [ItemOption], with options: [ItemOption], used: [String: Set<String>]
    ) -> [FieldError] {
        var errors: [FieldError] = []
        if Set(options.map(\.name)) != Set(current.map(\.name)) {
            errors.append(
                FieldError(
                    "options",
                    "must name the item's options, \(current.map(\.name).joined(separator: ", ")): a variant holds a value of each"))
        }
        for (index, option) in options.enumerated() {
            let missing = (used[option.name] ?? []).subtracting(option.values).sorted()
            if !missing.isEmpty {
                errors.append(
                    FieldError("options[\(index)].values", "must keep the values variants hold: \(missing.joined(separator: ", "))"))
            }
        }
        return errors
    }

    /// The options once `choice`'s values are among them: a new value goes last in its option.
    public static func options(_ options: [ItemOption], adding choice: [VariantOption]) -> [ItemOption] {
        options.map { option in
            guard let value = choice.first(where: { $0.name == option.name })?.value, !option.values.contains(value) else {
                return option
            }
            return ItemOption(name: option.name, values: option.values + [value])
        }
    }
}
