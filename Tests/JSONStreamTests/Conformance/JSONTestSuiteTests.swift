import JSONStream
import JSONStreamTestSupport
import Testing

/// JSONTestSuite (github.com/nst/JSONTestSuite), read from the shared test data next to the
/// checkout: every `y_` file must parse and every `n_` file must fail, fed whole and in 1-byte
/// chunks. The outcome of each `i_` file (implementation-defined) is listed in the Conformance article.
@Suite(
  "JSONTestSuite conformance",
  .enabled(
    if: SharedData.hasJSONTestSuite,
    "JSONTestSuite not found at ../shared/testdata/JSONTestSuite/test_parsing; skipped"))
struct JSONTestSuiteTests {
  @Test("y_ files are accepted, whole and in 1-byte chunks")
  func accepted() throws {
    let files = try SharedData.files(in: SharedData.jsonTestSuite, prefix: "y_")
    #expect(files.count > 90)
    for file in files {
      let whole = parse(file.bytes)
      #expect(whole.error == nil, "\(file.name): \(whole)")
      #expect(parseBytewise(file.bytes) == whole, "\(file.name)")
    }
  }

  @Test("n_ files are rejected, whole and in 1-byte chunks, with the same error")
  func rejected() throws {
    let files = try SharedData.files(in: SharedData.jsonTestSuite, prefix: "n_")
    #expect(files.count > 180)
    for file in files {
      let whole = parse(file.bytes)
      #expect(whole.error != nil, "\(file.name) was accepted: \(whole.events)")
      #expect(parseBytewise(file.bytes) == whole, "\(file.name)")
    }
  }

  @Test("i_ files: the documented outcome, identical at every chunking")
  func implementationDefined() throws {
    let files = try SharedData.files(in: SharedData.jsonTestSuite, prefix: "i_")
    // The Conformance article lists these; anything not named here is rejected.
    let accepted: Set<String> = [
      "i_number_double_huge_neg_exp.json", "i_number_huge_exp.json",
      "i_number_neg_int_huge_exp.json", "i_number_pos_double_huge_exp.json",
      "i_number_real_neg_overflow.json", "i_number_real_pos_overflow.json",
      "i_number_real_underflow.json", "i_number_too_big_neg_int.json",
      "i_number_too_big_pos_int.json", "i_number_very_big_negative_int.json",
      "i_structure_500_nested_arrays.json",
    ]
    for file in files {
      let whole = parse(file.bytes)
      #expect(whole.succeeded == accepted.contains(file.name), "\(file.name): \(whole)")
      #expect(parseBytewise(file.bytes) == whole, "\(file.name)")
    }
  }

  @Test("every file fails or succeeds identically at every single split point")
  func everySplit() throws {
    for prefix in ["y_", "n_", "i_"] {
      for file in try SharedData.files(in: SharedData.jsonTestSuite, prefix: prefix)
      where file.bytes.count <= 2_000 {
        #expect(splitMismatches(file.bytes) == [], "\(file.name)")
      }
    }
  }
}
