import Foundation

/// Everything `layercast serve` can be told; the defaults are the embedded defaults.
public struct ServerConfiguration: Sendable {
    /// Address to listen on (an IPv4 or IPv6 literal, or an interface name).
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one.
    public var port = 8080
    /// Directory served as static files.
    public var publicDirectory = "public"
    /// Frames per second of every room, 1…120.
    public var fps = 30
    /// Most WebSocket clients at once, over all rooms.
    public var maxClients = 1000
    /// Origins, besides the page's own and localhost, that may connect and frame the pages;
    /// `*` allows any.
    public var allowedOrigins: [String] = []
    /// Seconds an empty room lives before it is removed.
    public var roomIdleSeconds: Double = 30
    /// Seconds a client may go without taking a frame before it is dropped.
    public var stallTimeoutSeconds: Double = 10

    public init() {}
}
