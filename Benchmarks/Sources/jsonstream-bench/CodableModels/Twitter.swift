// Typed models of twitter.json (a search API response: 100 statuses and the search's metadata),
// every field of the document, for the Codable decoding benchmark. Ids fit Int on 64-bit
// platforms. Fields that are null in every status (geo, coordinates, place, contributors) are
// `String?` placeholders: the document never shows their type.

/// The whole document.
struct Twitter: Codable, Equatable, Sendable {
  let statuses: [Status]
  let searchMetadata: SearchMetadata

  enum CodingKeys: String, CodingKey {
    case statuses
    case searchMetadata = "search_metadata"
  }

  /// A tweet.
  struct Status: Codable, Equatable, Sendable {
    let metadata: Metadata
    let createdAt: String
    let id: Int
    let idStr: String
    let text: String
    let source: String
    let truncated: Bool
    let inReplyToStatusId: Int?
    let inReplyToStatusIdStr: String?
    let inReplyToUserId: Int?
    let inReplyToUserIdStr: String?
    let inReplyToScreenName: String?
    let user: User
    let geo: String?
    let coordinates: String?
    let place: String?
    let contributors: String?
    /// The tweet this one retweets, if it is a retweet.
    let retweetedStatus: RetweetedStatus?
    let retweetCount: Int
    let favoriteCount: Int
    let entities: Entities
    let favorited: Bool
    let retweeted: Bool
    /// Absent from most statuses.
    let possiblySensitive: Bool?
    let lang: String

    enum CodingKeys: String, CodingKey {
      case metadata
      case createdAt = "created_at"
      case id
      case idStr = "id_str"
      case text
      case source
      case truncated
      case inReplyToStatusId = "in_reply_to_status_id"
      case inReplyToStatusIdStr = "in_reply_to_status_id_str"
      case inReplyToUserId = "in_reply_to_user_id"
      case inReplyToUserIdStr = "in_reply_to_user_id_str"
      case inReplyToScreenName = "in_reply_to_screen_name"
      case user
      case geo
      case coordinates
      case place
      case contributors
      case retweetedStatus = "retweeted_status"
      case retweetCount = "retweet_count"
      case favoriteCount = "favorite_count"
      case entities
      case favorited
      case retweeted
      case possiblySensitive = "possibly_sensitive"
      case lang
    }
  }

  /// A retweeted tweet: a status's fields but its own retweet (a struct cannot hold itself).
  struct RetweetedStatus: Codable, Equatable, Sendable {
    let metadata: Metadata
    let createdAt: String
    let id: Int
    let idStr: String
    let text: String
    let source: String
    let truncated: Bool
    let inReplyToStatusId: Int?
    let inReplyToStatusIdStr: String?
    let inReplyToUserId: Int?
    let inReplyToUserIdStr: String?
    let inReplyToScreenName: String?
    let user: User
    let geo: String?
    let coordinates: String?
    let place: String?
    let contributors: String?
    let retweetCount: Int
    let favoriteCount: Int
    let entities: Entities
    let favorited: Bool
    let retweeted: Bool
    /// Absent from most statuses.
    let possiblySensitive: Bool?
    let lang: String

    enum CodingKeys: String, CodingKey {
      case metadata
      case createdAt = "created_at"
      case id
      case idStr = "id_str"
      case text
      case source
      case truncated
      case inReplyToStatusId = "in_reply_to_status_id"
      case inReplyToStatusIdStr = "in_reply_to_status_id_str"
      case inReplyToUserId = "in_reply_to_user_id"
      case inReplyToUserIdStr = "in_reply_to_user_id_str"
      case inReplyToScreenName = "in_reply_to_screen_name"
      case user
      case geo
      case coordinates
      case place
      case contributors
      case retweetCount = "retweet_count"
      case favoriteCount = "favorite_count"
      case entities
      case favorited
      case retweeted
      case possiblySensitive = "possibly_sensitive"
      case lang
    }
  }

  /// Why a status is in the search's results.
  struct Metadata: Codable, Equatable, Sendable {
    let resultType: String
    let isoLanguageCode: String

    enum CodingKeys: String, CodingKey {
      case resultType = "result_type"
      case isoLanguageCode = "iso_language_code"
    }
  }

  /// The author of a status.
  struct User: Codable, Equatable, Sendable {
    let id: Int
    let idStr: String
    let name: String
    let screenName: String
    let location: String
    let description: String
    let url: String?
    let entities: UserEntities
    let protected: Bool
    let followersCount: Int
    let friendsCount: Int
    let listedCount: Int
    let createdAt: String
    let favouritesCount: Int
    let utcOffset: Int?
    let timeZone: String?
    let geoEnabled: Bool
    let verified: Bool
    let statusesCount: Int
    let lang: String
    let contributorsEnabled: Bool
    let isTranslator: Bool
    let isTranslationEnabled: Bool
    let profileBackgroundColor: String
    let profileBackgroundImageUrl: String
    let profileBackgroundImageUrlHttps: String
    let profileBackgroundTile: Bool
    let profileImageUrl: String
    let profileImageUrlHttps: String
    /// Absent for some users.
    let profileBannerUrl: String?
    let profileLinkColor: String
    let profileSidebarBorderColor: String
    let profileSidebarFillColor: String
    let profileTextColor: String
    let profileUseBackgroundImage: Bool
    let defaultProfile: Bool
    let defaultProfileImage: Bool
    let following: Bool
    let followRequestSent: Bool
    let notifications: Bool

