/// A D-Bus value as it came off the bus: the reply of AT-SPI's `org.a11y.atspi.Cache.GetItems`
/// is taken apart into these by the Atspi module and checked here, so that the checks are tested
/// on inline values.
public indirect enum BusValue: Equatable, Sendable {
    /// s (string), o (object path) and g (signature).
    case string(String)
    /// y, n, i, x.
    case integer(Int64)
    /// q, u, t (a t past Int64's range is kept as `unsupported`).
    case unsigned(UInt64)
    case boolean(Bool)
    case double(Double)
    case array([BusValue])
    case structure([BusValue])
    case variant(BusValue)
    case dictionaryEntry(BusValue, BusValue)
    /// A type the cache never sends (a file descriptor), by its D-Bus type code.
    case unsupported(Int32)
}

/// One object of an application as the AT-SPI cache gives it (`GetItems`, signature
/// `a((so)(so)(so)iiassusau)`): everything but its extents, actions, value and text.
public struct CacheItem: Equatable, Sendable {
    /// Bus name and object path, as `AccessibleNode.id`.
    public var id: String
    /// Its parent's id; nil for an application's root.
    public var parentID: String?
    /// Its place among its parent's children; nil when the toolkit gave none (-1).
    public var indexInParent: Int?
    /// How many children it has; nil when the toolkit gave none (-1: an object that manages
    /// its descendants, a GTK 3 list box, whose children the cache leaves out).
    public var childCount: Int?
    /// The AT-SPI interfaces it has ("org.a11y.atspi.Action"…).
    public var interfaces: Set<String>
    public var name: String
    /// AT-SPI's role number (`AtspiRole`).
    public var role: UInt32
    public var description: String
    public var states: AccessibleStates

    public init(id: String, parentID: String?, indexInParent: Int?, childCount: Int?, interfaces: Set<String>, name: String,
                role: UInt32, description: String, states: AccessibleStates) {
        self.id = id
        self.parentID = parentID
        self.indexInParent = indexInParent
        self.childCount = childCount
        self.interfaces = interfaces
        self.name = name
        self.role = role
        self.description = description
        self.states = states
    }
}

/// The cache's answer checked: the items that could be read, and a message for each one that
/// could not (a malformed item costs that object, never the rest).
public struct CacheReply: Equatable, Sendable {
    public var items: [CacheItem]
    public var problems: [String]

    public init(items: [CacheItem] = [], problems: [String] = []) {
        self.items = items
        self.problems = problems
    }

    /// Most items one reply is read for (the rest are said to be left out).
    public static let maxItems = 1_000_000
    /// Most children a count may claim, and most states words read.
    public static let maxCount = 1_000_000
    static let maxStateWords = 8

    /// AT-SPI's state numbers (`AtspiStateType`) of the states `AccessibleStates` holds, in the
    /// order of its bits.
    static let stateNumbers: [UInt32] = [8, 24, 30, 25, 16, 4, 23, 20, 11, 12, 1, 7, 41, 10, 9, 31]

    /// The mask of `AccessibleStates` for AT-SPI's state words (bit N of word W: state 32W + N).
    public static func states(fromWords words: [UInt32]) -> AccessibleStates {
        var mask: UInt32 = 0
        for (bit, number) in stateNumbers.enumerated() {
            let word = Int(number / 32)
            if word < words.count, words[word] & (1 << (number % 32)) != 0 { mask |= 1 << UInt32(bit) }
        }
        return AccessibleStates(rawValue: mask)
    }

    /// Whether the state words say the object manages its descendants (its children are not in
    /// the cache, and there may be very many).
    public static func managesDescendants(_ words: [UInt32]) -> Bool { states(fromWords: words).contains(.managesDescendants) }

    /// The reply's body (its arguments, in order) checked.
    public static func parse(_ arguments: [BusValue]) -> CacheReply {
        guard arguments.count == 1, case .array(let elements) = arguments[0] else {
            return CacheReply(problems: ["GetItems: the reply is not one array (a((so)(so)(so)iiassusau)) but \(arguments.count) argument(s)"])
        }
        var reply = CacheReply()
        for (index, element) in elements.enumerated() {
            guard index < maxItems else {
                reply.problems.append("GetItems: \(elements.count - maxItems) items past \(maxItems) left out")
                break
            }
            switch item(element) {
            case .success(let item): reply.items.append(item)
            case .failure(let problem): reply.problems.append("GetItems item \(index): \(problem.text)")
            }
        }
        return reply
    }

    struct Problem: Error { var text: String }

