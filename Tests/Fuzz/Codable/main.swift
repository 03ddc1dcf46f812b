// libFuzzer target for the Codable decoder (and, on what it decodes, the encoder). Build and
// run it with `Tests/Fuzz/run.sh codable SECONDS`.
//
// Built against the library's modules as a client sees them (plain imports, public API
// only), with `-parse-as-library`: libFuzzer supplies `main`.
//
// Input layout: two header bytes, then the JSON text, decoded as a representative model
// (`FuzzOrder`: integers of several widths, floats, strings, optionals, nested structs and
// arrays, dictionaries, enums with raw and associated values, dates, data, UUIDs, and a type
// with a hand-written `init(from:)` that uses nested and super decoders).
//
//   byte 0, bit 0    keys from snake case
//           bit 1…2  dates: deferred, seconds since 1970, milliseconds since 1970, ISO 8601
//           bit 3    data: deferred (byte arrays), base64
//           bit 4    non-finite floats from strings
//           bit 5    unknown keys throw
//           bit 6    a key report handler
//           bit 7    lenient parse options (comments, trailing commas)
//   byte 1, bit 0…1  chunking of the item decoder: 1 byte, 7 bytes, 61 bytes, whole
//           bit 2…3  shape: one order, an array of orders, NDJSON lines of orders, a value
//           bit 6    an object graph instead (`FuzzNode`s, each `pick` naming the node its
//                    `link` shares, a cycle included)
//
// Input that starts with the binary format's magic bytes is binary instead, decoded as an
// object graph with shared values.
//
// Checked, with `fatalError` on a violation:
// - every error is a DecodingError, and one for input that is not JSON has the parse error,
//   with its offset within the input, underneath (UTF-16 and UTF-32 input included);
// - decoding from bytes and from the parsed JSONValue agree;
// - an array decoded whole and item by item from chunks agree (items stream only from
//   arrays);
// - NDJSON decoded as lines agrees with each line decoded on its own;
// - what decodes encodes, and that JSON and that binary decode back to what encodes to the
//   same bytes;
// - an object graph encodes to binary keeping object identity, unless it has a cycle, which
//   is an EncodingError; what it encodes to decodes to a graph of the same shape, with one
//   instance wherever the graph had one (or fails on a limit: expansion, depth);
// - binary decoded as an object graph gives a DecodingError or a graph without a cycle,
//   which encodes and decodes back to the same shape.

import Foundation
import JSONStream
import JSONStreamFoundation

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCodableTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  guard let data, size >= 2 else { return 0 }
  let decoder = codableDecoder(data[0])
  let chunk = [1, 7, 61, 0][Int(data[1] & 3)]
  let input = UnsafeBufferPointer(start: data + 2, count: size - 2)
  let bytes = Array(input)

  if bytes.starts(with: JSONBinaryFormat.magic) {
    graphCheckBinary(bytes, decoder)
    return 0
  }
  if data[1] >> 6 & 1 == 1 {
    graphCheckJSON(bytes, decoder)
    return 0
  }
  switch data[1] >> 2 & 3 {
  case 0:
    codableCheckOne(FuzzOrder.self, bytes, decoder)
  case 1:
    codableCheckArray(bytes, decoder, chunk: chunk)
  case 2:
    codableCheckLines(bytes, decoder)
  default:
    codableCheckOne(FuzzValue.self, bytes, decoder)
  }
  return 0
}

private func codableDecoder(_ byte: UInt8) -> JSONStreamDecoder {
  func bit(_ n: UInt8) -> Bool { byte >> n & 1 == 1 }
  let decoder = JSONStreamDecoder()
  if bit(0) { decoder.keyDecodingStrategy = .convertFromSnakeCase }
  decoder.dateDecodingStrategy =
    [.deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601][Int(byte >> 1 & 3)]
  decoder.dataDecodingStrategy = bit(3) ? .deferredToData : .base64
  if bit(4) {
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
  }
  if bit(5) { decoder.unknownKeyDecodingStrategy = .throw }
  if bit(6) {
    decoder.keyReportHandler = { report in
      fuzzCheck(!report.unknownKeys.isEmpty || !report.absentKeys.isEmpty, "an empty key report")
    }
  }
  if bit(7) {
    decoder.parseOptions.allowComments = true
    decoder.parseOptions.allowTrailingCommas = true
  }
  return decoder
}

