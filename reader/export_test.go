package reader

// SetUnusableIndex makes the row indexes of the columns f accepts count as
// unusable (nil: none), for tests of the reader's fallbacks.
func SetUnusableIndex(f func(col int) bool) { unusableIndex = f }

// SetChunkRows sets the fewest rows of a parallel scan's chunk of row
// groups and returns a function restoring the default.
func SetChunkRows(n int) (restore func()) {
	old := chunkRows
	chunkRows = n
	return func() { chunkRows = old }
}

// RaceEnabled says the tests run under the race detector.
const RaceEnabled = raceEnabled

// exec returns the executor of a serial scan, for tests of its internals.
func (br *BatchReader) exec() *executor { return br.scan.(*executor) }
