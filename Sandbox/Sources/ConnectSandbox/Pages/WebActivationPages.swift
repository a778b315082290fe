import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// The HTML of the web activation pages: small, server-rendered, no JavaScript, from the templates in
/// `Resources/templates` (``PageTemplates``), which escape every value; the flow's parameters stay on the server.
enum WebActivationPages {
    /// The pages' policy. `form-action` also governs where a form submission may be redirected, so besides
    /// `'self'` it lists the destinations the final 303 may go to (loopback `http` on any port and the registered
    /// app schemes, see ``WebActivationParameters/returnURL``); with `'self'` alone browsers block that redirect.
    static let contentSecurityPolicy: String = {
        let returnTargets =
            ["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]
            + WebActivationParameters.registeredAppSchemes.sorted().map { "\($0):" }
        return
            "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; frame-ancestors 'none'; base-uri 'none'; "
            + "form-action 'self' " + returnTargets.joined(separator: " ")
    }()

    /// An HTML response that is never cached and sends a referrer only to the sandbox itself (the URLs carry codes and
    /// `state`; `no-referrer` would also make browsers send `Origin: null` on the pages' own form posts).
    static func response(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        headers[HeaderName("Referrer-Policy")!] = "same-origin"
        headers[HeaderName("X-Frame-Options")!] = "DENY"
        headers[HeaderName("Content-Security-Policy")!] = contentSecurityPolicy
        headers[HeaderName("X-Content-Type-Options")!] = "nosniff"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// A 303 redirect to `location` (the end of the flow).
    static func redirect(to location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        headers[HeaderName("Referrer-Policy")!] = "no-referrer"
        return Response(status: .seeOther, headers: headers)
    }

    /// An error page (e.g. 400 for an `sdk_return_to` the sandbox will not redirect to).
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        response(
            PageTemplates.render(
                "error", ["title": "IFTTT sandbox: \(status.code) \(status.reasonPhrase)", "message": message]),
            status: status)
    }

    static func action(_ connectionId: String, _ step: String) -> String {
        "/access/api/\(WebActivationParameters.encode(connectionId))/\(step)"
    }

    /// What the sign-in and account creation pages show.
    struct AccountPage {
        let title: String
        let connectionName: String
        let action: String
        let session: String
        let email: String
        let error: String?
    }

    /// The sign-in page: e-mail (prefilled from `email` or `username`) and password.
    static func signIn(
        _ connection: SeedData.Connection, parameters: WebActivationParameters, session: String,
        error: String? = nil
    ) -> String {
        PageTemplates.render(
            "sign-in",
            AccountPage(
                title: "Sign in to IFTTT", connectionName: connection.name, action: action(connection.id, "sign_in"),
                session: session, email: parameters.value("email") ?? parameters.value("username") ?? "",
                error: error))
    }

    /// The account creation page (`sdk_create_account=true`).
    static func createAccount(
        _ connection: SeedData.Connection, parameters: WebActivationParameters, session: String,
        error: String? = nil
    ) -> String {
        PageTemplates.render(
            "create-account",
            AccountPage(
                title: "Create your IFTTT account", connectionName: connection.name,
                action: action(connection.id, "create_account"), session: session,
                email: parameters.value("email") ?? "", error: error))
    }

    /// What the partner authorization page shows.
    struct AuthorizePage {
        let title: String
        let login: String
        let serviceName: String
        let connectionName: String
        let action: String
        let session: String
        let error: String?
        /// The partner account the activation URL's `code` links (its login and id), when the flow holds a valid one.
        let partnerAccount: String?
        /// The partner account's id, posted back: the account the user saw is the account linked.
        let partnerUserId: String?
    }

    /// The partner authorization page: the user allows IFTTT to use their account on the service.
    static func authorize(
        _ connection: SeedData.Connection, service: SeedData.Service, user: SeedData.User, session: String,
        partnerAccount: SeedData.PartnerAccount? = nil, error: String? = nil
    ) -> String {
        PageTemplates.render(
            "authorize",
            AuthorizePage(
                title: "Authorize \(service.name)", login: user.login, serviceName: service.name,
                connectionName: connection.name, action: action(connection.id, "authorize"), session: session,
                error: error,
                partnerAccount: partnerAccount.map { account in
                    account.login.map { "\($0) (\(account.partnerUserId))" } ?? account.partnerUserId
                },
                partnerUserId: partnerAccount?.partnerUserId))
    }

    /// What the configuration page shows: each feature with an "enabled" checkbox and its fields.
    struct ConfigurePage {
        let title: String
        let connectionName: String
        let errors: [String]
        let hasErrors: Bool
        let action: String
        let session: String
        let features: [Feature]

        struct Feature {
            let title: String
            let id: String
            let name: String
            let enabled: Bool
            let fields: [Field]
        }

        /// One field; exactly one of `location`, `multiple`, `choice` and `text` is set.
        struct Field {
            let fieldLabel: String
            let required: Bool
            var location: Location?
            var multiple: Multiple?
            var choice: Choice?
            var text: Input?
        }

        struct Location { let parts: [Part] }
        struct Part {
            let id: String
            let name: String
            let title: String
            let value: String
        }
        struct Multiple { let options: [Option] }
        struct Choice {
            let id: String
            let name: String
            let options: [Option]
        }
        struct Option {
            let id: String
            let name: String
            let value: String
            let label: String
            let chosen: Bool
        }
        struct Input {
            let id: String
            let name: String
            let value: String
        }
    }

    /// The configuration page: each feature with an "enabled" checkbox and its fields, Save and Cancel buttons.
    static func configure(
        _ connection: SeedData.Connection, existing: SeedData.UserConnection?, session: String,
        parameters: WebActivationParameters, errors: [String] = [], submitted: SubmittedForm? = nil
    ) -> String {
        var counter = 0
        var features: [ConfigurePage.Feature] = []
        for feature in connection.features {
            let previous = existing?.userFeatures.first { $0.featureId == feature.id }
            let enabledName = WebActivationForm.enabledName(feature: feature.id)
            let enabled = submitted.map { $0[enabledName] != nil } ?? (previous?.enabled ?? true)
            counter += 1
            let checkboxId = "f\(counter)"
            var fields: [ConfigurePage.Field] = []
            for field in feature.fields where !field.hidden {
                let name = WebActivationForm.fieldName(feature: feature.id, step: nil, field: field.id)
                let current = previous?.userFields.first { $0.fieldId == field.id }?.value
                fields.append(
                    input(
                        field, name: name, current: current,
                        options: connection.fieldOptions[feature.id]?[field.id] ?? [], submitted: submitted,
                        counter: &counter))
            }
            for kind in SeedData.StepKind.allCases {
                for step in feature.steps(kind) {
                    let previousStep = previous?.userSteps(kind).first { $0.featureStepId == step.id }
                    for field in step.fields where !field.hidden {
                        let name = WebActivationForm.fieldName(feature: feature.id, step: step.id, field: field.id)
                        let current = previousStep?.userFields.first { $0.fieldId == field.id }?.value
                        fields.append(
                            input(
                                field, name: name, current: current,
                                options: connection.fieldOptions[step.typeId]?[field.id] ?? [], submitted: submitted,
                                counter: &counter, prefix: step.label))
                    }
                }
            }
            features.append(
                .init(title: feature.title, id: checkboxId, name: enabledName, enabled: enabled, fields: fields))
        }
        return PageTemplates.render(
            "configure",
            ConfigurePage(
                title: "Configure \(connection.name)", connectionName: connection.name, errors: errors,
                hasErrors: !errors.isEmpty, action: action(connection.id, "configure"), session: session,
                features: features))
    }

    private static func input(
        _ field: SeedData.Field, name: String, current: JSONValue?, options: [SeedData.FieldOption],
        submitted: SubmittedForm?, counter: inout Int, prefix: String? = nil
    ) -> ConfigurePage.Field {
        let value = current ?? field.defaultValue
        var result = ConfigurePage.Field(
            fieldLabel: (prefix.map { "\($0): " } ?? "") + field.label, required: field.required)
        let type = field.type.uppercased()
        counter += 1
        let id = "f\(counter)"
        if type.hasPrefix("LOCATION_") {
            var parts: [ConfigurePage.Part] = []
            for (part, title) in [
                ("lat", "Latitude"), ("lng", "Longitude"), ("radius", "Radius (m)"), ("address", "Address"),
            ] {
                counter += 1
                let partName = "\(name):\(part)"
                let shown =
                    submitted?[partName]
                    ?? WebActivationForm.text(
                        value[part] ?? (part == "lat" ? value["latitude"] : part == "lng" ? value["longitude"] : nil))
                parts.append(.init(id: "f\(counter)", name: partName, title: title, value: shown))
            }
            result.location = .init(parts: parts)
            return result
        }
        if type == "CHECKBOX_MULTI" {
            let chosen =
                submitted.map { $0.all(name) }
                ?? (value.arrayValue ?? []).compactMap { $0["value"]?.stringValue ?? $0.stringValue }
            var choices: [ConfigurePage.Option] = []
            for option in options {
                counter += 1
                choices.append(
                    .init(
                        id: "f\(counter)", name: name, value: option.value, label: option.label,
                        chosen: chosen.contains(option.value)))
            }
            result.multiple = .init(options: choices)
            return result
        }
        let shown = submitted?[name] ?? (value["value"]?.stringValue ?? WebActivationForm.text(value))
        if !options.isEmpty {
            result.choice = .init(
                id: id, name: name,
                options: options.map { option in
                    .init(
                        id: id, name: name, value: option.value,
                        label: (option.group.map { "\($0): " } ?? "") + option.label, chosen: option.value == shown)
                })
            return result
        }
        result.text = .init(id: id, name: name, value: shown)
        return result
    }
}

/// The names of the configuration form's inputs and how a submitted form becomes a `PUT .../user_connection` body.
enum WebActivationForm {
    static func enabledName(feature: String) -> String { "enabled:\(feature)" }

