import Glibc

/// `--data`: made with its missing parents (mode 0755, as `mkdir -p`) before anything is kept in
/// it, whatever the ledger; when it cannot be, the error names the directory that failed and why.
package enum DataDirectory {
    /// Makes `path` and its missing parents; throws `configuration` naming `path`, the component
    /// that could not be made and the system's reason (`strerror`).
    package static func create(_ path: String) throws(ServerError) {
        guard !path.isEmpty else { throw .configuration("--data must name a directory, not be empty") }
        var prefix = path.hasPrefix("/") ? "/" : ""
        for component in path.split(separator: "/") {
            prefix += prefix.isEmpty || prefix.hasSuffix("/") ? String(component) : "/" + component
            if mkdir(prefix, 0o755) == 0 { continue }
            let reason = errno
            var status = stat()
            // EEXIST for a directory is what `mkdir -p` accepts; anything else at that name is not.
            if reason == EEXIST, stat(prefix, &status) == 0, status.st_mode & S_IFMT == S_IFDIR { continue }
            let why = reason == EEXIST ? "it exists and is not a directory" : String(cString: strerror(reason))
            throw .configuration("cannot create the data directory \(path) (--data): \(prefix): \(why)")
        }
    }
}
