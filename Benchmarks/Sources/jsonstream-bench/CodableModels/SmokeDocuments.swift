// Small documents shaped like the corpus files, for `--smoke` (CI has no corpus): each has every
// field of its model, optional ones both present and null or absent, and string escapes. The
// content is made up.

extension Twitter {
  static let smokeDocument = """
    {
      "statuses": [
        {
          "metadata": { "result_type": "recent", "iso_language_code": "ja" },
          "created_at": "Sun Aug 31 00:29:15 +0000 2014",
          "id": 505874924095815681,
          "id_str": "505874924095815681",
          "text": "RT @sender: \\u304a\\u306f\\u3088\\u3046 \\ud83d\\ude00 \\"quoted\\"\\n#smoke http://t.co/abc",
          "source": "<a href=\\"https://example.com\\" rel=\\"nofollow\\">Example</a>",
          "truncated": false,
          "in_reply_to_status_id": null,
          "in_reply_to_status_id_str": null,
          "in_reply_to_user_id": null,
          "in_reply_to_user_id_str": null,
          "in_reply_to_screen_name": null,
          "user": \(smokeUser(id: 903_487_807, screenName: "receiver", withURL: true)),
          "geo": null,
          "coordinates": null,
          "place": null,
          "contributors": null,
          "retweeted_status": {
            "metadata": { "result_type": "recent", "iso_language_code": "en" },
            "created_at": "Sat Aug 30 23:00:01 +0000 2014",
            "id": 505852420438777856,
            "id_str": "505852420438777856",
            "text": "Caf\\u00e9 #smoke http://t.co/abc",
            "source": "web",
            "truncated": false,
            "in_reply_to_status_id": 505852420438777000,
            "in_reply_to_status_id_str": "505852420438777000",
            "in_reply_to_user_id": 1186275104,
            "in_reply_to_user_id_str": "1186275104",
            "in_reply_to_screen_name": "someone",
            "user": \(smokeUser(id: 1_186_275_104, screenName: "sender", withURL: false)),
            "geo": null,
            "coordinates": null,
            "place": null,
            "contributors": null,
            "retweet_count": 58,
            "favorite_count": 3,
            "entities": {
              "hashtags": [{ "text": "smoke", "indices": [5, 11] }],
              "symbols": [],
              "urls": [],
              "user_mentions": [],
              "media": [
                {
                  "id": 505852420434579456,
                  "id_str": "505852420434579456",
                  "indices": [12, 34],
                  "media_url": "http://example.com/media/a.jpg",
                  "media_url_https": "https://example.com/media/a.jpg",
                  "url": "http://t.co/abc",
                  "display_url": "pic.example.com/abc",
                  "expanded_url": "http://example.com/sender/status/1/photo/1",
                  "type": "photo",
                  "sizes": {
                    "medium": { "w": 600, "h": 450, "resize": "fit" },
                    "small": { "w": 340, "h": 255, "resize": "fit" },
                    "thumb": { "w": 150, "h": 150, "resize": "crop" },
                    "large": { "w": 1024, "h": 768, "resize": "fit" }
                  },
                  "source_status_id": 505852420438777856,
                  "source_status_id_str": "505852420438777856"
                }
              ]
            },
            "favorited": false,
            "retweeted": false,
            "possibly_sensitive": false,
            "lang": "en"
          },
          "retweet_count": 58,
          "favorite_count": 0,
          "entities": {
            "hashtags": [{ "text": "smoke", "indices": [28, 34] }],
            "symbols": [],
            "urls": [
              {
                "url": "http://t.co/abc",
                "expanded_url": "http://example.com/long/path?q=1&r=2",
                "display_url": "example.com/long/\\u2026",
                "indices": [35, 50]
              }
            ],
            "user_mentions": [
              {
                "screen_name": "sender",
                "name": "Sender \\u2606",
                "id": 1186275104,
                "id_str": "1186275104",
                "indices": [3, 10]
              }
            ]
          },
          "favorited": false,
          "retweeted": false,
          "possibly_sensitive": true,
          "lang": "ja"
        },
        {
          "metadata": { "result_type": "recent", "iso_language_code": "en" },
          "created_at": "Sun Aug 31 00:29:14 +0000 2014",
          "id": 505874920000000000,
          "id_str": "505874920000000000",
          "text": "@sender a reply",
          "source": "web",
          "truncated": true,
          "in_reply_to_status_id": 505852420438777856,
          "in_reply_to_status_id_str": "505852420438777856",
          "in_reply_to_user_id": 1186275104,
          "in_reply_to_user_id_str": "1186275104",
          "in_reply_to_screen_name": "sender",
          "user": \(smokeUser(id: 42, screenName: "replier", withURL: false)),
          "geo": null,
          "coordinates": null,
          "place": null,
          "contributors": null,
          "retweet_count": 0,
          "favorite_count": 0,
          "entities": { "hashtags": [], "symbols": [], "urls": [], "user_mentions": [] },
          "favorited": true,
          "retweeted": true,
          "lang": "en"
        }
      ],
      "search_metadata": {
        "completed_in": 0.087,
        "max_id": 505874924095815700,
        "max_id_str": "505874924095815681",
        "next_results": "?max_id=505874847260352512&q=smoke&count=2&include_entities=1",
        "query": "smoke",
        "refresh_url": "?since_id=505874924095815681&q=smoke&include_entities=1",
        "count": 2,
        "since_id": 0,
        "since_id_str": "0"
      }
    }
    """

