import AccessibilityModel
import Testing

@testable import Scanning

// Issue 27, item 4: groups a user can learn. Every automatic group is a run of one row (or
// column, where the layout runs down columns) or a block of whole rows; among such trees the
// cheapest; a key keeps its group while the layout stays. Trees are inline.

/// Layouts and checks of the layout-following grouping.
enum LayoutFixture {
    /// Keys of 44×44 points in rows of the given lengths (ids `prefix0`, `prefix1`, … in reading
    /// order), the first row at `top`.
    static func rows(_ lengths: [Int], prefix: String = "k", top: Double = 0) -> [Element] {
        var elements = [Element](), index = 0
        for (row, length) in lengths.enumerated() {
            for column in 0..<length {
                elements.append(Element(
                    id: "\(prefix)\(index)", label: "\(prefix) \(index)", traits: .keyboardKey,
                    frame: Rect(x: Double(column) * 44, y: top + Double(row) * 44, width: 44, height: 44)))
                index += 1
            }
        }
        return elements
    }

    /// The line (row or column) of every item, by id, from the lines' item ids.
    static func lineOf(_ lines: [[ElementID]]) -> [ElementID: Int] {
        var result = [ElementID: Int]()
        for (index, line) in lines.enumerated() { for id in line { result[id] = index } }
        return result
    }

    /// The groups that neither lie within one line nor consist of whole consecutive lines.
    static func groupsCuttingLines(_ nodes: [ScanNode], lines: [[ElementID]]) -> [ElementID] {
        let line = lineOf(lines)
        return GroupingFixture.allGroups(nodes).compactMap { group in
            let touched = group.items.map { line[$0.id]! }
            let distinct = Array(Set(touched)).sorted()
            if distinct.count == 1 { return nil }
            let whole = distinct == Array(distinct.first!...distinct.last!)
                && distinct.allSatisfy { index in touched.filter { $0 == index }.count == lines[index].count }
            return whole ? nil : group.id
        }
    }

    /// The total steps to select every item once (the quantity the grouping minimises).
    static func total(_ nodes: [ScanNode]) -> Int {
        ScanCost.report(nodes).items.reduce(0) { $0 + $1.autoSelectSteps }
    }

    /// The least total over every tree of equally likely keys in rows of `lengths` whose groups
    /// are runs within one row or blocks of whole rows, by trying every cut of every level (a
    /// run's own inside is the unconstrained optimum T(c)). Exponential: small layouts only.
    static func bruteForceLeast(_ lengths: [Int]) -> Int {
        let totals = ScanOptimum.uniformTotals(upTo: lengths.reduce(0, +))
        var memo = [[Int]: Int]()
        /// The least total of a level holding exactly the rows `rows` (two or more).
        func level(_ rows: [Int]) -> Int {
            if let known = memo[rows] { return known }
            let n = rows.reduce(0, +)
            var rowOf = [Int](), rowStart = [Int]()
            for (index, length) in rows.enumerated() {
                rowStart.append(rowOf.count)
                rowOf += [Int](repeating: index, count: length)
            }
            rowStart.append(n)
            var least = Int.max
            // Every way to cut n items into consecutive parts (bit b set: a cut after item b).
            for mask in 1..<(1 << (n - 1)) {
                var parts = [Range<Int>](), start = 0
                for item in 0..<(n - 1) where mask & (1 << item) != 0 {
                    parts.append(start..<(item + 1))
                    start = item + 1
                }
                parts.append(start..<n)
                var cost = 0, valid = true
                for (position, part) in parts.enumerated() {
                    cost += part.count * (position + 2)
                    if part.count == 1 { continue }
                    let first = rowOf[part.lowerBound], last = rowOf[part.upperBound - 1]
                    if first == last {
                        cost += totals[part.count]
                    } else if rowStart[first] == part.lowerBound && rowStart[last + 1] == part.upperBound {
                        cost += level(Array(rows[first...last]))
                    } else {
                        valid = false
                        break
                    }
                }
                if valid { least = min(least, cost) }
            }
            memo[rows] = least
            return least
        }
        return lengths.count == 1 ? totals[lengths[0]] : level(lengths)
    }

    static func group(_ elements: [Element]) -> [ScanNode] {
        GroupingFixture.grouped(elements)
    }
}

@Suite struct LayoutGroupingTests {
    /// A letter board: the message field across the top, then five rows of six letters and keys.
    static func letterBoard(label: (String) -> String = { $0 }) -> (elements: [Element], lines: [[ElementID]]) {
        let keys = "ABCDEFGHIJKLMNOPQRSTUVWXYZ".map(String.init) + ["space", "delete", "period", "speak"]
        var elements = [Element(id: "message", label: label("Message"), traits: .staticText,
                                frame: Rect(x: 0, y: 0, width: 264, height: 44))]
        var lines: [[ElementID]] = [["message"]]
        for row in 0..<5 {
            var line = [ElementID]()
            for column in 0..<6 {
                let key = keys[row * 6 + column]
                elements.append(Element(
                    id: key, label: label(key), traits: .keyboardKey,
                    frame: Rect(x: Double(column) * 44, y: 60 + Double(row) * 44, width: 44, height: 44)))
                line.append(key)
            }
            lines.append(line)
        }
        return (elements, lines)
    }

