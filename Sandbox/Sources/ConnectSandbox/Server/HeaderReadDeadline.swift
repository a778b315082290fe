import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// Closes a connection that does not deliver its request in time, and takes part in the sandbox's connection cap
/// (``ConnectionRegistry``). Sits in the channel pipeline after the HTTP codec; one instance per connection.
///
/// * **Head**: a complete request head within ``timeout`` of the server starting to wait for one (after the
///   connection opens, and after each response on a kept-alive connection). Slowloris clients, which send a header
///   byte now and then, hold nothing longer than that.
/// * **Body**: the whole body within ``bodyTimeout`` of the head (issue 30, hole 4: a complete head with
///   `Content-Length: 1048576` and no body had no deadline at all, and 20,000 such connections exhausted the
///   sandbox's descriptors).
final class HeaderReadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// How long a connection may take to deliver a request head.
    let timeout: TimeAmount
    /// How long a request may take to deliver its body after its head.
    let bodyTimeout: TimeAmount
    /// The sandbox's open connections, shared by every connection's handler.
    let registry: ConnectionRegistry?
    private var deadline: Scheduled<Void>?
    private var registration: ConnectionRegistry.ID?

    init(timeout: TimeAmount, bodyTimeout: TimeAmount = .seconds(30), registry: ConnectionRegistry? = nil) {
        self.timeout = timeout
        self.bodyTimeout = bodyTimeout
        self.registry = registry
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if deadline == nil { start(context) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        disarm()
        leave()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        disarm()
        leave()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head: arm(context, bodyTimeout)
        case .end:
            disarm()
            if let registration { registry?.setBusy(registration, true) }
        case .body: break
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) {
            // The response is complete: the connection now waits for its next request head.
            if let registration { registry?.setBusy(registration, false) }
            arm(context, timeout)
        }
        context.write(data, promise: promise)
    }

    private func start(_ context: ChannelHandlerContext) {
        arm(context, timeout)
        guard registration == nil, let registry else { return }
        registration = registry.open(context.channel)
    }

    private func leave() {
        if let registration { registry?.close(registration) }
        registration = nil
    }

    private func arm(_ context: ChannelHandlerContext, _ amount: TimeAmount) {
        disarm()
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: amount) {
            loopBound.value.close(promise: nil)
        }
    }

    private func disarm() {
        deadline?.cancel()
        deadline = nil
    }
}

/// The sandbox's open connections, at most ``limit`` (issue 30, hole 4). Fair to clients that send their requests:
/// when a new connection arrives at the limit, the connection that has waited longest for its request (a head or a
/// body) is closed to make room, so a flood of held-open connections only ever displaces held-open connections,
/// and a request being answered is never cut. Only when every connection is busy answering is the new one closed.
final class ConnectionRegistry: Sendable {
    typealias ID = Int

    private struct Entry {
        let channel: any Channel
        var busy: Bool
        var since: Int
    }

    private struct State {
        var next = 0
        var entries: [ID: Entry] = [:]
    }

    /// The most connections kept open at once.
    let limit: Int
    private let state = NIOLockedValueBox(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// How many connections are open.
    var count: Int { state.withLockedValue { $0.entries.count } }

    /// Registers `channel`; at the limit, closes the connection waiting longest (or `channel` itself when every
    /// other one is busy). Returns the registration, or `nil` when `channel` was refused.
    func open(_ channel: any Channel) -> ID? {
        let (id, victim): (ID?, (any Channel)?) = state.withLockedValue { state in
            var victim: (any Channel)?
            if state.entries.count >= limit {
                guard
                    let oldest = state.entries.filter({ !$0.value.busy }).min(by: { $0.value.since < $1.value.since })
                else { return (nil, channel) }
                victim = oldest.value.channel
                state.entries.removeValue(forKey: oldest.key)
            }
            state.next += 1
            state.entries[state.next] = Entry(channel: channel, busy: false, since: state.next)
            return (state.next, victim)
        }
        victim?.close(promise: nil)
        return id
    }

    /// Marks a connection as answering a request (not to be closed for room) or waiting again.
    func setBusy(_ id: ID, _ busy: Bool) {
        state.withLockedValue { state in
            guard state.entries[id] != nil else { return }
            state.entries[id]!.busy = busy
            if !busy {
                state.next += 1
                state.entries[id]!.since = state.next
            }
        }
    }

    /// Forgets a closed connection.
    func close(_ id: ID) {
        _ = state.withLockedValue { $0.entries.removeValue(forKey: id) }
    }
}
