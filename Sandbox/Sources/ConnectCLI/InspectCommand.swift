import ArgumentParser
import Foundation
@_spi(Sandbox) import IFTTTConnectSDK
@_spi(Sandbox) import IFTTTSDK

/// `ifttt-connect inspect FILE`: decodes a Connection (or legacy Applet) payload and prints a normalized summary.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Decode a Connection or legacy Applet payload and print a normalized JSON summary.",
        discussion: "Bad input exits with status 1 and prints the typed error with its JSON path."
    )

    @Argument(help: "The JSON file to decode ('-' reads standard input).")
    var file: String

    func run() throws {
        let data: Data
        do {
            data =
                file == "-"
                ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            warn("error: cannot read \(file): \(FileProblem.reading(file))")
            throw ExitCode(1)
        }
        do {
            say(try Self.summary(of: data).prettySerialized())
        } catch {
            warn("error: \(error)")
            warn("path: \(error.path)")
            throw ExitCode(1)
        }
    }

    /// The normalized summary of a payload: an Applet when `type` is `applet`, a Connection otherwise.
    /// The type is peeked with `JSONDecoder`; the decoding itself (and every error) is the SDK's.
    static func summary(of data: Data) throws(ConnectDecodingError) -> JSONValue {
        struct Peek: Decodable { let type: String? }
        if (try? JSONDecoder().decode(Peek.self, from: data))?.type == "applet" {
            return summary(of: try IFTTTApplet.decode(from: data))
        }
        return summary(of: try Connection.decode(from: data))
    }

    static func summary(of connection: Connection) -> JSONValue {
        func service(_ s: Connection.Service) -> JSONValue {
            .object(
                JSONObject([
                    ("id", .string(s.id)), ("name", .string(s.name)), ("short_name", .string(s.shortName)),
                    ("is_primary", .bool(s.isPrimary)), ("brand_color", s.brandColor.map { .string($0.hex) } ?? .null),
                ]))
        }
        func steps(_ steps: [Connection.Step]) -> JSONValue {
            .array(
                steps.map { step in
                    .object(
                        JSONObject([
                            ("id", .string(step.id)), ("type", .string(step.qualifiedTypeId)),
                            (
                                "fields",
                                .array(
                                    step.fields.map { field in
                                        .object(
                                            JSONObject([
                                                ("id", .string(field.id)),
                                                ("type", field.type.map { .string($0.rawValue) } ?? .null),
                                                ("required", .bool(field.isRequired)),
                                            ]))
                                    })
                            ),
                        ]))
                })
        }
        return .object(
            JSONObject([
                ("kind", .string("connection")),
                ("id", .string(connection.id)),
                ("name", .string(connection.name)),
                ("status", .string(connection.status == .initial ? "never_enabled" : connection.status.rawValue)),
                ("services", .array(connection.services.map(service))),
                ("primary_service", .string(connection.primaryService.id)),
                ("connecting_service", .string(connection.connectingService.id)),
                (
                    "features",
                    .array(
                        connection.features.map { feature in
                            .object(
                                JSONObject([
                                    ("id", .string(feature.id)), ("title", .string(feature.title)),
                                    (
                                        "user_enabled",
                                        .bool(connection.userFeatures(for: feature).contains { $0.isEnabled })
                                    ),
                                    ("triggers", steps(feature.triggers)), ("queries", steps(feature.queries)),
                                    ("actions", steps(feature.actions)),
                                ]))
                        })
                ),
                (
                    "location_regions",
                    .array(
                        connection.locationRegions.map { region in
                            .object(
                                JSONObject([
                                    ("identifier", .string(region.identifier)),
                                    ("trigger_subscription_id", .string(region.triggerSubscriptionId)),
                                    ("lat", .number(region.latitude)), ("lng", .number(region.longitude)),
                                    ("radius", .number(region.radius)),
                                    ("transitions", .array(region.transitions.names.map(JSONValue.string))),
                                ]))
                        })
                ),
            ]))
    }

    static func summary(of applet: IFTTTApplet) -> JSONValue {
        .object(
            JSONObject([
                ("kind", .string("applet")),
                ("id", .string(applet.id)),
                ("name", .string(applet.name)),
                ("status", .string(applet.status.rawValue)),
                ("enabled_count", .number(Double(applet.enabledCount))),
                ("published_at", applet.publishedAt.map { .string($0.formatted(.iso8601)) } ?? .null),
                ("primary_service", .string(applet.primaryService.id)),
                ("secondary_services", .array(applet.secondaryServices.map { .string($0.id) })),
                ("embedded_url", .string(applet.embeddedURL.absoluteString)),
            ]))
    }
}
