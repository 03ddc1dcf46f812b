#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--color=auto|always|never`: colour on a terminal, as jq does, unless `NO_COLOR` is set.
enum ColorChoice: String, CaseIterable {
  case auto, always, never

  /// Whether output to `fd` gets colour.
  func colors(_ fd: Int32) -> Bool {
    switch self {
    case .always: return true
    case .never: return false
    case .auto:
      // https://no-color.org: a non-empty NO_COLOR turns colour off.
      if isSetInEnvironment("NO_COLOR") { return false }
      return isatty(fd) == 1
    }
  }
}

/// Colours JSON text as it is written (keys blue, strings green, null grey, as jq does):
/// a byte-by-byte reading of the writer's output, which is valid JSON, across chunks of any
/// size. A string is a key when it opens a member: in an object, after `{` or `,`.
struct JSONColorizer {
  static let key: [UInt8] = Array("\u{1B}[34;1m".utf8)
  static let string: [UInt8] = Array("\u{1B}[32m".utf8)
  static let null: [UInt8] = Array("\u{1B}[1;30m".utf8)
  static let reset: [UInt8] = Array("\u{1B}[0m".utf8)

  private var inString = false
  private var escaped = false
  private var inNull = false
  /// The open containers, innermost last: true for an object.
  private var objects: [Bool] = []
  /// The last byte outside strings and whitespace, and the last byte.
  private var last: UInt8 = 0
  private var previous: UInt8 = 0

  /// Whether the text so far ends inside a coloured token: output that stops there (a
  /// failed command) must reset the terminal's colour.
  var hasOpenColor: Bool { inString || inNull }

  /// `bytes` with colour codes.
  mutating func color(_ bytes: some Collection<UInt8>) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count + bytes.count / 4)
    for byte in bytes {
      if inString {
        out.append(byte)
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
          last = byte
          out += Self.reset
        }
        previous = byte
        continue
      }
      if inNull && !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) {
        inNull = false
        out += Self.reset
      }
      switch byte {
      case UInt8(ascii: "\""):
        let isKey =
          objects.last == true && (last == UInt8(ascii: "{") || last == UInt8(ascii: ","))
        out += isKey ? Self.key : Self.string
        inString = true
      case UInt8(ascii: "n"):
        // `null` (not the n of `Infinity`): a token's first letter.
        if !inNull && !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(previous)
          && !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains(previous)
        {
          out += Self.null
          inNull = true
        }
      case UInt8(ascii: "{"): objects.append(true)
      case UInt8(ascii: "["): objects.append(false)
      case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = objects.popLast()
      default: break
      }
      out.append(byte)
      previous = byte
      if byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x09 && !inString { last = byte }
    }
    return out
  }

}
