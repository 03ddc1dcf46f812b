// Typed models of citm_catalog.json (a concert hall's programme: events, their performances,
// prices and seating, and the names of everything by id), every field of the document, for the
// Codable decoding benchmark. The document's maps keyed by id (as strings) are dictionaries.
// Fields that are null in every entry (an event's description, subjectCode and subtitle, a
// performance's name and seatMapImage) are `String?`: the document never shows their type.

/// The whole document.
struct CitmCatalog: Codable, Equatable, Sendable {
  let areaNames: [String: String]
  let audienceSubCategoryNames: [String: String]
  /// Empty in the document.
  let blockNames: [String: String]
  /// By event id.
  let events: [String: Event]
  let performances: [Performance]
  let seatCategoryNames: [String: String]
  let subTopicNames: [String: String]
  /// Empty in the document.
  let subjectNames: [String: String]
  let topicNames: [String: String]
  /// A topic's subtopic ids, by topic id.
  let topicSubTopics: [String: [Int]]
  /// By venue code.
  let venueNames: [String: String]

  enum CodingKeys: String, CodingKey {
    case areaNames
    case audienceSubCategoryNames
    case blockNames
    case events
    case performances
    case seatCategoryNames
    case subTopicNames
    case subjectNames
    case topicNames
    case topicSubTopics
    case venueNames
  }

  /// A show, which has one or more performances.
  struct Event: Codable, Equatable, Sendable {
    let description: String?
    let id: Int
    /// A path to an image; null for about half the events.
    let logo: String?
    let name: String
    let subTopicIds: [Int]
    let subjectCode: String?
    let subtitle: String?
    let topicIds: [Int]

    enum CodingKeys: String, CodingKey {
      case description
      case id
      case logo
      case name
      case subTopicIds
      case subjectCode
      case subtitle
      case topicIds
    }
  }

  /// One performance of an event: when, where, and its prices per seat category.
  struct Performance: Codable, Equatable, Sendable {
    let eventId: Int
    let id: Int
    let logo: String?
    let name: String?
    let prices: [Price]
    let seatCategories: [SeatCategory]
    let seatMapImage: String?
    /// Milliseconds since 1970.
    let start: Int
    let venueCode: String

    enum CodingKeys: String, CodingKey {
      case eventId
      case id
      case logo
      case name
      case prices
      case seatCategories
      case seatMapImage
      case start
      case venueCode
    }
  }

  /// The price of a seat category for an audience subcategory, in cents.
  struct Price: Codable, Equatable, Sendable {
    let amount: Int
    let audienceSubCategoryId: Int
    let seatCategoryId: Int

    enum CodingKeys: String, CodingKey {
      case amount
      case audienceSubCategoryId
      case seatCategoryId
    }
  }

  /// A seat category and the areas of the hall it covers.
  struct SeatCategory: Codable, Equatable, Sendable {
    let areas: [Area]
    let seatCategoryId: Int

    enum CodingKeys: String, CodingKey {
      case areas
      case seatCategoryId
    }
  }

  /// An area of the hall and its blocks (empty in every area of the document).
  struct Area: Codable, Equatable, Sendable {
    let areaId: Int
    let blockIds: [Int]

    enum CodingKeys: String, CodingKey {
      case areaId
      case blockIds
    }
  }
}