    static func fieldName(feature: String, step: String?, field: String) -> String {
        "field:\(feature):\(step ?? ""):\(field)"
    }

    /// A scalar JSON value as form text; empty for `null` and containers.
    static func text(_ value: JSONValue?) -> String {
        switch value {
        case .string(let s): s
        case .number(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int64(d)) : String(d)
        case .bool(let b): b ? "true" : "false"
        default: ""
        }
    }

    /// The requested user features of a submitted configuration form.
    static func userFeatures(_ form: SubmittedForm, connection: SeedData.Connection) -> [SeedData.UserFeature] {
        connection.features.map { feature in
            var userFeature = SeedData.UserFeature(
                featureId: feature.id, enabled: form[enabledName(feature: feature.id)] != nil)
            userFeature.userFields = feature.fields.compactMap {
                value(of: $0, name: fieldName(feature: feature.id, step: nil, field: $0.id), form: form)
            }
            for kind in SeedData.StepKind.allCases {
                userFeature.setUserSteps(
                    kind,
                    feature.steps(kind).map { step in
                        SeedData.UserStep(
                            kind: kind, featureStepId: step.id,
                            userFields: step.fields.compactMap {
                                value(
                                    of: $0, name: fieldName(feature: feature.id, step: step.id, field: $0.id),
                                    form: form)
                            })
                    })
            }
            return userFeature
        }
    }