    @Test func theLetterBoardIsGroupedByRuns() {
        let board = Self.letterBoard()
        let nodes = LayoutFixture.group(board.elements)
        #expect(nodes.flatMap(\.items).map(\.id) == board.lines.flatMap { $0 })
        #expect(!GroupingFixture.allGroups(nodes).isEmpty)
        #expect(LayoutFixture.groupsCuttingLines(nodes, lines: board.lines) == [], "\(GroupingFixture.outline(nodes))")
        // Cheaper than scanning row by row, and within the benchmark's goal of the optimum.
        let optimum = ScanOptimum.uniformTotals(upTo: 31)[31]
        let rowColumn = LayoutFixture.total(AutomaticGrouping.rowColumnStructure(
            GroupingFixture.gridScreen(board.elements).scanNodes(groupAutomatic: true)))
        let ours = LayoutFixture.total(nodes)
        #expect(ours < rowColumn)
        #expect(Double(ours) <= 1.05 * Double(optimum), "\(ours) against \(optimum)")
    }

    @Test(arguments: [[3, 3, 3], [4, 4, 4], [4, 4, 3], [5, 5, 2], [6, 6], [2, 5, 5], [3, 3, 3, 3], [6, 1, 6]])
    func theCheapestTreeThatFollowsTheRows(lengths: [Int]) {
        // Against every tree whose groups keep to the rows, tried one by one.
        let nodes = LayoutFixture.group(LayoutFixture.rows(lengths))
        let lines = LayoutFixture.rows(lengths).reduce(into: [[ElementID]]()) { lines, element in
            let row = Int(element.frame!.y / 44)
            if lines.count <= row { lines.append([]) }
            lines[row].append(element.id)
        }
        #expect(LayoutFixture.groupsCuttingLines(nodes, lines: lines) == [], "\(GroupingFixture.outline(nodes))")
        #expect(LayoutFixture.total(nodes) == LayoutFixture.bruteForceLeast(lengths), "\(GroupingFixture.outline(nodes))")
    }

    @Test func aRaggedLastRow() {
        // Four rows of seven and a last row of two: the last row's keys are not put with the
        // end of the row above them.
        let lengths = [7, 7, 7, 7, 2]
        let elements = LayoutFixture.rows(lengths)
        let lines = (0..<5).map { row in elements.filter { Int($0.frame!.y / 44) == row }.map(\.id) }
        let nodes = LayoutFixture.group(elements)
        #expect(LayoutFixture.groupsCuttingLines(nodes, lines: lines) == [], "\(GroupingFixture.outline(nodes))")
        #expect(nodes.flatMap(\.items).count == 30)
        let optimum = ScanOptimum.uniformTotals(upTo: 30)[30]
        #expect(Double(LayoutFixture.total(nodes)) <= 1.05 * Double(optimum))
    }

    @Test func aSingleLongRowTakesTheOptimum() {
        // One row constrains nothing: the exact optimum's tree.
        for count in [7, 20, 45] {
            let nodes = LayoutFixture.group(LayoutFixture.rows([count]))
            #expect(LayoutFixture.total(nodes) == ScanOptimum.uniformTotals(upTo: count)[count], "\(count) keys")
        }
    }

