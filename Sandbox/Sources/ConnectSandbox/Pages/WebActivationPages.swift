import Foundation
import Hummingbird
import IFTTTConnectSDK

/// The HTML of the web activation pages: small, server-rendered, no JavaScript. Every value from a request or the
/// store goes through ``htmlEscape(_:)``; the flow's parameters travel in hidden fields.
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

    static func page(_ title: String, _ body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(htmlEscape(title))</title>
        <style>body{font-family:sans-serif;max-width:32em;margin:2em auto;padding:0 1em}label{display:block;margin-top:1em}
        input,select{font-size:1em;padding:.3em;width:100%;box-sizing:border-box}input[type=checkbox]{width:auto}
        button{font-size:1em;margin-top:1.5em;margin-right:.5em;padding:.5em 1em}.error{color:#b00020}fieldset{margin-top:1em}</style>
        </head><body><h1>\(htmlEscape(title))</h1>
        \(body)
        </body></html>
        """
    }

    /// An error page (e.g. 400 for an `sdk_return_to` the sandbox will not redirect to).
    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        response(
            page(
                "IFTTT sandbox: \(status.code) \(status.reasonPhrase)",
                "<p class=\"error\" role=\"alert\">\(htmlEscape(message))</p>"),
            status: status)
    }

    /// The flow's id; the flow's parameters stay on the server (they were stored when the flow started).
    static func hidden(session: String) -> String {
        "<input type=\"hidden\" name=\"activation_session\" value=\"\(htmlEscape(session))\">"
    }

    static func action(_ connectionId: String, _ step: String) -> String {
        "/access/api/\(htmlEscape(WebActivationParameters.encode(connectionId)))/\(step)"
    }

    static func alert(_ message: String?) -> String {
        message.map { "<p class=\"error\" role=\"alert\" id=\"error\">\(htmlEscape($0))</p>" } ?? ""
    }

    /// The sign-in page: e-mail (prefilled from `email` or `username`) and password.
    static func signIn(
        _ connection: SeedData.Connection, parameters: WebActivationParameters, session: String,
        error: String? = nil
    ) -> String {
        let prefill = parameters.value("email") ?? parameters.value("username") ?? ""
        return page(
            "Sign in to IFTTT",
            """
            <p>Sign in to connect <strong>\(htmlEscape(connection.name))</strong>.</p>\(alert(error))
            <form method="post" action="\(action(connection.id, "sign_in"))" id="sign-in">
            \(hidden(session: session))
            <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" value="\(htmlEscape(prefill))">
            <label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password">
            <button type="submit" id="submit">Sign in</button>
            </form>
            """)
    }

    /// The account creation page (`sdk_create_account=true`).
    static func createAccount(
        _ connection: SeedData.Connection, parameters: WebActivationParameters, session: String,
        error: String? = nil
    ) -> String {
        page(
            "Create your IFTTT account",
            """
            <p>Create an IFTTT account to connect <strong>\(htmlEscape(connection.name))</strong>.</p>\(alert(error))
            <form method="post" action="\(action(connection.id, "create_account"))" id="create-account">
            \(hidden(session: session))
            <label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" value="\(htmlEscape(parameters.value("email") ?? ""))">
            <label for="password">Choose a password</label><input id="password" name="password" type="password" autocomplete="new-password">
            <button type="submit" id="submit">Create account</button>
            </form>
            """)
    }

    /// The partner authorization page: the user allows IFTTT to use their account on the service.
    static func authorize(
        _ connection: SeedData.Connection, service: SeedData.Service, user: SeedData.User, session: String,
        error: String? = nil
    ) -> String {
        page(
            "Authorize \(service.name)",
            """
            <p>Signed in to IFTTT as <strong>\(htmlEscape(user.login))</strong>.</p>
            <p>Allow IFTTT to use your <strong>\(htmlEscape(service.name))</strong> account for \(htmlEscape(connection.name))?</p>\(alert(error))
            <form method="post" action="\(action(connection.id, "authorize"))" id="authorize">
            \(hidden(session: session))
            <button type="submit" id="submit">Authorize \(htmlEscape(service.name))</button>
            </form>
            """)
    }

    /// The configuration page: each feature with an "enabled" checkbox and its fields, Save and Cancel buttons.
    static func configure(
        _ connection: SeedData.Connection, existing: SeedData.UserConnection?, session: String,
        parameters: WebActivationParameters, errors: [String] = [], submitted: SubmittedForm? = nil
    ) -> String {
        var body = "<p>Choose how <strong>\(htmlEscape(connection.name))</strong> works for you.</p>"
        if !errors.isEmpty {
            body +=
                "<ul class=\"error\" role=\"alert\" id=\"error\">"
                + errors.map { "<li>\(htmlEscape($0))</li>" }.joined()
                + "</ul>"
        }
        body += "<form method=\"post\" action=\"\(action(connection.id, "configure"))\" id=\"configure\">\n"
        body += hidden(session: session)
        var counter = 0
        for feature in connection.features {
            let previous = existing?.userFeatures.first { $0.featureId == feature.id }
            let enabledName = WebActivationForm.enabledName(feature: feature.id)
            let enabled = submitted.map { $0[enabledName] != nil } ?? (previous?.enabled ?? true)
            counter += 1
            body += "<fieldset><legend>\(htmlEscape(feature.title))</legend>"
            body +=
                "<label for=\"f\(counter)\"><input type=\"checkbox\" id=\"f\(counter)\" name=\"\(htmlEscape(enabledName))\" value=\"on\"\(enabled ? " checked" : "")> Turn on</label>"
            for field in feature.fields where !field.hidden {
                let name = WebActivationForm.fieldName(feature: feature.id, step: nil, field: field.id)
                let current = previous?.userFields.first { $0.fieldId == field.id }?.value
                body += input(
                    field, name: name, current: current, options: connection.fieldOptions[feature.id]?[field.id] ?? [],
                    submitted: submitted, counter: &counter)
            }
            for kind in SeedData.StepKind.allCases {
                for step in feature.steps(kind) {
                    let previousStep = previous?.userSteps(kind).first { $0.featureStepId == step.id }
                    for field in step.fields where !field.hidden {
                        let name = WebActivationForm.fieldName(feature: feature.id, step: step.id, field: field.id)
                        let current = previousStep?.userFields.first { $0.fieldId == field.id }?.value
                        body += input(
                            field, name: name, current: current,
                            options: connection.fieldOptions[step.typeId]?[field.id] ?? [], submitted: submitted,
                            counter: &counter, prefix: step.label)
                    }
                }
            }
            body += "</fieldset>\n"
        }
        body += "<button type=\"submit\" name=\"action\" value=\"save\" id=\"save\">Save</button>"
        body += "<button type=\"submit\" name=\"action\" value=\"cancel\" id=\"cancel\">Cancel</button>\n</form>"
        return page("Configure \(connection.name)", body)
    }

    private static func input(
        _ field: SeedData.Field, name: String, current: JSONValue?, options: [SeedData.FieldOption],
        submitted: SubmittedForm?, counter: inout Int, prefix: String? = nil
    ) -> String {
        let value = current ?? field.defaultValue
        let label = htmlEscape((prefix.map { "\($0): " } ?? "") + field.label) + (field.required ? " (required)" : "")
        let type = field.type.uppercased()
        counter += 1
        let id = "f\(counter)"
        if type.hasPrefix("LOCATION_") {
            var out = "<p>\(label)</p>"
            for (part, title) in [
                ("lat", "Latitude"), ("lng", "Longitude"), ("radius", "Radius (m)"), ("address", "Address"),
            ] {
                counter += 1
                let partName = "\(name):\(part)"
                let shown =
                    submitted?[partName]
                    ?? WebActivationForm.text(
                        value[part] ?? (part == "lat" ? value["latitude"] : part == "lng" ? value["longitude"] : nil))
                out +=
                    "<label for=\"f\(counter)\">\(htmlEscape(title))</label><input id=\"f\(counter)\" name=\"\(htmlEscape(partName))\" value=\"\(htmlEscape(shown))\">"
            }
            return out
        }
        if type == "CHECKBOX_MULTI" {
            let chosen =
                submitted.map { $0.all(name) }
                ?? (value.arrayValue ?? []).compactMap { $0["value"]?.stringValue ?? $0.stringValue }
            var out = "<p>\(label)</p>"
            for option in options {
                counter += 1
                out +=
                    "<label for=\"f\(counter)\"><input type=\"checkbox\" id=\"f\(counter)\" name=\"\(htmlEscape(name))\" value=\"\(htmlEscape(option.value))\"\(chosen.contains(option.value) ? " checked" : "")> \(htmlEscape(option.label))</label>"
            }
            return out
        }
        let shown = submitted?[name] ?? (value["value"]?.stringValue ?? WebActivationForm.text(value))
        if !options.isEmpty {
            // Explicit types: with GRDB imported, an untyped closure here infers GRDB's `SQL` (it is
            // string-interpolable and has `joined()`), and the options came out as SQL debug descriptions.
            let choices: String = options.map { (option: SeedData.FieldOption) -> String in
                let group = option.group.map { "\($0): " } ?? ""
                return
                    "<option value=\"\(htmlEscape(option.value))\"\(option.value == shown ? " selected" : "")>\(htmlEscape(group + option.label))</option>"
            }.joined()
            return
                "<label for=\"\(id)\">\(label)</label><select id=\"\(id)\" name=\"\(htmlEscape(name))\"><option value=\"\">Choose…</option>\(choices)</select>"
        }
        return
            "<label for=\"\(id)\">\(label)</label><input id=\"\(id)\" name=\"\(htmlEscape(name))\" value=\"\(htmlEscape(shown))\">"
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
