import Foundation

/// The files of `public/` read, hashed and compressed once each, kept while their size and
/// mtime are unchanged; at most `capacity` bytes in all, the least recently served going first.
/// Files over `largestFile` are not cached: they are read for each request.
final class StaticFileCache {
    let capacity: Int
    let largestFile: Int
    private var entries: [String: (size: Int, mtime: timespec, file: StaticFile, used: Int)] = [:]
    private var footprint = 0
    private var clock = 0

    init(capacity: Int = 32 << 20, largestFile: Int = 4 << 20) {
        self.capacity = capacity
        self.largestFile = largestFile
    }

    /// The served form of the regular file at `path` (a path `StaticFiles.file(for:)` gave),
    /// from the cache while its size and mtime are those it was read with; nil when unreadable.
    func file(at path: String) -> StaticFile? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let size = Int(info.st_size), mtime = info.st_mtim
        clock += 1
        if let entry = entries[path], entry.size == size, entry.mtime.tv_sec == mtime.tv_sec, entry.mtime.tv_nsec == mtime.tv_nsec {
            entries[path]?.used = clock
            return entry.file
        }
        forget(path)
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let file = StaticFile(bytes: [UInt8](data), type: StaticFiles.contentType(for: path))
        guard data.count == size, file.footprint <= largestFile else { return file }  // changing as read, or large
        entries[path] = (size, mtime, file, clock)
        footprint += file.footprint
        while footprint > capacity, let oldest = entries.min(by: { $0.value.used < $1.value.used })?.key { forget(oldest) }
        return file
    }

    /// Bytes the cached files hold.
    var bytesHeld: Int { footprint }

    private func forget(_ path: String) {
        guard let entry = entries.removeValue(forKey: path) else { return }
        footprint -= entry.file.footprint
    }
}