/// Decodes `T` from `bytes`, checking that a failure is a well-formed DecodingError.
private func codableDecode<T: Decodable>(
  _ type: T.Type, _ bytes: [UInt8], _ decoder: JSONStreamDecoder
) -> T? {
  do {
    return try decoder.decode(type, from: bytes)
  } catch {
    codableCheckError(error, inputCount: bytes.count)
    return nil
  }
}

private func codableCheckError(_ error: any Error, inputCount: Int) {
  guard let error = error as? DecodingError else {
    fatalError("not a DecodingError: \(error)")
  }
  if case .dataCorrupted(let context) = error, let parse = context.underlyingError {
    guard let parse = parse as? JSONParseError else {
      fatalError("an underlying error that is not a JSONParseError: \(parse)")
    }
    fuzzCheck(parse.offset >= 0 && parse.offset <= inputCount, "a parse error past the input")
  }
}

/// One value: from bytes and from the tree agree; what decodes round-trips.
private func codableCheckOne<T: Codable>(
  _ type: T.Type, _ bytes: [UInt8], _ decoder: JSONStreamDecoder
) {
  let decoded = codableDecode(type, bytes, decoder)
  // The decoder reads UTF-16 and UTF-32 too, which the tree's parser does not: only the round
  // trip is checked there.
  if codableTranscodes(bytes) {
    if let decoded { codableCheckRoundTrip(decoded) }
    return
  }
  // It passes a UTF-8 byte order mark over.
  var options = decoder.parseOptions
  options.allowByteOrderMark = true
  if let tree = try? JSONValue(parsing: bytes, options: options, duplicateKeys: .firstWins) {
    let fromTree = try? decoder.decode(type, from: tree)
    fuzzCheck(
      (decoded == nil) == (fromTree == nil), "decoding from bytes and from the tree disagree")
    if let decoded, let fromTree {
      fuzzCheck(
        codableEncode(decoded) == codableEncode(fromTree),
        "decoding from bytes and from the tree give different values")
    }
  } else {
    fuzzCheck(decoded == nil, "decoded what does not parse")
  }
  if let decoded { codableCheckRoundTrip(decoded) }
}

/// Whether `decode(_:from:)` reads `bytes` as UTF-16 or UTF-32 (a zero among the first four
/// bytes, or a UTF-16 byte order mark).
private func codableTranscodes(_ bytes: some Collection<UInt8>) -> Bool {
  bytes.prefix(4).contains(0) || bytes.starts(with: [0xFE, 0xFF])
    || bytes.starts(with: [0xFF, 0xFE])
}

/// Whether `decode(_:from:)` reads `bytes` otherwise than the streaming decoders, which take
/// UTF-8 only, without a byte order mark.
private func codableReadsOtherwise(_ bytes: some Collection<UInt8>) -> Bool {
  codableTranscodes(bytes) || bytes.starts(with: [0xEF, 0xBB, 0xBF])
}

/// An array: decoded whole and item by item from chunks agree.
private func codableCheckArray(_ bytes: [UInt8], _ decoder: JSONStreamDecoder, chunk: Int) {
  let whole = codableDecode([FuzzOrder].self, bytes, decoder)
  if codableReadsOtherwise(bytes) {
    if let whole { codableCheckRoundTrip(whole) }
    return
  }
  var streamed: [FuzzOrder]? = []
  do {
    var items = try JSONStreamDecoder.ItemDecoder(FuzzOrder.self, at: "$[*]", decoder: decoder)
    try bytes.withUnsafeBufferPointer { input in
      try fuzzFeed(input, chunk: chunk) { streamed! += try items.feed($0) }
    }
    streamed! += try items.finish()
  } catch {
    codableCheckError(error, inputCount: bytes.count)
    streamed = nil
  }
  if let whole {
    guard let streamed else { fatalError("an array decodes whole but not item by item") }
    fuzzCheck(
      codableEncode(whole) == codableEncode(streamed), "whole and streamed items differ")
    codableCheckRoundTrip(whole)
  } else if streamed != nil {
    // Items stream only from an array: anything else selects none, and decodes as no items.
    let tree = try? JSONValue(
      parsing: bytes, options: decoder.parseOptions, duplicateKeys: .firstWins)
    if case .array = tree {
      fatalError("an array decodes item by item but not whole")
    }
    fuzzCheck(streamed!.isEmpty, "items from what is not an array")
  }
}

