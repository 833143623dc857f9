import CBrlAPI

/// A BRLTTY command a BrlAPI client can accept in tty mode, named as BRLTTY's key tables
/// name it (the raw value): `ROUTE`, `FWINLT`, `LNUP`…
///
/// Display profiles (`Devices/braille/*.yaml`) bind display keys to switch actions through
/// these names; `BrlAPIConnection.acceptKeys(_:)` accepts exactly the commands handled.
public enum BrlAPICommand: String, CaseIterable, Hashable, Sendable {
    /// A routing key; its argument is the cell, 0-based.
    case route = "ROUTE"
    /// Go back one window (the display's pan-left key).
    case panLeft = "FWINLT"
    /// Go forward one window (the display's pan-right key).
    case panRight = "FWINRT"
    case lineUp = "LNUP"
    case lineDown = "LNDN"
    case top = "TOP"
    case bottom = "BOT"
    case characterLeft = "CHRLT"
    case characterRight = "CHRRT"
    case halfWindowLeft = "HWINLT"
    case halfWindowRight = "HWINRT"
    case lineBegin = "LNBEG"
    case lineEnd = "LNEND"
    case home = "HOME"
    case back = "BACK"
    case `return` = "RETURN"
    case cursorTracking = "CSRTRK"

    /// The command by its BRLTTY name (`FWINLT`), case-insensitively.
    public init?(brlttyName: String) {
        self.init(rawValue: brlttyName.uppercased())
    }

    /// BRLTTY's name of the command.
    public var brlttyName: String { rawValue }

    /// Whether the command carries an argument (a command block, like ROUTE's cell).
    public var hasArgument: Bool { self == .route }

    /// The command's code without the type bits (`BRLAPI_KEY_CMD_…`).
    var code: UInt64 {
        switch self {
        case .route: cbrlapi_key_cmd_route()
        case .panLeft: cbrlapi_key_cmd_fwinlt()
        case .panRight: cbrlapi_key_cmd_fwinrt()
        case .lineUp: cbrlapi_key_cmd_lnup()
        case .lineDown: cbrlapi_key_cmd_lndn()
        case .top: cbrlapi_key_cmd_top()
        case .bottom: cbrlapi_key_cmd_bot()
        case .characterLeft: cbrlapi_key_cmd_chrlt()
        case .characterRight: cbrlapi_key_cmd_chrrt()
        case .halfWindowLeft: cbrlapi_key_cmd_hwinlt()
        case .halfWindowRight: cbrlapi_key_cmd_hwinrt()
        case .lineBegin: cbrlapi_key_cmd_lnbeg()
        case .lineEnd: cbrlapi_key_cmd_lnend()
        case .home: cbrlapi_key_cmd_home()
        case .back: cbrlapi_key_cmd_back()
        case .return: cbrlapi_key_cmd_return()
        case .cursorTracking: cbrlapi_key_cmd_csrtrk()
        }
    }

    /// The full key code (`BRLAPI_KEY_TYPE_CMD | BRLAPI_KEY_CMD_…`), argument 0, no flags.
    var keyCode: UInt64 { cbrlapi_key_type_cmd() | code }

    /// The command of a key's command part (its code without argument and flags).
    static func command(code: UInt64) -> BrlAPICommand? {
        allCases.first { $0.code == code }
    }
}

/// A key read from the display in tty mode, decoded from its BrlAPI key code.
public enum BrlAPIKey: Hashable, Sendable, CustomStringConvertible {
    /// A routing key over the cell, 0-based (ROUTE, bounds-checked against the display width).
    case route(Int)
    /// FWINLT.
    case panLeft
    /// FWINRT.
    case panRight
    /// LNUP.
    case lineUp
    /// LNDN.
    case lineDown
    /// Another accepted command without argument (TOP, HOME…), flags dropped.
    case command(BrlAPICommand)
    /// Anything else, with its raw 64-bit key code: keysyms, other commands, and ROUTE with an
    /// argument outside the display.
    case other(UInt64)

    public var description: String {
        switch self {
        case .route(let cell): "route(\(cell))"
        case .panLeft: "panLeft"
        case .panRight: "panRight"
        case .lineUp: "lineUp"
        case .lineDown: "lineDown"
        case .command(let command): "command(\(command.brlttyName))"
        case .other(let code): "other(0x\(String(code, radix: 16)))"
        }
    }

    /// Decodes a key code (`brlapi_expandKeyCode`); ROUTE arguments at or past `columns`
    /// become `.other`.
    static func decode(_ code: UInt64, columns: Int) -> BrlAPIKey {
        var type: UInt32 = 0
        var command: UInt32 = 0
        var argument: UInt32 = 0
        var flags: UInt32 = 0
        guard cbrlapi_expand_key(code, &type, &command, &argument, &flags) == 0,
              UInt64(type) == cbrlapi_key_type_cmd(),
              let known = BrlAPICommand.command(code: UInt64(command))
        else { return .other(code) }
        switch known {
        case .route:
            guard Int(argument) < columns else { return .other(code) }
            return .route(Int(argument))
        case .panLeft: return .panLeft
        case .panRight: return .panRight
        case .lineUp: return .lineUp
        case .lineDown: return .lineDown
        default: return .command(known)
        }
    }
}
