extension SettingNames {
    /// What each setting does, in a sentence, for `switchscan-settings(5)` (made by
    /// `switchscan manual-pages`, which refuses a setting without one).
    public static let summaries: [String: String] = [
        "scanning": "How the highlight moves: auto (it steps by itself every autoScanningTime), manual (the next and previous switches move it) or singleSwitchStep (one switch moves it; staying still for dwellTime selects).",
        "autoScanningTime": "Seconds per step when scanning is auto.",
        "pauseOnFirstItem": "Extra time on the first item of every cycle and after entering a group.",
        "loops": "Full cycles without a selection before scanning stops (and the highlight hides), or a group is left.",
        "moveRepeat": "While the next or previous switch is held, the highlight moves again every this many seconds.",
        "longPress": "A press held this long does the switch's long-press action; short presses then act on release.",
        "holdDuration": "A press counts only once held this long.",
        "ignoreRepeat": "Presses within this time after an accepted press are ignored.",
        "tapBehavior": "What select does on an item: default (opens the scanner menu), autoTap (taps, unless a second select within autoTapTime opens the menu) or alwaysTap (taps; the menu is reached from its own item).",
        "autoTapTime": "With autoTap: the time within which a second select opens the menu instead.",
        "focusedItemAfterTap": "Where scanning resumes after a tap: the first item, or the current one.",
        "groupItems": "Automatic grouping: items are gathered into groups so that any item is reached in fewer steps.",
        "learnSelections": "Count what the user selects on each screen (in $XDG_STATE_HOME/switchscan/selections.tsv) and group for it.",
        "orderByFrequency": "With learnSelections: put the items selected most often first (faster, but the layout moves as habits change).",
        "dwellTime": "With singleSwitchStep: staying still this long selects.",
        "debounceTime": "Switch state changes closer than this to the previous one are contact bounce and ignored.",
        "minimumDisplayTime": "A press within this time of the highlight moving is ignored (users press before they perceive the move).",
        "brailleHints": "Put elements' hints on the braille line.",
        "flashDuration": "How long an announcement or a page-scrolled message stays on the braille display at the least.",
        "brailleCursor": "Dots 7 and 8 on the braille display: none, firstCell (BrlAPI's cursor on the first cell of the highlighted item) or segment (under the whole highlighted part).",
        "brailleReadingSpeed": "The reader's speed in characters per second: a message stays up at least as long as its length takes to read at this speed.",
        "brailleCode": "The braille code: contracted, uncontracted or computer braille, with the table of each element's language.",
        "brailleRoleFirst": "Role and state words before the label (btn Play), so that on a short display they are in the first window.",
        "brailleTables": "Braille tables chosen per language, winning over brailleCode for those languages.",
        "keyboardLayout": "The scanning keyboard's layout: auto (the text field's language's, by letter frequency), english-frequency, qwerty or azerty.",
    ]
}
