import Testing

@testable import JSONStreamFoundation

/// `_TypeTable` lends its objects without a retain (see `Unretained.swift`): each type's
/// object is made once, found again however many types share its slot, and lives exactly as
/// long as the table.
@Suite("The coders' table of one object per type")
struct TypeTableTests {
  final class Entry {
    let serial: Int
    init(_ serial: Int) { self.serial = serial }
  }

  /// Stand-ins for types: distinct identities, many more than the table's 64 slots.
  let keys = (0..<300).map { _ in Entry(-1) }

  @Test("each key's object is made once and found again, whatever shares its slot")
  func madeOnceFoundAgain() {
    var table = _TypeTable<Entry>()
    var made = 0
    for round in 0..<3 {
      // Forwards, then backwards: a newcomer may push an older key out of its slot.
      let order = round == 1 ? Array(keys.indices.reversed()) : Array(keys.indices)
      for index in order {
        let serial = table.withValue(
          for: ObjectIdentifier(keys[index]),
          make: {
            made += 1
            return Entry(index)
          },
          body: { $0.serial })
        #expect(serial == index)
      }
    }
    #expect(made == keys.count)
    #expect(table.count == keys.count)
  }

  @Test("the objects live as long as the table, and no longer")
  func lifetime() {
    weak var first: Entry?
    weak var last: Entry?
    do {
      var table = _TypeTable<Entry>()
      for (index, key) in keys.enumerated() {
        table.withValue(
          for: ObjectIdentifier(key), make: { Entry(index) },
          body: { entry in
            if index == 0 { first = entry }
            if index == keys.count - 1 { last = entry }
          })
      }
      #expect(first?.serial == 0)
      #expect(last?.serial == keys.count - 1)
      // Lent again after every slot was taken and replaced.
      let lent = table.withValue(
        for: ObjectIdentifier(keys[0]), make: { Entry(-2) }, body: { $0 })
      #expect(lent === first)
    }
    #expect(first == nil)
    #expect(last == nil)
  }
}
