import Foundation
import Runtime
import Scanning
import Scenes

/// The scanning keyboard of `switchscan run`: the layout for the content's language (yours in
/// `$XDG_CONFIG_HOME/switchscan/keyboards` first, then the shipped ones), with presage's
/// prediction learning the user's words in `$XDG_STATE_HOME/switchscan`. What cannot be had is
/// said on standard error and the keyboard goes without it (no prediction; no keyboard when no
/// layout loads); prediction failing to start mid-run is said by the run (`statuses`), on its
/// status line.
enum RunKeyboard {
    static func offer(language: String, chosen: KeyboardLayoutChoice, said: inout Set<String>, statuses: StatusMailbox) -> KeyboardOffer? {
        let layouts = KeyboardLayouts(folders: KeyboardLayouts.folders())
        for problem in layouts.problems {
            let text = "keyboard layout left out: \(problem)"
            printError("switchscan run: \(text)")
            said.insert(text)
        }
        guard let layout = layouts.layout(for: language, chosen: chosen.layoutID) else {
            let text = "no keyboard layout could be loaded: text fields cannot be typed into"
            printError("switchscan run: \(text)")
            said.insert(text)
            return nil
        }
        guard layout.rows.contains(.predictions) else { return KeyboardOffer(layout: layout) }
        // Presage and the folder of the user's words are made when the keyboard first
        // predicts: a run that types nothing writes nothing in the state folder.
        let prediction = DeferredPrediction({ try PresagePrediction(stateFolder: PresagePrediction.defaultStateFolder()) },
                                            failed: { error in statuses.post("word prediction is off: \(error)") })
        return KeyboardOffer(layout: layout, predictor: prediction)
    }
}
