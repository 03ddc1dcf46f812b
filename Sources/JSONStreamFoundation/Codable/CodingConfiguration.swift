import Foundation
import JSONStream

// The configuration-based entry points of Foundation's coders, for types that need a value
// from outside to decode or encode (`DecodableWithConfiguration`, `EncodableWithConfiguration`).
// Each goes through the ordinary path with a small top-level type in between.

@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
extension JSONStreamDecoder {
  /// Decodes a `T` that needs `configuration` to decode, from JSON bytes, as
  /// `JSONDecoder.decode(_:from:configuration:)` does.
  public func decode<T: DecodableWithConfiguration, Bytes: Sequence>(
    _ type: T.Type, from bytes: Bytes, configuration: T.DecodingConfiguration
  ) throws -> T where Bytes.Element == UInt8 {
    var settings = self.settings
    settings.topLevelConfiguration = _Configuration(configuration)
    return try settings.decode(_DecodedWithConfiguration<T>.self, from: bytes).value
  }

  /// Decodes a `T` from JSON bytes with the configuration `provider` gives.
  public func decode<T, Provider: DecodingConfigurationProviding, Bytes: Sequence>(
    _ type: T.Type, from bytes: Bytes, configuration provider: Provider.Type
  ) throws -> T
  where
    T: DecodableWithConfiguration, T.DecodingConfiguration == Provider.DecodingConfiguration,
    Bytes.Element == UInt8
  {
    try decode(type, from: bytes, configuration: provider.decodingConfiguration)
  }
}

@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
extension JSONStreamEncoder {
  /// The JSON text of `value`, which needs `configuration` to encode, as
  /// `JSONEncoder.encode(_:configuration:)` writes it.
  public func encode<T: EncodableWithConfiguration>(
    _ value: T, configuration: T.EncodingConfiguration
  ) throws -> Data {
    try encode(_EncodedWithConfiguration(value: value, configuration: configuration))
  }

  /// The JSON text of `value`, with the configuration `provider` gives.
  public func encode<T, Provider: EncodingConfigurationProviding>(
    _ value: T, configuration provider: Provider.Type
  ) throws -> Data
  where T: EncodableWithConfiguration, T.EncodingConfiguration == Provider.EncodingConfiguration {
    try encode(value, configuration: provider.encodingConfiguration)
  }
}

/// A configuration, carried in one call's copy of the decoder's settings to the top-level
/// value. The copy lives and dies inside that call, on its thread.
final class _Configuration: @unchecked Sendable {
  let value: Any
  init(_ value: Any) { self.value = value }
}

/// The top level of a decode with a configuration: decodes a `T` with it.
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
struct _DecodedWithConfiguration<T: DecodableWithConfiguration>: Decodable {
  let value: T

  init(from decoder: any Decoder) throws {
    // Only ever decoded by our decoder, at the top, from settings that carry a `T`'s
    // configuration.
    let configuration = (decoder as! _Decoder).options.topLevelConfiguration!.value
    value = try T(from: decoder, configuration: configuration as! T.DecodingConfiguration)
  }
}

/// The top level of an encode with a configuration.
@available(macOS 12.0, iOS 15.0, tvOS 15.0, watchOS 8.0, *)
struct _EncodedWithConfiguration<T: EncodableWithConfiguration>: Encodable {
  let value: T
  let configuration: T.EncodingConfiguration

  func encode(to encoder: any Encoder) throws {
    try value.encode(to: encoder, configuration: configuration)
  }
}
