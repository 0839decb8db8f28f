import AppCommandLine
import Foundation

/// Standard output written in chunks of 64 KiB with `write(2)`, for output
/// that grows with the database (`list`, `export -`): appending copies
/// bytes into one reused buffer, so that a row costs no allocation, and
/// the memory stays the same whatever the number of rows.
///
/// ```swift
/// var output = BufferedOutput()
/// output.append("ID  NAME\n")
/// output.appendDecimal(42, width: 4)
/// try output.flush()
/// ```
struct BufferedOutput: ~Copyable {
    private static let capacity = 65_536
    private let descriptor: Int32
    private var buffer: [UInt8]

    init(descriptor: Int32 = STDOUT_FILENO) {
        self.descriptor = descriptor
        buffer = []
        buffer.reserveCapacity(Self.capacity)
    }

    /// Appends bytes, writing the buffer out each time it is full: a large
    /// collection goes through it in chunks.
    mutating func append(_ bytes: some Collection<UInt8>) throws {
        var start = bytes.startIndex
        while start != bytes.endIndex {
            let end = bytes.index(start, offsetBy: Self.capacity - buffer.count, limitedBy: bytes.endIndex) ?? bytes.endIndex
            buffer.append(contentsOf: bytes[start..<end])
            start = end
            if buffer.count >= Self.capacity { try flush() }
        }
    }

    /// Appends the UTF-8 bytes of a string.
    mutating func append(_ text: String) throws {
        try append(text.utf8)
    }

    /// Appends `count` spaces.
    mutating func appendSpaces(_ count: Int) throws {
        guard count > 0 else { return }
        try append(repeatElement(UInt8(ascii: " "), count: count))
    }

    /// Appends an integer in decimal, right-aligned in `width` characters,
    /// without making a string of it.
    mutating func appendDecimal(_ value: Int64, width: Int = 0) throws {
        let digits = Self.decimalLength(value)
        try appendSpaces(width - digits)
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        let start = buffer.count
        // Digits from the last; a negative remainder is never below -9.
        var rest = value
        repeat {
            buffer.append(UInt8(ascii: "0") + UInt8((rest % 10).magnitude))
            rest /= 10
        } while rest != 0
        buffer[start...].reverse()
        if buffer.count >= Self.capacity { try flush() }
    }

    /// The characters of `value` in decimal, its sign included.
    static func decimalLength(_ value: Int64) -> Int {
        var length = value < 0 ? 2 : 1
        var rest = value / 10
        while rest != 0 {
            length += 1
            rest /= 10
        }
        return length
    }

    /// Writes out what the buffer holds, resuming after short and
    /// interrupted writes.
    mutating func flush() throws {
        var offset = 0
        try buffer.withUnsafeBytes { bytes in
            while offset < bytes.count {
                let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    throw CLIError.failure(
                        "cannot write to standard output (\(String(cString: strerror(errno)))): check the file or the program it goes to")
                }
                offset += written
            }
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
