extension TakeoverOutcome {
    /// The old name of `size`, kept for one release (its metrics label is still `screen`).
    @available(*, deprecated, renamed: "size")
    public static var screen: TakeoverOutcome { .size }
}
