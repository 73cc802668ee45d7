import Domain
import PropertyBased
import Testing

/// Photos lose their Exif (GPS position), XMP, IPTC and comments on the way in, whatever the
/// chunks they arrive in; the image itself passes byte for byte.
@Suite("Photo metadata filter")
struct PhotoMetadataFilterTests {
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    static let gps = Array("Exif\u{0}\u{0}GPSLatitude 35.6895N GPSLongitude 139.6917E".utf8)
    static let jfif = segment(0xE0, Array("JFIF\u{0}\u{1}\u{1}".utf8) + [0, 1, 0, 1, 0, 0])
    static let icc = segment(0xE2, Array("ICC_PROFILE\u{0}".utf8) + [1, 1, 9, 9])
    static let quantization = segment(0xDB, [0] + Array(repeating: 3, count: 64))
    /// A start of scan and its entropy-coded data: a stuffed 0xFF, a restart marker, fill bytes.
    static let scanData = segment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD0, 0x56, 0xFF, 0x00]
    static let scan = scanData + [0xFF, 0xD9]

    static let withMetadata: [UInt8] =
        [0xFF, 0xD8] + jfif + segment(0xE1, gps) + icc + segment(0xED, Array("Photoshop 3.0".utf8)) + segment(0xFE, Array("secret".utf8))
        + quantization + scan
    static let stripped: [UInt8] = [0xFF, 0xD8] + jfif + icc + quantization + scan

    static func filtered(_ bytes: [UInt8], chunk size: Int) -> [UInt8] {
        var filter = PhotoMetadataFilter()
        var output: [UInt8] = []
        var start = 0
        while start < bytes.count {
            output += filter.filter(bytes[start..<min(bytes.count, start + size)])
            start += size
        }
        return output + filter.finish()
    }

    @Test(arguments: [1, 2, 5, 64, 100_000])
    func aJPEGLosesItsExifIPTCAndCommentsOnly(chunk: Int) {
        #expect(Self.filtered(Self.withMetadata, chunk: chunk) == Self.stripped)
    }

    /// A multi-picture file (MPO: pictures one after another, each with its own Exif) keeps its
    /// first picture only, and metadata between a progressive JPEG's scans goes too.
    @Test(arguments: [1, 3, 100_000])
    func nothingAfterTheEndOfImageNorMetadataBetweenScansRemains(chunk: Int) {
        #expect(Self.filtered(Self.withMetadata + Self.withMetadata, chunk: chunk) == Self.stripped)
        #expect(Self.filtered(Self.withMetadata + Array("<html><script>".utf8), chunk: chunk) == Self.stripped)
        // A stray byte where a marker belongs does not stop the filtering.
        let stray = [0xFF, 0xD8] + Self.jfif + [0x00] + Self.segment(0xE1, Self.gps) + Self.quantization + Self.scan
        #expect(Self.filtered(stray, chunk: chunk) == [0xFF, 0xD8] + Self.jfif + [0x00] + Self.quantization + Self.scan)
        let table = Self.segment(0xC4, [0, 1, 2, 3])
        let progressive =
            [0xFF, 0xD8] + Self.jfif + Self.quantization + Self.scanData + table + Self.segment(0xE1, Self.gps) + [0xFF, 0xFF]
            + Self.scanData + [0xFF, 0xD9]
        #expect(
            Self.filtered(progressive, chunk: chunk)
                == [0xFF, 0xD8] + Self.jfif + Self.quantization + Self.scanData + table + [0xFF, 0xFF] + Self.scanData + [0xFF, 0xD9])
    }

    @Test func aPNGLosesItsTextAndExifChunks() {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let n = data.count
            return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + Array(type.utf8) + data + [1, 2, 3, 4]
        }
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let header = chunk("IHDR", Array(repeating: 1, count: 13))
        let image = chunk("IDAT", Array(repeating: 7, count: 300)) + chunk("IEND", [])
        let png = signature + header + chunk("eXIf", Self.gps) + chunk("tEXt", Array("Author\u{0}me".utf8)) + chunk("iTXt", [9]) + image
        for size in [1, 3, 1000] { #expect(Self.filtered(png, chunk: size) == signature + header + image) }
    }

    @Test func otherFormatsAndCutFilesPassUnchanged() {
        let gif = Array("GIF89a".utf8) + Array(repeating: 5, count: 50)
        #expect(Self.filtered(gif, chunk: 7) == gif)
        #expect(Self.filtered([0xFF, 0xD8, 0xFF], chunk: 1) == [0xFF, 0xD8, 0xFF])
        // Cut short anywhere: what comes out is the start of the stripped photo.
        for length in 0..<Self.withMetadata.count {
            let cut = Self.filtered(Array(Self.withMetadata.prefix(length)), chunk: 4)
            #expect(Self.stripped.starts(with: cut), "cut at \(length)")
        }
    }

    @Test func anyBytesInAnyChunksGiveTheSameOutputAndNeverTrap() async {
        let bytes = Gen<UInt8>.value(in: 0...255).array(of: 0...300)
        await propertyCheck(count: 300, input: bytes, Gen.int(in: 1...40)) { tail, size in
            let input = [0xFF, 0xD8] + tail
            #expect(Self.filtered(input, chunk: size) == Self.filtered(input, chunk: input.count + 1))
            let png = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + tail
            #expect(Self.filtered(png, chunk: size) == Self.filtered(png, chunk: png.count + 1))
        }
    }
}
