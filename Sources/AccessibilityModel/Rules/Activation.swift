/// `accessibilityActivate` and taps at the activation point.
public enum Activation {
    /// What activating `element` acts on: the element itself when it has `activate` effects;
    /// otherwise a tap at its activation point, which hits the deepest present element there that
    /// has `activate` (the Orange guide's grouping example, whose activation point lies on the
    /// switch, toggles the switch). Nil when nothing there responds.
    public static func target(of element: Element, in root: Element) -> Element? {
        if element.activate != nil { return element }
        guard let point = element.resolvedActivationPoint else { return nil }
        return HitTesting.deepestElement(at: point, in: Visibility.presentTree(root)) { $0.activate != nil }
    }
}

public enum HitTesting {
    /// The deepest element whose frame contains `point` and that satisfies `matches`.
    /// Later siblings are on top, so they are tried first; a match deeper in a subtree wins over
    /// its ancestors. Containers are searched even when the point is outside their own frame,
    /// because accessibility containers are often virtual (UIAccessibilityElement).
    public static func deepestElement(
        at point: Point, in root: Element, where matches: (Element) -> Bool
    ) -> Element? {
        for child in root.children.reversed() {
            if let hit = deepestElement(at: point, in: child, where: matches) { return hit }
        }
        if matches(root), let frame = root.resolvedFrame, frame.contains(point) { return root }
        return nil
    }
}