/// NDJSON: decoded as lines and line by line agree.
private func codableCheckLines(_ bytes: [UInt8], _ decoder: JSONStreamDecoder) {
  var lines: [FuzzOrder]? = nil
  do {
    lines = try decoder.decodeLines(FuzzOrder.self, from: bytes)
  } catch {
    codableCheckError(error, inputCount: bytes.count)
  }
  var each: [FuzzOrder]? = []
  for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
    if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { continue }
    // A line that decode(_:from:) would read as UTF-16 or UTF-32 or after a byte order mark is
    // no line of NDJSON.
    guard !codableReadsOtherwise(line),
      let order = codableDecode(FuzzOrder.self, Array(line), decoder)
    else {
      each = nil
      break
    }
    each!.append(order)
  }
  fuzzCheck((lines == nil) == (each == nil), "lines and each line disagree on failing")
  if let lines, let each {
    fuzzCheck(codableEncode(lines) == codableEncode(each), "lines and each line differ")
  }
}

/// What decoded encodes, to JSON and to binary, and both decode back to what encodes the same.
private func codableCheckRoundTrip<T: Codable>(_ value: T) {
  guard let encoded = codableEncode(value) else { fatalError("a decoded value does not encode") }
  let decoder = codableRoundTripDecoder()
  guard let back = try? decoder.decode(T.self, from: encoded) else {
    fatalError("encoded JSON does not decode: \(String(decoding: encoded, as: UTF8.self))")
  }
  fuzzCheck(codableEncode(back) == encoded, "encoded JSON decodes to something else")
  guard let binary = try? codableEncoder().encodeBinaryToBytes(value) else {
    fatalError("a decoded value does not encode to binary")
  }
  guard let fromBinary = try? decoder.decode(T.self, fromBinary: binary) else {
    fatalError("encoded binary does not decode")
  }
  fuzzCheck(codableEncode(fromBinary) == encoded, "encoded binary decodes to something else")
}

