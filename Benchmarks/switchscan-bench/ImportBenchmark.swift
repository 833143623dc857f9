// `switchscan import` of a 10,000-node dump (issue 16), for each format: the conversion alone
// in this process (parse, convert, write the scene text, load it back; median of 5), and the
// whole command in a fresh process (wall clock and peak resident size from wait4's ru_maxrss,
// median of 5).
import DumpImport
import Foundation
import Platform
#if canImport(Glibc)
import Glibc
#endif

/// An iOS page source of `count` elements: an application, a window, tables of cells with a
/// label each, nested as a real list screen is (a table, its cells, a text in each cell).
func generateIOSDump(nodes count: Int) -> String {
    // A screen tall enough for every cell: none is left out as off screen.
    let height = (count / 2 + 1) * 44
    var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#, "<AppiumAUT>",
                 #"<XCUIElementTypeApplication type="XCUIElementTypeApplication" name="Bench" label="Bench" enabled="true" visible="true" accessible="false" x="0" y="0" width="390" height="\#(height)" index="0">"#,
                 #"<XCUIElementTypeTable type="XCUIElementTypeTable" name="table" enabled="true" visible="true" accessible="false" x="0" y="0" width="390" height="\#(height)" index="0">"#]
    var written = 2
    var row = 0
    while written + 2 <= count {
        lines.append(#"<XCUIElementTypeCell type="XCUIElementTypeCell" name="cell-\#(row)" enabled="true" visible="true" accessible="false" x="0" y="\#(row * 44)" width="390" height="44" index="\#(row)">"#)
        lines.append(#"<XCUIElementTypeStaticText type="XCUIElementTypeStaticText" value="Item \#(row)" name="Item \#(row)" label="Item \#(row)" enabled="true" visible="true" accessible="true" x="16" y="\#(row * 44 + 11)" width="200" height="22" index="0"/>"#)
        lines.append("</XCUIElementTypeCell>")
        written += 2
        row += 1
    }
    lines += ["</XCUIElementTypeTable>", "</XCUIElementTypeApplication>", "</AppiumAUT>"]
    return lines.joined(separator: "\n") + "\n"
}

/// A UI Automator dump of `count` nodes: a frame layout, a list, clickable rows of two texts.
func generateAndroidDump(nodes count: Int) -> String {
    let height = (count / 3 + 1) * 30
    let flags = #"checkable="false" checked="false" enabled="true" focusable="false" focused="false" long-clickable="false" password="false" selected="false""#
    var lines = ["<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>", #"<hierarchy rotation="0">"#,
                 #"<node index="0" text="" resource-id="" class="android.widget.FrameLayout" package="bench" content-desc="" clickable="false" scrollable="false" \#(flags) bounds="[0,0][1080,\#(height)]">"#,
                 #"<node index="0" text="" resource-id="bench:id/list" class="android.widget.ListView" package="bench" content-desc="" clickable="false" scrollable="true" \#(flags) bounds="[0,0][1080,\#(height)]">"#]
    var written = 2
    var row = 0
    while written + 3 <= count {
        let top = row * 30
        lines.append(#"<node index="\#(row)" text="" resource-id="bench:id/row" class="android.widget.LinearLayout" package="bench" content-desc="" clickable="true" scrollable="false" \#(flags) bounds="[0,\#(top)][1080,\#(top + 30)]">"#)
        lines.append(#"<node index="0" text="Row \#(row)" resource-id="android:id/title" class="android.widget.TextView" package="bench" content-desc="" clickable="false" scrollable="false" \#(flags) bounds="[20,\#(top)][500,\#(top + 15)]" />"#)
        lines.append(#"<node index="1" text="Detail \#(row)" resource-id="android:id/summary" class="android.widget.TextView" package="bench" content-desc="" clickable="false" scrollable="false" \#(flags) bounds="[20,\#(top + 15)][500,\#(top + 30)]" />"#)
        lines.append("</node>")
        written += 3
        row += 1
    }
    lines += ["</node>", "</node>", "</hierarchy>"]
    return lines.joined(separator: "\n") + "\n"
}

func runImportBenchmark(arguments: [String]) {
    let markdown = arguments.contains("--markdown")
    let nodes = 10_000
    do {
        let package = try BenchPackage.locate()
        let switchscan = try package.switchscan()
        let folder = NSTemporaryDirectory() + "switchscan-import-bench-\(CurrentProcess.id)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var rows = [(name: String, bytes: Int, elements: Int, convert: Double, command: Double, peakMB: Double)]()
        for (name, text) in [("iOS XCUITest page source", generateIOSDump(nodes: nodes)), ("Android UI Automator dump", generateAndroidDump(nodes: nodes))] {
            let bytes = Array(text.utf8)
            let path = "\(folder)/\(name.split(separator: " ").first!).xml"
            try text.write(toFile: path, atomically: false, encoding: .utf8)
            var converts = [Double](), elements = 0
            for _ in 0..<5 {
                let start = now()
                let screen = try DumpImporter.screen(bytes: bytes, file: path).get()
                let scene = try DumpImporter.scene(title: "bench", screens: [screen], file: "bench.yaml").get()
                converts.append(Double(now() - start) / 1e9)
                elements = scene.scene.elementCount
            }
            var commands = [Double](), peaks = [Double]()
            for _ in 0..<5 {
                let run = try measuredThroughHelper(switchscan, ["import", path, "-o", "\(folder)/out.yaml"])
                guard run.exit == 0 else { throw BenchFailure("switchscan import \(path) exited \(run.exit)") }
                commands.append(run.seconds)
                peaks.append(Double(run.maxResidentKB) / 1024)
            }
            rows.append((name, bytes.count, elements, median(converts), median(commands), median(peaks)))
        }
        if markdown {
            print("## import: a \(nodes)-node dump\n")
            print("Conversion in process (parse, convert, scene text, loaded back) and the whole `switchscan import FILE -o SCENE` in a fresh process (peak resident size from wait4); medians of 5 runs.\n")
            print("| dump | bytes | scene elements | conversion s | command s | command peak MB |")
            print("| --- | ---: | ---: | ---: | ---: | ---: |")
            for row in rows {
                print("| \(row.name) | \(row.bytes) | \(row.elements) | \(String(format: "%.3f", row.convert)) | \(String(format: "%.3f", row.command)) | \(String(format: "%.1f", row.peakMB)) |")
            }
        } else {
            print("import of a \(nodes)-node dump (medians of 5 runs):")
            for row in rows {
                print("  \(row.name): \(row.bytes) bytes → \(row.elements) scene elements; conversion \(String(format: "%.3f", row.convert)) s; switchscan import \(String(format: "%.3f", row.command)) s, peak \(String(format: "%.1f", row.peakMB)) MB")
            }
        }
    } catch {
        FileHandle.standardError.write(Data("import: \(error)\n".utf8))
        CurrentProcess.exit(1)
    }
}
