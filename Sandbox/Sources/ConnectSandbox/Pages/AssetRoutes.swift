import Foundation
import Hummingbird

/// Images the sandbox serves itself, so that responses carry working absolute URLs without network access:
///
/// * `GET /assets/icons/{service_id}.png`: the service's monochrome icon (white initials, transparent background),
///   a PNG as IFTTT serves its icons; `.svg` gives the same icon as SVG.
/// * `GET /assets/icons/color/{service_id}.png`: the colour icon (white initials on the brand colour); also `.svg`.
/// * `GET /assets/covers/{connection_id}/{width}w.svg`: a cover image in the primary service's brand colour.
struct AssetRoutes: SandboxRoutes {
    let env: RouteEnvironment

    func register(on router: SandboxRouter) {
        router.get("/assets/icons/:file") { _, context in
            try await iconResponse(file: context.pathParameter("file"), colored: false)
        }
        router.get("/assets/icons/color/:file") { _, context in
            try await iconResponse(file: context.pathParameter("file"), colored: true)
        }
        router.get("/assets/covers/:connection_id/:file") { _, context in
            let file = context.pathParameter("file")
            guard file.hasSuffix("w.svg"), let width = Int(file.dropLast(5)),
                ConnectionRenderer.coverWidths.contains(width),
                let snapshot = try await env.store.snapshot(
                    connectionId: context.pathParameter("connection_id"), userId: nil),
                let primary = snapshot.services.first(where: { $0.id == snapshot.connection.primaryServiceId })
            else {
                throw APIError.notFound("There is no such cover image.")
            }
            return PageResponse.svg(Self.cover(primary, width: width))
        }
    }

    /// The icon `{service_id}.png` or `{service_id}.svg`.
    private func iconResponse(file: String, colored: Bool) async throws -> Response {
        let isPNG = file.hasSuffix(".png")
        guard isPNG || file.hasSuffix(".svg"), let service = try await env.store.service(id: String(file.dropLast(4)))
        else {
            throw APIError.notFound("There is no such icon.")
        }
        return isPNG
            ? PageResponse.png(Self.png(service, colored: colored))
            : PageResponse.svg(Self.icon(service, colored: colored))
    }

    /// Up to two initials of the service name, e.g. `GE` for Grocery Express.
    static func initials(_ name: String) -> String {
        let letters = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).compactMap(\.first)
        return String(letters.prefix(2)).uppercased()
    }

    static func icon(_ service: SeedData.Service, colored: Bool) -> String {
        let initials = initials(service.name)
        return PageTemplates.render(
            "asset-icon",
            [
                "name": service.name, "colored": colored, "color": service.brandColor,
                "fontSize": initials.count > 1 ? 56 : 72, "initials": initials,
            ] as [String: any Sendable])
    }

    static func png(_ service: SeedData.Service, colored: Bool) -> [UInt8] {
        IconPNG.icon(
            initials: initials(service.name), background: colored ? IconPNG.rgb(hex: service.brandColor) : nil)
    }

    static func cover(_ service: SeedData.Service, width: Int) -> String {
        PageTemplates.render(
            "asset-cover",
            [
                "width": width, "height": width * 9 / 16, "color": service.brandColor,
                "initials": initials(service.name),
            ] as [String: any Sendable])
    }
}
