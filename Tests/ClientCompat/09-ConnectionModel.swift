// The Connection model as 2.8 apps read it (the "Advanced" parts of the README and the public model).
import Foundation
import IFTTTConnectSDK

func describe(_ connection: Connection) -> String {
    var lines: [String] = []
    let id: String = connection.id
    let name: String = connection.name
    let description: String = connection.description
    let url: URL = connection.url
    lines.append("\(id) \(name) \(description) \(url)")
    switch connection.status {
    case .initial: lines.append("never enabled")
    case .enabled: lines.append("enabled")
    case .disabled: lines.append("disabled")
    case .unknown: lines.append("unknown")
    }
    let primary: Connection.Service = connection.primaryService
    let services: [Connection.Service] =
        connection.services + connection.worksWithServices + [connection.connectingService]
    for service in services {
        let serviceId: String = service.id
        let serviceName: String = service.name
        let shortName: String = service.shortName
        let isPrimary: Bool = service.isPrimary
        let icon: URL = service.templateIconURL
        let page: URL = service.url
        lines.append("\(serviceId) \(serviceName) \(shortName) \(isPrimary) \(icon) \(page)")
    }
    for feature in connection.features {
        let title: String = feature.title
        let details: String? = feature.details
        let icon: URL? = feature.iconURL
        lines.append("\(title) \(details ?? "") \(icon?.absoluteString ?? "") \(feature.triggers.count)")
    }
    if let cover = connection.coverImage(size: .w1440) {
        let coverURL: URL? = cover.url
        let size: Connection.CoverImage.Size = cover.size
        lines.append("\(coverURL?.absoluteString ?? "") \(size.rawValue)")
    }
    #if !canImport(UIKit)
    if let best = connection.coverImage(for: 320, scale: 2) {
        lines.append(best.url.absoluteString)
    }
    #endif
    let sameConnection: Bool = connection == primaryConnectionCopy(connection)
    var seen = Set<Connection>()
    seen.insert(connection)
    lines.append("\(sameConnection) \(seen.count) \(primary.id)")
    return lines.joined(separator: "\n")
}

private func primaryConnectionCopy(_ connection: Connection) -> Connection {
    return connection
}

#if canImport(UIKit)
import UIKit

@MainActor
func coverImageURL(for connection: Connection, width: CGFloat) -> URL? {
    return connection.coverImage(for: width)?.url ?? connection.coverImage(for: width, scale: 3)?.url
}
#endif