    private static func value(of field: SeedData.Field, name: String, form: SubmittedForm) -> SeedData.UserField? {
        let type = field.type.uppercased()
        if type.hasPrefix("LOCATION_") {
            guard let lat = form["\(name):lat"], let lng = form["\(name):lng"] else { return nil }
            if lat.trimmingCharacters(in: .whitespaces).isEmpty && lng.trimmingCharacters(in: .whitespaces).isEmpty {
                return nil
            }
            var members: JSONObject = [
                "lat": Double(lat.trimmingCharacters(in: .whitespaces)).map(JSONValue.number) ?? .string(lat),
                "lng": Double(lng.trimmingCharacters(in: .whitespaces)).map(JSONValue.number) ?? .string(lng),
            ]
            if let radius = form["\(name):radius"], !radius.trimmingCharacters(in: .whitespaces).isEmpty {
                members["radius"] =
                    Double(radius.trimmingCharacters(in: .whitespaces)).map(JSONValue.number) ?? .string(radius)
            }
            if let address = form["\(name):address"], !address.isEmpty {
                members["address"] = .string(address)
            }
            return SeedData.UserField(fieldId: field.id, value: .object(members))
        }
        if type == "CHECKBOX_MULTI" {
            return SeedData.UserField(fieldId: field.id, value: .array(form.all(name).map(JSONValue.string)))
        }
        guard let text = form[name] else { return nil }
        return SeedData.UserField(fieldId: field.id, value: .string(text))
    }
}