    @Test func aKeypadLikeTheCalculators() {
        // gnome-calculator's keypad: rows of six, the tall "=" button starts in the third row
        // (its top is that row's) and reaches down into the fourth, which holds four keys.
        let labels = [["7", "8", "9", "÷", "undo", "C"], ["4", "5", "6", "×", "(", ")"],
                      ["1", "2", "3", "−", "x²", "√", "="], ["0", ".", "%", "+"]]
        var elements = [Element]()
        for (row, keys) in labels.enumerated() {
            for (column, key) in keys.enumerated() {
                let tall = key == "="
                elements.append(Element(
                    id: "key \(key)", label: key, traits: .button,
                    frame: Rect(x: Double(column) * 50, y: 100 + Double(row) * 50, width: 48, height: tall ? 98 : 48)))
            }
        }
        let lines = labels.map { $0.map { "key \($0)" } }
        let nodes = LayoutFixture.group(elements)
        #expect(nodes.flatMap(\.items).map(\.id) == lines.flatMap { $0 })
        #expect(!GroupingFixture.allGroups(nodes).isEmpty)
        #expect(LayoutFixture.groupsCuttingLines(nodes, lines: lines) == [], "\(GroupingFixture.outline(nodes))")
        // 23 keys: too many to try every tree here; within the goal of the optimum, and below
        // row-column scanning.
        let total = LayoutFixture.total(nodes)
        #expect(Double(total) <= 1.05 * Double(ScanOptimum.uniformTotals(upTo: 23)[23]))
        #expect(total < LayoutFixture.total(AutomaticGrouping.rowColumnStructure(
            GroupingFixture.gridScreen(elements).scanNodes(groupAutomatic: true))))
    }

    @Test func aColumnarLayoutIsGroupedByColumns() {
        // Three columns of five, read down each column (the app's own order): groups are runs of
        // one column or whole columns (rows would cut every column).
        var elements = [Element]()
        for column in 0..<3 {
            for row in 0..<5 {
                elements.append(Element(
                    id: "c\(column)r\(row)", label: "\(column) \(row)", traits: .button,
                    frame: Rect(x: Double(column) * 120, y: Double(row) * 44, width: 110, height: 40)))
            }
        }
        let columns = (0..<3).map { column in (0..<5).map { "c\(column)r\($0)" } }
        #expect(AutomaticGrouping.layoutLineStarts(elements.map(\.frame)) == [0, 5, 10])
        let screen = Screen(name: "main", elements: elements, accessibilityElements: columns.flatMap { $0 })
        let nodes = AutomaticGrouping.group(screen.scanNodes(groupAutomatic: true))
        #expect(nodes.flatMap(\.items).map(\.id) == columns.flatMap { $0 })
        #expect(LayoutFixture.groupsCuttingLines(nodes, lines: columns) == [], "\(GroupingFixture.outline(nodes))")
        #expect(LayoutFixture.total(nodes) == LayoutFixture.bruteForceLeast([5, 5, 5]))
    }

    /// The ids of the groups on the way to `id`, outermost first.
    static func path(to id: ElementID, in nodes: [ScanNode]) -> [ElementID]? {
        ScanCost.report(nodes).items.first { $0.id == id }?.path
    }

    @Test func aKeyKeepsItsGroupWhenAnotherLabelChanges() {
        let before = LayoutFixture.group(Self.letterBoard().elements)
        // The message field and the letter A say something else (and the field is wider):
        // K is still in the same groups, at the same positions.
        var changed = Self.letterBoard { $0 == "Message" ? "Hello there, how are you" : $0 == "A" ? "a" : $0 }.elements
        changed[0].frame = Rect(x: 0, y: 0, width: 300, height: 44)
        let after = LayoutFixture.group(changed)
        let path = Self.path(to: "K", in: before)
        #expect(path != nil && !path!.isEmpty)
        #expect(Self.path(to: "K", in: after) == path)
        #expect(ScanCost.report(after).items.first { $0.id == "K" }?.positions
                == ScanCost.report(before).items.first { $0.id == "K" }?.positions)
    }

    @Test func learntWeightsMoveKeysOnlyWhenOrderingByFrequency() {
        // Selections of the last row's keys: without orderByFrequency the layout stays as it is
        // (K keeps its group); with it, the frequent keys come first.
        let board = Self.letterBoard()
        let nodes = GroupingFixture.gridScreen(board.elements).scanNodes(groupAutomatic: true)
        let counts: [ElementID: Double] = ["Y": 40, "Z": 30, "speak": 50, "delete": 20]
        let stable = LearnedWeights(counts: counts, orderByFrequency: false).arrange(nodes, groupItems: true)
        #expect(stable == AutomaticGrouping.group(nodes))
        #expect(Self.path(to: "K", in: stable) == Self.path(to: "K", in: AutomaticGrouping.group(nodes)))
        let fast = LearnedWeights(counts: counts, orderByFrequency: true).arrange(nodes, groupItems: true)
        #expect(fast.flatMap(\.items).first?.id == "speak")
    }

    @Test func costIsReportedBesideTheOptimumAndRowColumn() {
        // 16 keys in 4 rows of 4. Row-column: the key in row r, column c (from 0) costs
        // (r + 2) + (c + 2) steps, a mean of 7. The optimum: 103 steps over the 16 keys.
        let screen = GroupingFixture.gridScreen(LayoutFixture.rows([4, 4, 4, 4]))
        let comparison = ScanCost.comparison(for: screen)
        #expect(comparison.rowColumn == 7)
        #expect(abs(comparison.optimum - 103.0 / 16) < 1e-12)
        // The layout's groups: the first three rows as groups, then the last row's keys, 104.
        #expect(ScanCost.report(for: screen).mean.autoSelectSteps == 104.0 / 16)
    }

    @Test func linesAreRowsUnlessTheOrderRunsDownColumns() {
        let grid = LayoutFixture.rows([4, 4, 4])
        #expect(AutomaticGrouping.layoutLineStarts(grid.map(\.frame)) == [0, 4, 8])
        #expect(AutomaticGrouping.spatialColumnStarts(grid.map(\.frame)).count > 3)
        // A custom order that goes back to the left: the frame far left of the column is not
        // in it (its left edge is left of the column's middle, but it does not reach the column).
        #expect(AutomaticGrouping.spatialColumnStarts([
            Rect(x: 158, y: 47, width: 74, height: 44), Rect(x: 20, y: 130, width: 120, height: 30),
            Rect(x: 30, y: 200, width: 100, height: 30),
        ]) == [0, 1])
        // No frames: every item stands alone.
        #expect(AutomaticGrouping.layoutLineStarts([nil, nil, nil]) == [0, 1, 2])
    }
}