/// Sorted keys, so that dictionaries compare; non-finite floats as strings.
private func codableEncoder() -> JSONStreamEncoder {
  let encoder = JSONStreamEncoder()
  encoder.outputFormatting = .sortedKeys
  encoder.nonConformingFloatEncodingStrategy = .convertToString(
    positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
  return encoder
}

private func codableRoundTripDecoder() -> JSONStreamDecoder {
  let decoder = JSONStreamDecoder()
  decoder.nonConformingFloatDecodingStrategy = .convertFromString(
    positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
  return decoder
}

private func codableEncode<T: Encodable>(_ value: T) -> [UInt8]? {
  try? codableEncoder().encodeToBytes(value)
}

// MARK: - The model

private struct FuzzOrder: Codable {
  var id: Int
  var code: UInt8?
  var sequence: UInt64?
  var delta: Int32?
  var total: Double
  var ratio: Float?
  var name: String
  var note: String?
  var tags: [String]
  var paid: Bool
  var placedAt: Date?
  var receipt: Data?
  var token: UUID?
  var customer: FuzzCustomer?
  var lines: [FuzzLine]
  var attributes: [String: Int64]?
  var grid: [[Int16]]?
  var status: FuzzStatus
  var delivery: FuzzDelivery?
  var measure: FuzzMeasure?
}

private struct FuzzCustomer: Codable {
  var firstName: String
  var lastName: String?
  var vip: Bool?
  var scores: [Double]?
}

private struct FuzzLine: Codable {
  var sku: String
  var quantity: UInt16
  var price: Double?
  var discounts: [String: Double]?
}

private enum FuzzStatus: String, Codable {
  case open, paid, shipped, cancelled
}

/// Synthesized coding of associated values: a keyed container of keyed containers.
private enum FuzzDelivery: Codable {
  case pickup(store: String)
  case courier(address: [String], express: Bool)
  case digital
}

/// A hand-written `init(from:)`: nested containers, a super decoder, a single value.
private struct FuzzMeasure: Codable {
  var unit: String
  var values: [Int8]
  var base: FuzzCustomer?
  var raw: Int?

  enum CodingKeys: String, CodingKey { case unit, detail, base }
  enum DetailKeys: String, CodingKey { case values, raw }

  init(from decoder: any Decoder) throws {
    if let single = try? decoder.singleValueContainer(), let unit = try? single.decode(String.self)
    {
      self.unit = unit
      values = []
      return
    }
    let container = try decoder.container(keyedBy: CodingKeys.self)
    unit = try container.decode(String.self, forKey: .unit)
    let detail = try container.nestedContainer(keyedBy: DetailKeys.self, forKey: .detail)
    var list = try detail.nestedUnkeyedContainer(forKey: .values)
    values = []
    while !list.isAtEnd { values.append(try list.decode(Int8.self)) }
    raw = try detail.decodeIfPresent(Int.self, forKey: .raw)
    base = try? FuzzCustomer(from: container.superDecoder(forKey: .base))
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(unit, forKey: .unit)
    var detail = container.nestedContainer(keyedBy: DetailKeys.self, forKey: .detail)
    var list = detail.nestedUnkeyedContainer(forKey: .values)
    for value in values { try list.encode(value) }
    try detail.encodeIfPresent(raw, forKey: .raw)
    if let base { try base.encode(to: container.superEncoder(forKey: .base)) }
  }
}

/// Any JSON value, decoded through the single value and unkeyed containers and
/// `allKeys`.
private enum FuzzValue: Codable {
  case null
  case bool(Bool)
  case int(Int64)
  case double(Double)
  case string(String)
  case array([FuzzValue])
  case object([String: FuzzValue])

  struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  init(from decoder: any Decoder) throws {
    if let object = try? decoder.container(keyedBy: AnyKey.self) {
      var members: [String: FuzzValue] = [:]
      for key in object.allKeys {
        members[key.stringValue] = try object.decode(Self.self, forKey: key)
      }
      self = .object(members)
    } else if var array = try? decoder.unkeyedContainer() {
      var elements: [FuzzValue] = []
      if let count = array.count { elements.reserveCapacity(count) }
      while !array.isAtEnd { elements.append(try array.decode(Self.self)) }
      self = .array(elements)
    } else {
      let single = try decoder.singleValueContainer()
      if single.decodeNil() {
        self = .null
      } else if let bool = try? single.decode(Bool.self) {
        self = .bool(bool)
      } else if let int = try? single.decode(Int64.self), int.magnitude <= 1 << 53,
        int != 0 || (try? single.decode(Double.self))?.sign != .minus
      {
        // Only integers a double holds exactly, and not -0: what is kept as a double writes
        // back as a double, and reads back as one (`-5.000000200044444444e16` is not an
        // integer, but the double it reads as writes as `-5.0000002000444448e+16`, which is).
        self = .int(int)
      } else if let double = try? single.decode(Double.self) {
        self = .double(double)
      } else {
        self = .string(try single.decode(String.self))
      }
    }
  }

  func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var single = encoder.singleValueContainer()
      try single.encodeNil()
    case .bool(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .int(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .double(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .string(let value):
      var single = encoder.singleValueContainer()
      try single.encode(value)
    case .array(let elements):
      var array = encoder.unkeyedContainer()
      for element in elements { try array.encode(element) }
    case .object(let members):
      var object = encoder.container(keyedBy: AnyKey.self)
      for (key, value) in members { try object.encode(value, forKey: AnyKey(stringValue: key)) }
    }
  }
}

// MARK: - Object graphs

/// A node of an object graph. Decoded from JSON, `pick` names (by its index in the order
/// `graphNodes` lists them) the node that `link` then shares; the graph may have a cycle.
private final class FuzzNode: Codable {
  var name: String
  var pick: Int?
  var children: [FuzzNode]
  var link: FuzzNode?
}

/// The graph of JSON text: decoded, linked by each node's `pick`, encoded keeping identity.
private func graphCheckJSON(_ bytes: [UInt8], _ decoder: JSONStreamDecoder) {
  guard let roots = codableDecode([FuzzNode].self, bytes, decoder) else { return }
  let nodes = graphNodes(roots)
  // A cycle of links would outlive the check (a leak, to the sanitizer).
  defer { for node in nodes { node.link = nil } }
  for node in nodes {
    if let pick = node.pick, !nodes.isEmpty {
      node.link = nodes[Int(pick.magnitude % UInt(nodes.count))]
    }
  }
  let encoder = codableEncoder()
  encoder.keepsObjectIdentity = true
  let binary: [UInt8]
  do {
    binary = try encoder.encodeBinaryToBytes(roots)
  } catch {
    guard let error = error as? EncodingError, case .invalidValue(_, let context) = error else {
      fatalError("not an EncodingError: \(error)")
    }
    // A graph whose paths are too long for `maxDepth` cannot be encoded either.
    fuzzCheck(
      graphHasCycle(roots) || context.debugDescription.contains("maxDepth"),
      "a graph without a cycle does not encode: \(context.debugDescription)")
    return
  }
  fuzzCheck(!graphHasCycle(roots), "a graph with a cycle encodes")
  graphCheckDecodes(binary, as: roots)
  // Linked, the graph's copies may be exponentially many: only the graph as decoded, before
  // linking, is checked as a tree.
  if nodes.allSatisfy({ $0.pick == nil }) { codableCheckRoundTrip(roots) }
}

/// Binary input decoded as an object graph: a DecodingError, or a graph without a cycle that
/// encodes keeping identity and decodes back to the same shape.
private func graphCheckBinary(_ bytes: [UInt8], _ decoder: JSONStreamDecoder) {
  let roots: [FuzzNode]
  do {
    roots = try decoder.decode([FuzzNode].self, fromBinary: bytes)
  } catch {
    codableCheckError(error, inputCount: bytes.count)
    return
  }
  fuzzCheck(!graphHasCycle(roots), "binary decodes to a graph with a cycle")
  let encoder = codableEncoder()
  encoder.keepsObjectIdentity = true
  do {
    graphCheckDecodes(try encoder.encodeBinaryToBytes(roots), as: roots)
  } catch {
    // The decoder's depth limit is the encoder's: what decodes encodes.
    fatalError("a graph decoded from binary does not encode: \(error)")
  }
}

/// `binary`, which `roots` encoded to, decodes to a graph of their shape.
private func graphCheckDecodes(_ binary: [UInt8], as roots: [FuzzNode]) {
  let back: [FuzzNode]
  do {
    back = try codableRoundTripDecoder().decode([FuzzNode].self, fromBinary: binary)
  } catch {
    // References may stand for more than the format allows a document to expand to, or for
    // values deeper than `maxDepth` where they stand.
    guard let error = error as? DecodingError, case .dataCorrupted(let context) = error,
      let parse = context.underlyingError as? JSONParseError,
      case .limitExceeded = parse.kind
    else { fatalError("a graph's binary does not decode: \(error)") }
    return
  }
  fuzzCheck(graphSameShape(roots, back), "a graph decodes to another shape")
}

/// Every node reachable from `roots` through `children` (not `link`), once each, in the order
/// a `pick` counts them: depth first, each node before its children.
private func graphNodes(_ roots: [FuzzNode]) -> [FuzzNode] {
  var nodes: [FuzzNode] = []
  var seen: Set<ObjectIdentifier> = []
  var work = Array(roots.reversed())
  while let node = work.popLast() {
    guard seen.insert(ObjectIdentifier(node)).inserted else { continue }
    nodes.append(node)
    work += node.children.reversed()
  }
  return nodes
}

/// Whether a path through `children` and `link` leads from a node back to it (depth first,
/// with an explicit stack: links can make paths as long as the graph).
private func graphHasCycle(_ roots: [FuzzNode]) -> Bool {
  // false: on the current path; true: done.
  var done: [ObjectIdentifier: Bool] = [:]
  var stack: [(node: FuzzNode, next: Int)] = []
  for root in roots where done[ObjectIdentifier(root)] == nil {
    done[ObjectIdentifier(root)] = false
    stack.append((root, 0))
    while let (node, next) = stack.last {
      let successor: FuzzNode?
      if next < node.children.count {
        successor = node.children[next]
      } else if next == node.children.count {
        successor = node.link
      } else {
        done[ObjectIdentifier(node)] = true
        stack.removeLast()
        continue
      }
      stack[stack.count - 1].next += 1
      guard let successor else { continue }
      switch done[ObjectIdentifier(successor)] {
      case false?: return true
      case true?: continue
      case nil:
        done[ObjectIdentifier(successor)] = false
        stack.append((successor, 0))
      }
    }
  }
  return false
}

/// Whether `a` and `b` have one shape: the same names and picks, and one instance in `b`
/// wherever `a` has one, the instances paired one to one.
private func graphSameShape(_ a: [FuzzNode], _ b: [FuzzNode]) -> Bool {
  guard a.count == b.count else { return false }
  var pairs: [ObjectIdentifier: ObjectIdentifier] = [:]
  var paired: Set<ObjectIdentifier> = []
  var work = Array(zip(a, b))
  while let (x, y) = work.popLast() {
    let (idX, idY) = (ObjectIdentifier(x), ObjectIdentifier(y))
    if let known = pairs[idX] {
      guard known == idY else { return false }
      continue
    }
    guard paired.insert(idY).inserted else { return false }
    pairs[idX] = idY
    guard x.name == y.name, x.pick == y.pick, x.children.count == y.children.count,
      (x.link == nil) == (y.link == nil)
    else { return false }
    work += zip(x.children, y.children)
    if let linkX = x.link, let linkY = y.link { work.append((linkX, linkY)) }
  }
  return true
}
