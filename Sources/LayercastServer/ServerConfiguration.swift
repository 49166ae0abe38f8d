/// What the transport of `layercast serve` is told: where it listens, what it serves from disk and
/// how strictly it takes requests; each default is written here once (`Configuration` in
/// LayercastService holds it with the hub's, the ledger's, the players' and the cluster's parts).
public struct ServerConfiguration: Sendable {
    /// Address to listen on (an IPv4 or IPv6 literal, or an interface name).
    public var host = "127.0.0.1"
    /// TCP port; 0 picks a free one.
    public var port = 8080
    /// Directory served as static files.
    public var publicDirectory = "public"
    /// Origins, besides the page's own and localhost, that may connect and frame the pages;
    /// `*` allows any.
    public var allowedOrigins: [String] = []
    /// Seconds a POST body may take to arrive whole after its head; then 408 and close.
    public var bodyTimeoutSeconds: Double = 10
    /// Seconds a request head may take to arrive whole from its first byte (or a connection to
    /// send one, from its accept), however slowly it drips; then 408 and close (`--head-timeout`).
    public var headTimeoutSeconds: Double = 10
    /// Proxies (CIDRs) whose `X-Forwarded-For` names the client they speak for.
    public var trustedProxies: [String] = []
    /// Whether permessage-deflate (RFC 7692) is taken from clients that offer it: each message is
    /// compressed once, whatever number of clients it goes to (`Server+Deflate.swift`).
    public var permessageDeflate = true
    /// The number of the first client (`c…`): a cluster gives each node its own range, so that
    /// client ids are unique over the cluster.
    public var firstClientNumber = 1
    /// Whether other processes listen on the same port (`SO_REUSEPORT`, `serve --workers`): the
    /// server then makes its listening socket itself and hands each connection to lws.
    public var sharesPort = false

    /// The embedded defaults.
    public init() {}
}