    enum CodingKeys: String, CodingKey {
      case id
      case idStr = "id_str"
      case name
      case screenName = "screen_name"
      case location
      case description
      case url
      case entities
      case protected
      case followersCount = "followers_count"
      case friendsCount = "friends_count"
      case listedCount = "listed_count"
      case createdAt = "created_at"
      case favouritesCount = "favourites_count"
      case utcOffset = "utc_offset"
      case timeZone = "time_zone"
      case geoEnabled = "geo_enabled"
      case verified
      case statusesCount = "statuses_count"
      case lang
      case contributorsEnabled = "contributors_enabled"
      case isTranslator = "is_translator"
      case isTranslationEnabled = "is_translation_enabled"
      case profileBackgroundColor = "profile_background_color"
      case profileBackgroundImageUrl = "profile_background_image_url"
      case profileBackgroundImageUrlHttps = "profile_background_image_url_https"
      case profileBackgroundTile = "profile_background_tile"
      case profileImageUrl = "profile_image_url"
      case profileImageUrlHttps = "profile_image_url_https"
      case profileBannerUrl = "profile_banner_url"
      case profileLinkColor = "profile_link_color"
      case profileSidebarBorderColor = "profile_sidebar_border_color"
      case profileSidebarFillColor = "profile_sidebar_fill_color"
      case profileTextColor = "profile_text_color"
      case profileUseBackgroundImage = "profile_use_background_image"
      case defaultProfile = "default_profile"
      case defaultProfileImage = "default_profile_image"
      case following
      case followRequestSent = "follow_request_sent"
      case notifications
    }
  }

  /// The links in a user's profile URL (absent for most users) and description.
  struct UserEntities: Codable, Equatable, Sendable {
    let url: URLEntities?
    let description: URLEntities

    enum CodingKeys: String, CodingKey {
      case url
      case description
    }
  }

  /// A list of links.
  struct URLEntities: Codable, Equatable, Sendable {
    let urls: [URLEntity]

    enum CodingKeys: String, CodingKey {
      case urls
    }
  }

  /// A shortened link and where it sits in the text.
  struct URLEntity: Codable, Equatable, Sendable {
    let url: String
    let expandedUrl: String
    let displayUrl: String
    let indices: [Int]

    enum CodingKeys: String, CodingKey {
      case url
      case expandedUrl = "expanded_url"
      case displayUrl = "display_url"
      case indices
    }
  }

  /// What a status's text refers to.
  struct Entities: Codable, Equatable, Sendable {
    let hashtags: [Hashtag]
    /// Cashtags, shaped like hashtags; empty in every status of the document.
    let symbols: [Hashtag]
    let urls: [URLEntity]
    let userMentions: [UserMention]
    /// Absent from statuses without pictures.
    let media: [Media]?

    enum CodingKeys: String, CodingKey {
      case hashtags
      case symbols
      case urls
      case userMentions = "user_mentions"
      case media
    }
  }

  /// A hashtag and where it sits in the text.
  struct Hashtag: Codable, Equatable, Sendable {
    let text: String
    let indices: [Int]

    enum CodingKeys: String, CodingKey {
      case text
      case indices
    }
  }

  /// A mentioned user and where the mention sits in the text.
  struct UserMention: Codable, Equatable, Sendable {
    let screenName: String
    let name: String
    let id: Int
    let idStr: String
    let indices: [Int]

    enum CodingKeys: String, CodingKey {
      case screenName = "screen_name"
      case name
      case id
      case idStr = "id_str"
      case indices
    }
  }

  /// An attached picture.
  struct Media: Codable, Equatable, Sendable {
    let id: Int
    let idStr: String
    let indices: [Int]
    let mediaUrl: String
    let mediaUrlHttps: String
    let url: String
    let displayUrl: String
    let expandedUrl: String
    let type: String
    let sizes: Sizes
    /// The status the picture was first posted with, when that is another one.
    let sourceStatusId: Int?
    let sourceStatusIdStr: String?

    enum CodingKeys: String, CodingKey {
      case id
      case idStr = "id_str"
      case indices
      case mediaUrl = "media_url"
      case mediaUrlHttps = "media_url_https"
      case url
      case displayUrl = "display_url"
      case expandedUrl = "expanded_url"
      case type
      case sizes
      case sourceStatusId = "source_status_id"
      case sourceStatusIdStr = "source_status_id_str"
    }
  }

  /// A picture's renditions.
  struct Sizes: Codable, Equatable, Sendable {
    let medium: Size
    let small: Size
    let thumb: Size
    let large: Size

    enum CodingKeys: String, CodingKey {
      case medium
      case small
      case thumb
      case large
    }
  }

  /// One rendition: width, height and how it was resized ("fit" or "crop").
  struct Size: Codable, Equatable, Sendable {
    let w: Int
    let h: Int
    let resize: String

    enum CodingKeys: String, CodingKey {
      case w
      case h
      case resize
    }
  }

  /// The search that produced the statuses.
  struct SearchMetadata: Codable, Equatable, Sendable {
    let completedIn: Double
    let maxId: Int
    let maxIdStr: String
    let nextResults: String
    let query: String
    let refreshUrl: String
    let count: Int
    let sinceId: Int
    let sinceIdStr: String

    enum CodingKeys: String, CodingKey {
      case completedIn = "completed_in"
      case maxId = "max_id"
      case maxIdStr = "max_id_str"
      case nextResults = "next_results"
      case query
      case refreshUrl = "refresh_url"
      case count
      case sinceId = "since_id"
      case sinceIdStr = "since_id_str"
    }
  }
}
