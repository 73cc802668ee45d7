/// Drops the metadata segments of a photo as its bytes stream by: in JPEG the APP1 (Exif with GPS
/// position, camera serial numbers, XMP), APP13 (IPTC) and comment segments, before the image
/// data and between its scans, and whatever follows its end of image (a multi-picture file's
/// further pictures, each with its own Exif, or anything appended); in PNG the eXIf, tEXt, zTXt,
/// iTXt and tIME chunks. Everything else passes unchanged, the colour profile included, and so
/// does any other format (GIF has no such metadata; WebP keeps its EXIF and XMP chunks, since
/// dropping them means rewriting the RIFF header that comes first: phones send JPEG or PNG). It
/// holds at most a segment header back, never the photo.
public struct PhotoMetadataFilter: Sendable {
    private enum State: Sendable {
        case start  // collecting the first 8 bytes to recognise the format
        case passThrough
        // JPEG: after SOI, at a marker; reading a segment's 2-byte length; inside a segment (a
        // start of scan's is followed by the scan); inside a scan's entropy-coded data, just after
        // an 0xFF or not; after the end of image.
        case jpegMarker
        case jpegLength(marker: UInt8)
        case jpegSegment(remaining: Int, keep: Bool, scan: Bool)
        case jpegScan(afterFF: Bool)
        case jpegEnded
        // PNG: reading a chunk's 8-byte header (length, type); inside its data and CRC.
        case pngHeader
        case pngChunk(remaining: Int, keep: Bool)
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// APP1, APP13, COM.
    private static let droppedJPEGMarkers: Set<UInt8> = [0xE1, 0xED, 0xFE]
    private static let droppedPNGChunks: Set<String> = ["eXIf", "tEXt", "zTXt", "iTXt", "tIME"]

    private var state = State.start
    private var pending: [UInt8] = []

    public init() {}

    /// The bytes of `input` to keep, in order. Call with every piece of the photo in turn.
    public mutating func filter(_ input: ArraySlice<UInt8>) -> [UInt8] {
        var output: [UInt8] = []
        var index = input.startIndex
        while index < input.endIndex {
            switch state {
            case .passThrough:
                output += input[index...]
                index = input.endIndex
            case .start:
                pending.append(input[index])
                index += 1
                if pending.count == 8 {
                    if pending.starts(with: [0xFF, 0xD8]) {
                        // SOI, then the rest goes back through the marker reader.
                        let rest = pending.dropFirst(2)
                        output += [0xFF, 0xD8]
                        pending = []
                        state = .jpegMarker
                        output += filter(rest)
                    } else if pending == Self.pngSignature {
                        output += pending
                        pending = []
                        state = .pngHeader
                    } else {
                        output += pending
                        pending = []
                        state = .passThrough
                    }
                }
            case .jpegMarker:
                let byte = input[index]
                index += 1
                if pending.isEmpty {
                    // A stray byte where a marker belongs is kept and the next 0xFF read as a marker,
                    // as decoders do, so metadata after it still goes.
                    guard byte == 0xFF else {
                        output.append(byte)
                        continue
                    }
                    pending = [0xFF]
                } else if byte == 0xFF {
                    output.append(0xFF)  // fill byte before a marker
                } else {
                    pending = []
                    switch byte {
                    case 0xD9:  // end of image
                        output += [0xFF, byte]
                        state = .jpegEnded
                    case 0x01, 0xD0...0xD7:  // markers without a segment
                        output += [0xFF, byte]
                    default:
                        state = .jpegLength(marker: byte)
                    }
                }
            case .jpegLength(let marker):
                pending.append(input[index])
                index += 1
                guard pending.count == 2 else { continue }
                let length = Int(pending[0]) << 8 | Int(pending[1])
                let keep = !Self.droppedJPEGMarkers.contains(marker)
                if keep { output += [0xFF, marker] + pending }
                pending = []
                let scan = marker == 0xDA
                guard length >= 2 else {
                    state = .passThrough
                    continue
                }
                state =
                    length == 2
                    ? (scan ? .jpegScan(afterFF: false) : .jpegMarker) : .jpegSegment(remaining: length - 2, keep: keep, scan: scan)
            case .jpegSegment(let remaining, let keep, let scan):
                let take = min(remaining, input.endIndex - index)
                if keep { output += input[index..<index + take] }
                index += take
                guard remaining == take else {
                    state = .jpegSegment(remaining: remaining - take, keep: keep, scan: scan)
                    continue
                }
                state = scan ? .jpegScan(afterFF: false) : .jpegMarker
            case .jpegScan(let afterFF):
                let byte = input[index]
                index += 1
                guard afterFF else {
                    // An 0xFF is held until the byte after it says what it is.
                    if byte == 0xFF { state = .jpegScan(afterFF: true) } else { output.append(byte) }
                    continue
                }
                switch byte {
                case 0x00, 0xD0...0xD7:  // a stuffed 0xFF, a restart marker: still the scan
                    output += [0xFF, byte]
                    state = .jpegScan(afterFF: false)
                case 0xFF:  // fill before a marker
                    output.append(0xFF)
                case 0xD9:
                    output += [0xFF, byte]
                    state = .jpegEnded
                default:  // the scan is over: a segment follows (a table, the next scan, metadata)
                    state = .jpegLength(marker: byte)
                }
            case .jpegEnded:
                index = input.endIndex
            case .pngHeader:
                pending.append(input[index])
                index += 1
                guard pending.count == 8 else { continue }
                let length = pending[0..<4].reduce(0) { $0 << 8 | Int($1) }
                let type = String(decoding: pending[4..<8], as: UTF8.self)
                let keep = !Self.droppedPNGChunks.contains(type)
                if keep { output += pending }
                pending = []
                state = .pngChunk(remaining: length + 4, keep: keep)
            case .pngChunk(let remaining, let keep):
                let take = min(remaining, input.endIndex - index)
                if keep { output += input[index..<index + take] }
                index += take
                state = remaining == take ? .pngHeader : .pngChunk(remaining: remaining - take, keep: keep)
            }
        }
        return output
    }

    /// What is still held back once the photo has ended: the start of a header the file was cut
    /// short in, kept unless it begins a dropped segment.
    public mutating func finish() -> [UInt8] {
        defer { pending = [] }
        switch state {
        case .jpegLength(let marker):
            return Self.droppedJPEGMarkers.contains(marker) ? [] : [0xFF, marker] + pending
        case .jpegScan(afterFF: true):
            return [0xFF]
        case .start, .passThrough, .jpegMarker, .pngHeader, .jpegSegment, .jpegScan, .jpegEnded, .pngChunk:
            return pending
        }
    }
}
