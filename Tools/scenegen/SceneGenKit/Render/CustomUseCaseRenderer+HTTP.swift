extension CustomUseCaseRenderer {
    /// The statements of a custom use case's route: read the path, query and body into the
    /// unchecked input, then check it and call the use case inside `outcome`, so a
    /// `ValidationError` is presented as every other one (422 with the fields).
    static func routeBody(_ names: SceneNames, _ useCase: UseCaseSpec) -> [String] {
        var lines: [String] = []
        var arguments: [String] = []
        arguments += authMembers(useCase).map { "\($0.name): \($0.value)" }
        let input = useCase.input ?? CustomInputSpec(path: [], query: [], body: [])
        let prefix = names.input(useCase)
        for field in TypedField.list(input.path, prefix: prefix) {
            let name = swiftString(field.name)
            let routed = names.routerNames.routedArgument(field.name, in: useCase.route)
            let value: String
            switch field.spec.type {
            case .uuid: value = "try RequestParsing.uuid(\(name), in: context\(routed))"
            case .int: value = "try RequestParsing.path(\(name), in: context\(routed), as: \"an integer\") { Int($0) }"
            case .bigint: value = "try RequestParsing.path(\(name), in: context\(routed), as: \"an integer\") { Int64($0) }"
            default: value = "try RequestParsing.path(\(name), in: context\(routed), as: \"a segment\") { $0 }"
            }
            arguments.append("\(field.bare): \(value)")
        }
        for field in TypedField.list(input.query, prefix: prefix) {
            let name = swiftString(field.name)
            let value: String
            switch field.spec.type {
            case .uuid: value = "try RequestParsing.query(\(name), in: request, as: \"a UUID\") { UUID(text: $0) }"
            case .int: value = "try RequestParsing.int(\(name), in: request)"
            case .bigint: value = "try RequestParsing.query(\(name), in: request, as: \"an integer\") { Int64($0) }"
            case .bool: value = "try RequestParsing.query(\(name), in: request, as: \"true or false\") { Bool($0) }"
            case .timestamp: value = "try RequestParsing.timestamp(RequestParsing.string(\(name), in: request), field: \(name))"
            default: value = "try RequestParsing.string(\(name), in: request)"
            }
            arguments.append("\(field.bare): " + (field.spec.map ? mapValue(field) : value))
        }
        for field in TypedField.list(input.headers, prefix: prefix) {
            let name = swiftString(Names.header(field.name))
            let value: String
            switch field.spec.type {
            case .uuid: value = "try RequestParsing.header(\(name), in: request, as: \"a UUID\") { UUID(text: $0) }"
            case .int: value = "try RequestParsing.header(\(name), in: request, as: \"an integer\") { Int($0) }"
            case .bigint: value = "try RequestParsing.header(\(name), in: request, as: \"an integer\") { Int64($0) }"
            case .bool: value = "try RequestParsing.header(\(name), in: request, as: \"true or false\") { Bool($0) }"
            case .timestamp: value = "try RequestParsing.timestamp(RequestParsing.header(\(name), in: request), field: \(name))"
            default: value = "try RequestParsing.header(\(name), in: request)"
            }
            arguments.append("\(field.bare): \(value)")
        }
        let body = TypedField.list(input.body, prefix: prefix)
        if !body.isEmpty || !input.objects.isEmpty {
            lines.append("let body = try await RequestParsing.json(\(names.body(useCase)).self, from: request)")
            for field in body {
                let value: String
                switch field.spec.type {
                case .money: value = "body.\(field.property)?.input"
                case .timestamp: value = "try RequestParsing.timestamp(body.\(field.property), field: \(swiftString(field.name)))"
                default: value = "body.\(field.property)"
                }
                arguments.append("\(field.bare): \(value)")
            }
            for object in input.objects.map(InputObject.init) {
                let value = object.spec.list ? "body.\(object.property)?.map(\\.unchecked)" : "body.\(object.property)?.unchecked"
                arguments.append("\(object.bare): \(value)")
            }
        }
        lines.append("let input = \(prefix).Unchecked(")
        lines += arguments.enumerated().map { "    \($1)" + ($0 == arguments.count - 1 ? "" : ",") }
        lines.append(")")
        if let limit = useCase.rateLimit {
            // Counted before the input is checked or the logic runs: a refusal costs nothing.
            let check = "try await throttle.enforce { try await $0.\(limit.class.method)(\(limit.class.arguments)) }"
            if let when = limit.when {
                lines.append("if input.\(Names.member(when)) != nil {")
                lines.append("    \(check)")
                lines.append("}")
            } else {
                lines.append(check)
            }
        }
        let background = useCase.background ? ", background: RequestBackgroundWork(logger: context.logger)" : ""
        let method = names.method(useCase)
        if let upload = useCase.input?.upload, upload.resumable {
            // Multipart or resumable, the file reaches the logic through the target
            // `resumableTarget` declares; everything that can be refused is refused first.
            let parameters = TypedField.list(input.path, prefix: prefix).map { field in
                let value: String
                switch field.spec.type {
                case .uuid: value = "input.\(field.bare).lowercasedText"
                case .int, .bigint: value = "String(input.\(field.bare))"
                default: value = "input.\(field.bare)"
                }
                return "\(swiftString(field.name)): \(value)"
            }
            let precheck: String
            if upload.precheck {
                precheck =
                    "await outcome { try await useCase.\(names.precheck(useCase))(input.validated()) }.refusal(\(names.presenter).\(method))"
            } else if CustomUseCaseRenderer.hasChecks(names, useCase) {
                precheck =
                    "await outcome { () -> \(names.outcome(useCase))? in _ = try input.validated(); return nil }.refusal(\(names.presenter).\(method))"
            } else {
                precheck = "nil"
            }
            lines.append("return try await \(method)Upload.receive(")
            lines.append("    request, context: context, customerID: input.customerID,")
            lines.append("    parameters: [\(parameters.isEmpty ? ":" : parameters.joined(separator: ", "))]")
            lines.append(") { \(precheck) }")
            return lines
        }
        if let upload = useCase.input?.upload {
            // Everything that can be refused is refused before the body is read.
            lines.append("return \(names.presenter).\(method)(")
            lines.append("    await outcome {")
            lines.append("        let checked = \(CustomUseCaseRenderer.hasChecks(names, useCase) ? "try " : "")input.validated()")
            // A client's upload counts against the places one customer and one address may hold
            // at once; the staff's have places of their own.
            let customer = CustomUseCaseRenderer.hasCustomer(useCase) ? "input.customerID" : "nil"
            let holder = useCase.auth == .admin ? ".staff" : ".client(customer: \(customer), address: context.clientAddress)"
            lines.append(
                "        let upload = try uploads.prepare(request, field: \(swiftString(upload.field)), max: \(upload.max), for: \(holder))"
            )
            if upload.precheck {
                lines.append("        if let refusal = try await useCase.\(names.precheck(useCase))(checked) { return refusal }")
            }
            lines.append(
                "        return try await upload.receive(request.body) { try await useCase.\(method)(checked, upload: $0\(background)) }")
            lines.append("    })")
            return lines
        }
        lines.append(
            "return \(names.presenter).\(method)(await outcome { try await useCase.\(method)(input.validated()\(background)) })"
        )
        return lines
    }

    /// The declaration before a resumable upload's route: the target that hands the finished
    /// file to the logic, with the input read back from what the upload kept (its customer and
    /// the route's path parameters).
    static func resumableTarget(_ names: SceneNames, _ useCase: UseCaseSpec) -> [String] {
        guard let upload = useCase.input?.upload, upload.resumable else { return [] }
        let method = names.method(useCase)
        let prefix = names.input(useCase)
        var arguments = ["customerID: sender.customerID"]
        for field in TypedField.list(useCase.input?.path ?? [], prefix: prefix) {
            let name = swiftString(field.name)
            switch field.spec.type {
            case .uuid: arguments.append("\(field.bare): try sender.uuid(\(name))")
            case .int: arguments.append("\(field.bare): try sender.int(\(name))")
            case .bigint: arguments.append("\(field.bare): Int64(try sender.int(\(name)))")
            default: arguments.append("\(field.bare): try sender.string(\(name))")
            }
        }
        var lines = [
            "let \(method)Upload = uploads.resumable(\(swiftString(useCase.route.description)), field: \(swiftString(upload.field)), max: \(upload.max)) { sender, file in",
            "    \(names.presenter).\(method)(",
            "        await outcome {",
            "            let input = \(prefix).Unchecked(",
        ]
        lines += arguments.enumerated().map { "                \($1)" + ($0 == arguments.count - 1 ? "" : ",") }
        lines.append("            )")
        let validated = CustomUseCaseRenderer.hasChecks(names, useCase) ? "try input.validated()" : "input.validated()"
        lines.append("            return try await useCase.\(method)(\(validated), upload: file)")
        lines.append("        })")
        lines.append("}")
        return lines
    }

    /// A query map's reading: every `name.<key>`, each value converted as a single one is.
    private static func mapValue(_ field: TypedField) -> String {
        let name = swiftString(field.name)
        switch field.spec.type {
        case .int: return "try RequestParsing.queryMap(\(name), in: request, as: \"an integer\") { Int($0) }"
        case .bigint: return "try RequestParsing.queryMap(\(name), in: request, as: \"an integer\") { Int64($0) }"
        default: return "try RequestParsing.queryMap(\(name), in: request, as: \"a text\") { $0 }"
        }
    }

    /// The JSON bodies of the custom use cases: every member optional, so the check of the
    /// input names every missing field at once.
    static func bodies(_ names: SceneNames, into out: inout CodeWriter) {
        for useCase in names.useCases(.custom) {
            let body = TypedField.list(useCase.input?.body ?? [], prefix: names.input(useCase))
            let objects = (useCase.input?.objects ?? []).map(InputObject.init)
            guard !body.isEmpty || !objects.isEmpty else { continue }
            out.blank()
            out.doc("The body of `\(useCase.route)`.")
            out.block("struct \(names.body(useCase)): Decodable") { out in
                var members: [(property: String, type: String)] = []
                for field in body {
                    let type: String
                    switch field.spec.type {
                    case .money: type = field.spec.partial ? "MoneyChangeRequest" : "MoneyRequest"
                    case .timestamp: type = "String"
                    default: type = field.uncheckedType
                    }
                    members.append((field.property, type))
                }
                for object in objects {
                    let element = names.body(useCase) + object.spec.type
                    members.append((object.property, object.spec.list ? "[\(element)]" : element))
                }
                out.lines(members.map { "let \($0.property): \($0.type)?" })
                WiringRenderer.codingKeys(body.map { ($0.property, $0.name) } + objects.map { ($0.property, $0.spec.name) }, into: &out)
                WiringRenderer.memberDecoding(members, into: &out)
            }
            for object in objects { InputObjectRenderer.body(object, named: names.body(useCase) + object.spec.type, into: &out) }
        }
    }
}

extension RateLimitSpec.Class {
    /// The `RequestThrottle` method counting the class.
    var method: String {
        switch self {
        case .passwordCheck: "passwordCheck"
        case .checkout: "checkout"
        case .photoUpload: "photoUpload"
        case .paymentCheck: "paymentCheck"
        case .signUp: "signUp"
        case .signIn: "signIn"
        }
    }

    /// What the method counts by, from the unchecked input and the request's context.
    var arguments: String {
        switch self {
        case .passwordCheck, .checkout, .photoUpload, .paymentCheck: "customerID: input.customerID"
        case .signUp: "client: context.clientAddress"
        case .signIn: "email: input.email ?? \"\", client: context.clientAddress"
        }
    }
}
