// Typed models of canada.json (Canada's borders as a GeoJSON FeatureCollection: one feature
// whose polygon has 480 rings of longitude/latitude pairs, 111,126 numbers), every field of the
// document, for the Codable decoding benchmark.

/// The whole document: a GeoJSON FeatureCollection.
struct Canada: Codable, Equatable, Sendable {
  /// "FeatureCollection".
  let type: String
  let features: [Feature]

  enum CodingKeys: String, CodingKey {
    case type
    case features
  }

  /// A shape and its properties.
  struct Feature: Codable, Equatable, Sendable {
    /// "Feature".
    let type: String
    let properties: Properties
    let geometry: Geometry

    enum CodingKeys: String, CodingKey {
      case type
      case properties
      case geometry
    }
  }

  /// A feature's properties: its name.
  struct Properties: Codable, Equatable, Sendable {
    let name: String

    enum CodingKeys: String, CodingKey {
      case name
    }
  }

  /// A polygon: rings of positions, each position [longitude, latitude].
  struct Geometry: Codable, Equatable, Sendable {
    /// "Polygon".
    let type: String
    let coordinates: [[[Double]]]

    enum CodingKeys: String, CodingKey {
      case type
      case coordinates
    }
  }
}