    /// One item: ((so)(so)(so)iiassusau).
    static func item(_ value: BusValue) -> Result<CacheItem, Problem> {
        guard case .structure(let fields) = value else { return .failure(Problem(text: "not a structure")) }
        guard fields.count == 10 else { return .failure(Problem(text: "\(fields.count) fields, not 10")) }
        guard let object = reference(fields[0]) else { return .failure(Problem(text: "the object is not a (so) reference")) }
        guard reference(fields[1]) != nil else { return .failure(Problem(text: "the application is not a (so) reference")) }
        guard let parent = reference(fields[2]) else { return .failure(Problem(text: "the parent is not a (so) reference")) }
        guard case .integer(let index) = fields[3], (-1...Int64(maxCount)).contains(index) else {
            return .failure(Problem(text: "index in parent \(describe(fields[3])) is not -1…\(maxCount)"))
        }
        guard case .integer(let count) = fields[4], (-1...Int64(maxCount)).contains(count) else {
            return .failure(Problem(text: "child count \(describe(fields[4])) is not -1…\(maxCount)"))
        }
        guard case .array(let interfaceValues) = fields[5] else { return .failure(Problem(text: "the interfaces are not an array")) }
        var interfaces = Set<String>()
        for value in interfaceValues {
            guard case .string(let interface) = value else { return .failure(Problem(text: "an interface is not a string")) }
            interfaces.insert(interface)
        }
        guard case .string(let name) = fields[6] else { return .failure(Problem(text: "the name is not a string")) }
        guard case .unsigned(let role) = fields[7], role <= UInt64(UInt32.max) else {
            return .failure(Problem(text: "the role \(describe(fields[7])) is not an unsigned 32-bit number"))
        }
        guard case .string(let description) = fields[8] else { return .failure(Problem(text: "the description is not a string")) }
        guard case .array(let stateValues) = fields[9], stateValues.count <= maxStateWords else {
            return .failure(Problem(text: "the states are not an array of at most \(maxStateWords) words"))
        }
        var words = [UInt32]()
        for value in stateValues {
            guard case .unsigned(let word) = value, word <= UInt64(UInt32.max) else {
                return .failure(Problem(text: "a states word \(describe(value)) is not an unsigned 32-bit number"))
            }
            words.append(UInt32(word))
        }
        // A parent reference to a null path, or to the object itself, is no parent.
        let parentID: String? = parent.path == "/org/a11y/atspi/null" || parent.id == object.id ? nil : parent.id
        return .success(CacheItem(
            id: object.id, parentID: parentID, indexInParent: index >= 0 ? Int(index) : nil,
            childCount: count >= 0 && !managesDescendants(words) ? Int(count) : nil, interfaces: interfaces, name: name,
            role: UInt32(role), description: description, states: states(fromWords: words)))
    }

    /// A (so) reference: its bus name and path, and the two as an id.
    static func reference(_ value: BusValue) -> (id: String, path: String)? {
        guard case .structure(let parts) = value, parts.count == 2, case .string(let bus) = parts[0], case .string(let path) = parts[1],
              path.hasPrefix("/") else { return nil }
        return (bus + path, path)
    }

    static func describe(_ value: BusValue) -> String {
        switch value {
        case .integer(let number): return String(number)
        case .unsigned(let number): return String(number)
        case .string(let text): return "'\(text.prefix(40))'"
        default: return "(\(value))".prefix(60).description
        }
    }

    /// The items under `rootID` (the window), each one's children in their order: the cache's
    /// part of the window. `incomplete`: objects whose children the cache does not hold (a
    /// list that manages its descendants, or fewer children found than counted), for the caller
    /// to read another way.
    public func tree(under rootID: String) -> (ids: [String], incomplete: [String]) {
        var children = [String: [CacheItem]]()
        var byID = [String: CacheItem]()
        for item in items {
            byID[item.id] = item
            if let parent = item.parentID { children[parent, default: []].append(item) }
        }
        var ids = [String](), incomplete = [String]()
        var seen = Set<String>()
        func walk(_ id: String) {
            guard seen.insert(id).inserted, let item = byID[id] else { return }
            ids.append(id)
            let held = (children[id] ?? []).enumerated().sorted { ($0.element.indexInParent ?? Int.max, $0.offset) < ($1.element.indexInParent ?? Int.max, $1.offset) }
            if item.childCount != held.count { incomplete.append(id) }
            for child in held { walk(child.element.id) }
        }
        walk(rootID)
        return (ids, incomplete)
    }
}
