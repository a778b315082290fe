import Foundation
import Mustache

/// The sandbox's pages as Mustache templates (`Resources/templates/NAME.mustache`), rendered with escaping by
/// default: `{{value}}` is escaped for markup, and only `{{{value}}}` is not (kept for markup the sandbox built
/// itself, such as the SDK's button SVG; never for a value from a request or the store).
///
/// ```swift
/// struct Message { var title: String; var message: String }
/// let html = PageTemplates.render("error", Message(title: "Not found", message: "There is no such page."))
/// return WebActivationPages.response(html, status: .notFound)
/// ```
///
/// A template names its layout and fills its blocks: `{{<layout}}{{$body}}<p>{{message}}</p>{{/body}}{{/layout}}`
/// (`layout.mustache` holds the document, the `<title>` and `<h1>` from `title`, and the default style; the
/// blocks `head`, `style`, `heading` and `body` can be replaced). Values are read from the context by name: the
/// stored properties of a struct, or the keys of a dictionary.
///
/// **Escaping.** Every template starts with ``pragma``, which makes ``MarkupEscaping`` its escaper, and loading
/// refuses a template without it. swift-mustache's own HTML escaping (its default) compares `Character`s, so a
/// markup character followed by a combining mark (`"` then U+0301 is one `Character`) is not escaped and ends an
/// attribute value; ``MarkupEscaping`` works on UTF-8 bytes, as browsers parse them.
enum PageTemplates {
    /// The content type name of ``MarkupEscaping`` in the templates' pragma.
    static let contentTypeName = "SANDBOX_MARKUP"

    /// The first line of every template: selects ``MarkupEscaping`` for everything the template renders.
    static let pragma = "{{% CONTENT_TYPE: \(contentTypeName)}}"

    /// The templates shipped in this module's `Resources/templates`, loaded on first use. A process-wide constant
    /// on purpose: the templates are resources of the module, immutable once loaded, like `Bundle.module` itself,
    /// so every page function can render without a library passed through every route.
    static let library: Result<MustacheLibrary, PageTemplateError> = Result {
        () throws(PageTemplateError) -> MustacheLibrary in try load(from: directory)
    }

    /// `Resources/templates` in the module's resource bundle.
    static var directory: URL {
        Bundle.module.url(forResource: "templates", withExtension: nil, subdirectory: "Resources")
            ?? Bundle.module.bundleURL.appendingPathComponent("Resources/templates")
    }

    /// Renders the template `name` with `context`. When the templates cannot be loaded (a broken installation),
    /// the answer is a short page saying so rather than a crash.
    static func render(_ name: String, _ context: Any) -> String {
        switch library {
        case .success(let library):
            if let html = library.render(context, withTemplate: name) { return html }
            return failurePage("there is no template \(name)")
        case .failure(let error):
            return failurePage(String(describing: error))
        }
    }

    /// Loads every `*.mustache` file under `directory` (a file `a/b.mustache` is the template `a/b`).
    ///
    /// - Throws: ``PageTemplateError`` when the directory cannot be read, a template does not start with
    ///   ``pragma``, or a template does not parse.
    static func load(from directory: URL) throws(PageTemplateError) -> MustacheLibrary {
        // The pragma is resolved when a template is parsed: register the escaper first. Registering it again
        // (another load) replaces it with an equal value.
        MustacheContentTypes.register(MarkupEscaping(), named: contentTypeName)
        let manager = FileManager.default
        guard let enumerator = manager.enumerator(atPath: directory.path) else {
            throw .unreadable(directory.path)
        }
        var templates: [String: MustacheTemplate] = [:]
        for case let path as String in enumerator where path.hasSuffix(".mustache") {
            let name = String(path.dropLast(".mustache".count))
            guard let data = manager.contents(atPath: directory.appendingPathComponent(path).path) else {
                throw .unreadable(path)
            }
            let text = String(decoding: data, as: UTF8.self)
            guard text.hasPrefix(pragma) else { throw .missingPragma(name) }
            do {
                templates[name] = try MustacheTemplate(string: text)
            } catch {
                throw .invalid(name, String(describing: error))
            }
        }
        guard !templates.isEmpty else { throw .unreadable(directory.path) }
        return MustacheLibrary(templates: templates)
    }

    private static func failurePage(_ reason: String) -> String {
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>IFTTT sandbox</title></head><body>"
            + "<p>The sandbox's page templates are broken: \(MarkupEscaping().escapeText(reason))</p></body></html>"
    }
}

/// Why the page templates could not be loaded.
enum PageTemplateError: Error, CustomStringConvertible {
    /// The directory or a file in it cannot be read.
    case unreadable(String)
    /// The template does not start with ``PageTemplates/pragma``.
    case missingPragma(String)
    /// The template does not parse.
    case invalid(String, String)

    var description: String {
        switch self {
        case .unreadable(let path): "cannot read \(path)"
        case .missingPragma(let name): "the template \(name) does not start with \(PageTemplates.pragma)"
        case .invalid(let name, let reason): "the template \(name) does not parse: \(reason)"
        }
    }
}

/// The templates' escaper: ``htmlEscape(_:)``, for HTML and SVG alike (element content and quoted attribute values).
struct MarkupEscaping: MustacheContentType {
    func escapeText(_ text: String) -> String { htmlEscape(text) }
}
