package reader

// SetUnusableIndex makes the row indexes of the columns f accepts count as
// unusable (nil: none), for tests of the reader's fallbacks.
func SetUnusableIndex(f func(col int) bool) { unusableIndex = f }
