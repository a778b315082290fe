import Foundation
import Hummingbird
@_spi(Sandbox) import IFTTTConnectSDK

/// Cursor pagination of the sandbox's list endpoints (`GET /v1/location_events`, `GET /sandbox/sdk_events`,
/// `GET /v1/services/{slug}/applets`).
///
/// * Without `limit` a list answers every item, as before pagination existed (`{"type":"list","data":[...]}`); the
///   long lists are streamed in chunks of ``chunkSize`` items, so the server's memory stays bounded.
/// * With `limit` (1...``maximumLimit``) it answers at most that many items and adds `"cursor"`: an opaque string to
///   pass as `cursor` for the next page, or `null` on the last page. A cursor is also accepted without `limit`
///   (the page size is then ``defaultLimit``).
/// * A `limit` outside the range, or a cursor this list did not issue, is 400 `invalid_parameters`.
///
/// Cursors are positions (the last item's key), not offsets, so items added while a client pages are never seen
/// twice or skipped among the older ones.
struct ListPage: Sendable, Equatable {
    /// The largest `limit`.
    static let maximumLimit = 1_000
    /// The page size when a `cursor` comes without `limit`.
    static let defaultLimit = 100
    /// How many items one database read of a streamed (unlimited) list holds.
    static let chunkSize = 1_000

    /// The page size; `nil` when the client asked for the whole list.
    var limit: Int?
    /// The key of the last item already seen (exclusive lower bound), or `nil` from the start.
    var after: Int64?

    /// Reads `limit` and `cursor` from the query of `request`; `kind` names the list the cursor must belong to.
    init(_ request: Request, kind: String) throws {
        let limitText = request.query("limit").flatMap { $0.isEmpty ? nil : $0 }
        let cursorText = request.query("cursor").flatMap { $0.isEmpty ? nil : $0 }
        if let limitText {
            guard let value = Int(limitText), (1...Self.maximumLimit).contains(value) else {
                throw APIError.badRequest(
                    "limit must be a whole number from 1 to \(Self.maximumLimit).",
                    details: [.init(parameter: "limit", message: "must be between 1 and \(Self.maximumLimit)")])
            }
            limit = value
        }
        if let cursorText {
            guard let position = Self.decode(cursorText, kind: kind) else {
                throw APIError.badRequest(
                    "The cursor is not one this list issued.",
                    details: [.init(parameter: "cursor", message: "is invalid")])
            }
            after = position
            if limit == nil { limit = Self.defaultLimit }
        }
    }

    /// A page request in code (tests, the CLI).
    init(limit: Int?, after: Int64? = nil) {
        self.limit = limit
        self.after = after
    }

    /// The opaque cursor for the position `key` of list `kind`.
    static func encode(_ key: Int64, kind: String) -> String {
        // base64url without padding, in one pass over the base64 text.
        var bytes: [UInt8] = []
        for byte in Data("\(kind):\(key)".utf8).base64EncodedString().utf8 {
            switch byte {
            case UInt8(ascii: "+"): bytes.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): bytes.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The position in `cursor` when it belongs to list `kind`.
    static func decode(_ cursor: String, kind: String) -> Int64? {
        guard cursor.count <= 64 else { return nil }
        var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8) else { return nil }
        let prefix = kind + ":"
        guard text.hasPrefix(prefix), let key = Int64(text.dropFirst(prefix.count)), key >= 0 else { return nil }
        return key
    }
}

/// One page of items read from the store, with the key to continue after (`nil` on the last page).
struct StorePage<Item: Sendable>: Sendable {
    /// The items, in list order.
    var items: [Item]
    /// The key of the last item when more items follow.
    var nextAfter: Int64?
}

extension JSONResponse {
    /// `{"type":"list","data":[...],"cursor":...}` for one page (`"cursor"` only when the client asked for a page).
    static func page(_ data: [JSONValue], next: Int64?, kind: String, paged: Bool) -> Response {
        var members: JSONObject = ["type": "list", "data": .array(data)]
        if paged { members["cursor"] = .optional(next.map { ListPage.encode($0, kind: kind) }) }
        return make(.object(members))
    }

    /// Ends a page whose `buffer` already holds `{"type":"list","data":[` and the items: `],"cursor":...}`.
    static func page(buffer: ByteBuffer, next: Int64?, kind: String) -> Response {
        var body = buffer
        body.writeString("],\"cursor\":")
        if let next {
            // A cursor is base64url text: nothing in it needs escaping.
            body.writeString("\"\(ListPage.encode(next, kind: kind))\"}")
        } else {
            body.writeString("null}")
        }
        var headers = HTTPFields()
        headers[.contentType] = JSONResponse.contentType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: body))
    }

    /// `{"type":"list","data":[...]}` with every item, streamed chunk by chunk: `fetch(after, first)` writes the items
    /// after a key (at most ``ListPage/chunkSize``) into a buffer, comma-separated and with a leading comma unless no
    /// item was written before (`first`). Memory holds one chunk at a time. The one read-all-pages loop of the
    /// sandbox's lists.
    static func streamedChunks(
        fetch: @escaping @Sendable (Int64?, Bool) async throws -> (buffer: ByteBuffer, count: Int, nextAfter: Int64?)
    ) async throws -> Response {
        // The first chunk is read before answering, so a database error is still a proper error response.
        let first = try await fetch(nil, true)
        var headers = HTTPFields()
        headers[.contentType] = JSONResponse.contentType
        let body = ResponseBody { writer in
            var chunk = first
            var written = 0
            try await writer.write(ByteBuffer(string: "{\"type\":\"list\",\"data\":["))
            while true {
                try await writer.write(chunk.buffer)
                written += chunk.count
                guard let next = chunk.nextAfter else { break }
                chunk = try await fetch(next, written == 0)
            }
            try await writer.write(ByteBuffer(string: "]}"))
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    /// ``streamedChunks(fetch:)`` over items read as ``StorePage``s: `fetch(after)` reads the next page and `render`
    /// turns an item into JSON text.
    static func streamedList<Item: Sendable>(
        fetch: @escaping @Sendable (Int64?) async throws -> StorePage<Item>,
        render: @escaping @Sendable (Item) -> String
    ) async throws -> Response {
        try await streamedChunks { after, first in
            let page = try await fetch(after)
            var chunk = ""
            chunk.reserveCapacity(page.items.count * 320)
            for (index, item) in page.items.enumerated() {
                if index > 0 || !first { chunk += "," }
                chunk += render(item)
            }
            return (ByteBuffer(string: chunk), page.items.count, page.nextAfter)
        }
    }
}
