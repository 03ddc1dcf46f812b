import Foundation

// The `.iso8601` date strategies, read and written by our own code: a formatter built per
// call cost more than decoding the rest of a record. The common form is handled here; any
// other text goes to Foundation's own coders, so that what is accepted, and the date it
// gives, is what `JSONDecoder` and `JSONEncoder` give on the same machine.

enum _ISO8601 {
  /// The date of `text`: `YYYY-MM-DDTHH:MM:SS`, an optional fraction of 1 to 9 digits, then
  /// `Z` or `±HH:MM` up to 14 hours, every field in its range and the year from 1583 (before,
  /// Foundation's calendar is the Julian one), read here; any other text as Foundation's
  /// `JSONDecoder` reads it with `.iso8601`. Nil when neither takes it.
  static func date(from text: String) -> Date? {
    parse(Array(text.utf8)) ?? foundationDate(from: text)
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` in UTC, seconds rounded down, as Foundation's `JSONEncoder`
  /// writes it with `.iso8601`; a year outside 1583...9999 as Foundation writes it.
  static func string(from date: Date) -> String {
    let seconds = date.timeIntervalSince1970.rounded(.down)
    guard seconds.isFinite, abs(seconds) < 1e15 else { return foundationString(from: date) }
    let total = Int(seconds)
    let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
    let time = total - days * 86_400
    let (year, month, day) = civil(fromDays: days)
    guard (1583...9999).contains(year) else { return foundationString(from: date) }
    var bytes = [UInt8](repeating: 0, count: 20)
    func put(_ value: Int, at index: Int, digits: Int) {
      var value = value
      for position in (index..<index + digits).reversed() {
        bytes[position] = UInt8(ascii: "0") + UInt8(value % 10)
        value /= 10
      }
    }
    put(year, at: 0, digits: 4)
    bytes[4] = UInt8(ascii: "-")
    put(month, at: 5, digits: 2)
    bytes[7] = UInt8(ascii: "-")
    put(day, at: 8, digits: 2)
    bytes[10] = UInt8(ascii: "T")
    put(time / 3600, at: 11, digits: 2)
    bytes[13] = UInt8(ascii: ":")
    put(time / 60 % 60, at: 14, digits: 2)
    bytes[16] = UInt8(ascii: ":")
    put(time % 60, at: 17, digits: 2)
    bytes[19] = UInt8(ascii: "Z")
    return String(decoding: bytes, as: UTF8.self)
  }

  // MARK: The common form

  static func parse(_ text: [UInt8]) -> Date? {
    guard text.count >= 20 else { return nil }
    func number(_ start: Int, _ count: Int) -> Int? {
      var value = 0
      for index in start..<start + count {
        let digit = Int(text[index]) - 48
        guard digit >= 0 && digit <= 9 else { return nil }
        value = value * 10 + digit
      }
      return value
    }
    guard text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
      text[10] == UInt8(ascii: "T"), text[13] == UInt8(ascii: ":"),
      text[16] == UInt8(ascii: ":"),
      let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      year >= 1583, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 60
    else { return nil }
    var index = 19
    var fraction = 0.0
    if text[index] == UInt8(ascii: ".") {
      let start = index + 1
      var end = start
      var digits = 0
      while end < text.count, let digit = number(end, 1) {
        digits = digits * 10 + digit
        end += 1
      }
      guard end > start, end - start <= 9 else { return nil }
      fraction = Double(digits) / pow10[end - start]
      index = end
    }
    guard index < text.count else { return nil }
    var offset = 0
    switch text[index] {
    case UInt8(ascii: "Z"):
      index += 1
    case UInt8(ascii: "+"), UInt8(ascii: "-"):
      guard index + 6 == text.count, text[index + 3] == UInt8(ascii: ":"),
        let hours = number(index + 1, 2), let minutes = number(index + 4, 2),
        hours < 14 || (hours == 14 && minutes == 0), minutes < 60
      else { return nil }
      offset = (hours * 60 + minutes) * 60 * (text[index] == UInt8(ascii: "-") ? -1 : 1)
      index += 6
    default: return nil
    }
    guard index == text.count else { return nil }
    let seconds =
      days(fromCivil: year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset
    // From the reference date, as Foundation counts: the fraction then rounds alike.
    return Date(timeIntervalSinceReferenceDate: Double(seconds - 978_307_200) + fraction)
  }

  static let pow10: [Double] = (0...9).map { (0..<$0).reduce(1.0) { value, _ in value * 10 } }

  static func daysIn(month: Int, year: Int) -> Int {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
  static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
    let year = month <= 2 ? year - 1 : year
    let era = (year >= 0 ? year : year - 399) / 400
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The date of the proleptic Gregorian calendar `days` after 1970-01-01.
  static func civil(fromDays days: Int) -> (year: Int, month: Int, day: Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra =
      (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  // MARK: Anything else: Foundation's own

  /// `text` as `JSONDecoder` reads it with `.iso8601`.
  static func foundationDate(from text: String) -> Date? {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    guard let data = try? JSONEncoder().encode([text]) else { return nil }
    return (try? decoder.decode([Date].self, from: data))?.first
  }

  /// `date` as `JSONEncoder` writes it with `.iso8601`.
  static func foundationString(from date: Date) -> String {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    guard let data = try? encoder.encode([date]),
      let strings = try? JSONDecoder().decode([String].self, from: data)
    else { return "" }
    return strings[0]
  }
}
