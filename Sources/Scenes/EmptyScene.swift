extension Scene {
    /// A scene with no screens: what stands for content that is not a scene file (a live
    /// application) where a scene's title, size and language are asked for.
    public init(title: String, size: (width: Double, height: Double), language: String) {
        self.init(
            title: title, description: nil, file: "", size: size, language: language, initialState: [:],
            stateNames: [], start: "", screens: [], tests: [])
    }
}
