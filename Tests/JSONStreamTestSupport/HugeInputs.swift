import Foundation
import Testing

extension Tag {
  /// A test over a huge input (hundreds of megabytes, a million levels or members, every
  /// byte of a document): minutes on a small machine. Run with `JSONSTREAM_HUGE_TESTS=1`.
  @Tag public static var hugeInput: Self
}

extension Trait where Self == ConditionTrait {
  /// Runs the test only when `JSONSTREAM_HUGE_TESTS` is set (continuous integration sets it),
  /// so that `swift test` stays quick on a newcomer's machine. Give such tests the
  /// ``Testing/Tag/hugeInput`` tag too.
  public static var hugeInput: Self {
    .enabled(
      if: ProcessInfo.processInfo.environment["JSONSTREAM_HUGE_TESTS"] != nil,
      "a huge input: set JSONSTREAM_HUGE_TESTS=1 to run it")
  }
}
