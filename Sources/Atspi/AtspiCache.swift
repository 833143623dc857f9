import CAtspi
import LiveTree

extension Atspi {
    /// Most values one reply is taken apart into (20 a cached object): past it the rest is
    /// left out, so that an application cannot exhaust memory with one answer.
    public static let maxCacheValues = 20_000_000

    /// An application's cached objects in one call (`org.a11y.atspi.Cache.GetItems` on its bus
    /// name), waiting at most `callTimeout`; each item checked (`CacheReply.parse`: a malformed
    /// one is left out and said). Throws when the application has no cache (Qt 5's answers
    /// nothing; GTK 3's is there only once an event listener is registered) or did not answer.
    public static func cacheItems(busName: String) throws(AtspiError) -> CacheReply {
        if ApplicationSilence.shared.contains(busName) { throw AtspiError(call: "GetItems", message: AtspiError.notAnswering) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard let reply = catspi_cache_items(busName, callTimeout, &buffer, buffer.count) else {
            let message = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let error = AtspiError(call: "GetItems", message: message)
            if error.isTimeout { ApplicationSilence.shared.note(busName) }
            throw error
        }
        defer { catspi_message_unref(reply) }
        if catspi_is_error_reply(reply) != 0 {
            throw AtspiError(call: "GetItems", message: dbus_message_get_error_name(reply).map { String(cString: $0) } ?? "error")
        }
        var iterator = DBusMessageIter()
        var budget = maxCacheValues
        guard dbus_message_iter_init(reply, &iterator) != 0 else { return CacheReply.parse([]) }
        return CacheReply.parse(busValues(&iterator, budget: &budget))
    }

    /// The values from `iterator` to the end of its container.
    static func busValues(_ iterator: inout DBusMessageIter, budget: inout Int) -> [BusValue] {
        var values = [BusValue]()
        while budget > 0 {
            let type = dbus_message_iter_get_arg_type(&iterator)
            if type == catspi_type_invalid { break }
            budget -= 1
            values.append(busValue(&iterator, type: type, budget: &budget))
            if dbus_message_iter_next(&iterator) == 0 { break }
        }
        return values
    }

    static func busValue(_ iterator: inout DBusMessageIter, type: Int32, budget: inout Int) -> BusValue {
        switch type {
        case catspi_type_string, catspi_type_object_path, catspi_type_signature:
            var text: UnsafePointer<CChar>?
            dbus_message_iter_get_basic(&iterator, &text)
            return .string(text.map { String(cString: $0) } ?? "")
        case catspi_type_int32:
            var number: Int32 = 0
            dbus_message_iter_get_basic(&iterator, &number)
            return .integer(Int64(number))
        case catspi_type_int16:
            var number: Int16 = 0
            dbus_message_iter_get_basic(&iterator, &number)
            return .integer(Int64(number))
        case catspi_type_int64:
            var number: Int64 = 0
            dbus_message_iter_get_basic(&iterator, &number)
            return .integer(number)
        case catspi_type_byte:
            var number: UInt8 = 0
            dbus_message_iter_get_basic(&iterator, &number)
            return .unsigned(UInt64(number))
        case catspi_type_uint16:
            var number: UInt16 = 0
            dbus_message_iter_get_basic(&iterator, &number)
            return .unsigned(UInt64(number))
        case catspi_type_uint32:
            var number: UInt32 = 0
            dbus_message_iter_get_basic(&iterator, &number)
            return .unsigned(UInt64(number))
        case catspi_type_uint64:
            var number: UInt64 = 0
            dbus_message_iter_get_basic(&iterator, &number)
            return .unsigned(number)
        case catspi_type_boolean:
            var flag: dbus_bool_t = 0
            dbus_message_iter_get_basic(&iterator, &flag)
            return .boolean(flag != 0)
        case catspi_type_double:
            var number = 0.0
            dbus_message_iter_get_basic(&iterator, &number)
            return .double(number)
        case catspi_type_array, catspi_type_struct, catspi_type_variant, catspi_type_dict_entry:
            var inner = DBusMessageIter()
            dbus_message_iter_recurse(&iterator, &inner)
            let contents = busValues(&inner, budget: &budget)
            switch type {
            case catspi_type_array: return .array(contents)
            case catspi_type_struct: return .structure(contents)
            case catspi_type_variant: return contents.count == 1 ? .variant(contents[0]) : .unsupported(type)
            default: return contents.count == 2 ? .dictionaryEntry(contents[0], contents[1]) : .unsupported(type)
            }
        default:
            return .unsupported(type)
        }
    }
}