  /// A user object: with a profile URL, a time zone and a banner, or with those null or absent.
  private static func smokeUser(id: Int, screenName: String, withURL: Bool) -> String {
    let url = withURL ? "\"http://t.co/user\"" : "null"
    let urlEntities =
      withURL
      ? """
      "url": {
        "urls": [{
          "url": "http://t.co/user", "expanded_url": "http://example.com/\(screenName)",
          "display_url": "example.com/\(screenName)", "indices": [0, 16]
        }]
      },
      """ : ""
    let banner =
      withURL ? "\"profile_banner_url\": \"https://example.com/banners/\(id)/1409062272\"," : ""
    return """
      {
        "id": \(id), "id_str": "\(id)", "name": "Name of \(screenName)",
        "screen_name": "\(screenName)", "location": "\\u95a2\\u897f",
        "description": "Describes \(screenName). http://t.co/desc",
        "url": \(url),
        "entities": {
          \(urlEntities)
          "description": {
            "urls": [{
              "url": "http://t.co/desc", "expanded_url": "http://example.com/about",
              "display_url": "example.com/about", "indices": [18, 34]
            }]
          }
        },
        "protected": false, "followers_count": 95, "friends_count": 158, "listed_count": 1,
        "created_at": "Thu Oct 25 08:27:13 +0000 2012", "favourites_count": 3652,
        "utc_offset": \(withURL ? "32400" : "null"),
        "time_zone": \(withURL ? "\"Tokyo\"" : "null"),
        "geo_enabled": \(withURL), "verified": false, "statuses_count": 10276, "lang": "ja",
        "contributors_enabled": false, "is_translator": false, "is_translation_enabled": false,
        "profile_background_color": "C0DEED",
        "profile_background_image_url": "http://example.com/bg.png",
        "profile_background_image_url_https": "https://example.com/bg.png",
        "profile_background_tile": false,
        "profile_image_url": "http://example.com/\(id)_normal.jpeg",
        "profile_image_url_https": "https://example.com/\(id)_normal.jpeg",
        \(banner)
        "profile_link_color": "0084B4", "profile_sidebar_border_color": "C0DEED",
        "profile_sidebar_fill_color": "DDEEF6", "profile_text_color": "333333",
        "profile_use_background_image": true, "default_profile": true,
        "default_profile_image": false, "following": false, "follow_request_sent": false,
        "notifications": false
      }
      """
  }
}

extension CitmCatalog {
  static let smokeDocument = """
    {
      "areaNames": { "205705993": "Arri\\u00e8re-sc\\u00e8ne central", "205705994": "1er balcon" },
      "audienceSubCategoryNames": { "337100890": "Abonn\\u00e9" },
      "blockNames": {},
      "events": {
        "138586341": {
          "description": null,
          "id": 138586341,
          "logo": null,
          "name": "An Evening Concert",
          "subTopicIds": [337184269, 337184283],
          "subjectCode": null,
          "subtitle": null,
          "topicIds": [324846099, 107888604]
        },
        "138586345": {
          "description": null,
          "id": 138586345,
          "logo": "/images/UE0AAAAACEKo6QAAAAZDSVRN",
          "name": "Quatuor",
          "subTopicIds": [],
          "subjectCode": null,
          "subtitle": null,
          "topicIds": [324846099]
        }
      },
      "performances": [
        {
          "eventId": 138586341,
          "id": 339887544,
          "logo": null,
          "name": null,
          "prices": [
            { "amount": 90250, "audienceSubCategoryId": 337100890, "seatCategoryId": 338937295 },
            { "amount": 66500, "audienceSubCategoryId": 337100890, "seatCategoryId": 338937296 }
          ],
          "seatCategories": [
            {
              "areas": [
                { "areaId": 205705993, "blockIds": [] },
                { "areaId": 205705994, "blockIds": [] }
              ],
              "seatCategoryId": 338937295
            },
            { "areas": [{ "areaId": 205705994, "blockIds": [] }], "seatCategoryId": 338937296 }
          ],
          "seatMapImage": null,
          "start": 1372701600000,
          "venueCode": "PLEYEL_PLEYEL"
        },
        {
          "eventId": 138586345,
          "id": 339887545,
          "logo": "/images/UE0AAAAACEKo6QAAAAZDSVRN",
          "name": null,
          "prices": [],
          "seatCategories": [],
          "seatMapImage": null,
          "start": 1372788000000,
          "venueCode": "PLEYEL_PLEYEL"
        }
      ],
      "seatCategoryNames": { "338937295": "1\\u00e8re cat\\u00e9gorie", "338937296": "2e" },
      "subTopicNames": { "337184269": "Chamber music", "337184283": "Orchestra" },
      "subjectNames": {},
      "topicNames": { "107888604": "Music", "324846099": "Classical" },
      "topicSubTopics": { "107888604": [337184283], "324846099": [337184269, 337184283] },
      "venueNames": { "PLEYEL_PLEYEL": "Salle Pleyel" }
    }
    """
}

extension Canada {
  static let smokeDocument = """
    {
      "type": "FeatureCollection",
      "features": [
        {
          "type": "Feature",
          "properties": { "name": "Canada" },
          "geometry": {
            "type": "Polygon",
            "coordinates": [
              [
                [-65.613616999999977, 43.420273000000009],
                [-65.619720000000029, 43.418052999999986],
                [-65.625, 43.421379000000059],
                [-65, 43],
                [-6.5613616999999977e1, 4.3420273000000009E+1]
              ],
              [[-141.0, 69.6], [-140.99999999999997, 60.306377], [1e-7, -0.0]]
            ]
          }
        }
      ]
    }
    """
}
