import CZlib

/// One-shot gzip (RFC 1952) of a whole body, for `Content-Encoding: gzip`.
enum Gzip {
    /// `bytes` as one gzip member at zlib level 9 (a static file is compressed once and served
    /// many times); nil when zlib fails.
    static func compress(_ bytes: [UInt8], level: Int32 = 9) -> [UInt8]? {
        var stream = z_stream()
        guard layercast_deflate_init(&stream, level, 15 + 16, 9) == Z_OK else { return nil }  // +16: the gzip wrapper
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))) + 32)
        var input = bytes
        let written: Int = input.withUnsafeMutableBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = input.baseAddress
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                guard deflate(&stream, Z_FINISH) == Z_STREAM_END else { return -1 }
                return out.count - Int(stream.avail_out)
            }
        }
        guard written >= 0 else { return nil }
        return Array(output.prefix(written))
    }
}
