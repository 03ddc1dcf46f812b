// JSONValue and its parts as Codable, through any Decoder or Encoder: Foundation's JSON and
// property-list coders, or a coder of your own. These conformances go through the coder's
// containers, value by value; this package's own coders take a JSONValue member straight
// from the parsed document and write it back as it is, the number text of what an array or an
// object holds included (see JSONStreamFoundation).

extension JSONValue: Codable {
  /// Decodes whatever value the decoder holds: an object, an array, a string, a number, a
  /// Boolean or null (see ``JSONObject/init(from:)`` and ``JSONValue/Number/init(from:)``).
  public init(from decoder: any Decoder) throws {
    // The kind first, from which container the decoder offers; then the value, without
    // `try?`, so that an error inside it is the one thrown.
    if (try? decoder.container(keyedBy: _AnyCodingKey.self)) != nil {
      self = .object(try JSONObject(from: decoder))
    } else if var elements = try? decoder.unkeyedContainer() {
      self = .array(try JSONArray(&elements))
    } else {
      self = try JSONValue(decoder.singleValueContainer())
    }
  }

  /// Encodes the value with the encoder's containers (see ``JSONObject/encode(to:)`` and
  /// ``JSONValue/Number/encode(to:)``).
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .object(let object): try object.encode(to: encoder)
    case .array(let array): try array.encode(to: encoder)
    case .number(let number): try number.encode(to: encoder)
    case .string(let string):
      var container = encoder.singleValueContainer()
      try container.encode(string)
    case .bool(let flag):
      var container = encoder.singleValueContainer()
      try container.encode(flag)
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    }
  }

  /// A scalar from a single value container: null, a Boolean, a string or a number.
  init(_ container: any SingleValueDecodingContainer) throws {
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let string = try? container.decode(String.self) {
      self = .string(string)
    } else {
      self = .number(try JSONValue.Number(container))
    }
  }
}

extension JSONObject: Codable {
  /// Decodes an object, as a `[String: JSONValue]`: keys as they are, whatever the decoder's
  /// key strategy (Foundation's coders convert the keys of types, not of dictionaries). A
  /// decoder that does not keep the order of members (Foundation's do not) gives them here
  /// sorted by key, so that the result does not change from run to run.
  public init(from decoder: any Decoder) throws {
    let members = try decoder.singleValueContainer().decode([String: JSONValue].self)
    self.init(members.sorted { $0.key < $1.key })
  }

  /// Encodes the members as a `[String: JSONValue]`: keys as they are, whatever the
  /// encoder's key strategy. The encoder decides their order (Foundation's `JSONEncoder`
  /// keeps none unless told to sort keys); this package's encoder writes them in order.
  public func encode(to encoder: any Encoder) throws {
    var members: [String: JSONValue] = Dictionary(minimumCapacity: count)
    for (key, value) in self { members[key] = value }
    var container = encoder.singleValueContainer()
    try container.encode(members)
  }
}

extension JSONArray: Codable {
  /// Decodes an array: every element of the decoder's unkeyed container, in order.
  public init(from decoder: any Decoder) throws {
    var container = try decoder.unkeyedContainer()
    try self.init(&container)
  }

  init(_ container: inout any UnkeyedDecodingContainer) throws {
    var elements: [JSONValue] = []
    if let count = container.count { elements.reserveCapacity(count) }
    while !container.isAtEnd {
      elements.append(try container.decode(JSONValue.self))
    }
    self.init(elements)
  }

  /// Encodes the elements in order, with an unkeyed container.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.unkeyedContainer()
    for element in self {
      try container.encode(element)
    }
  }
}

extension JSONValue.Number: Codable {
  /// Decodes a number: an integer when the decoder gives one (`Int64`, or `UInt64` above
  /// `Int64.max`), otherwise a `Double`.
  public init(from decoder: any Decoder) throws {
    try self.init(decoder.singleValueContainer())
  }

  init(_ container: any SingleValueDecodingContainer) throws {
    if let value = try? container.decode(Int64.self) {
      self.init(value)
    } else if let value = try? container.decode(UInt64.self) {
      self.init(value)
    } else {
      self.init(try container.decode(Double.self))
    }
  }

  /// Encodes the number as the encoder's `Int64`, `UInt64` or `Double`: an integer that fits
  /// one of the integer types as that type, any other number as a `Double`, the nearest one
  /// when no `Double` holds it exactly (`1e400` is then infinite, which most encoders refuse).
  /// This package's encoder writes the number's exact value as number text instead.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    if let value = int64 {
      try container.encode(value)
    } else if let value = uint64 {
      try container.encode(value)
    } else {
      try container.encode(double)
    }
  }
}

/// The key of any member, to ask a decoder whether it holds an object (whose keys are not
/// known ahead).
struct _AnyCodingKey: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }

  init(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}
