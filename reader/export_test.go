package reader

// The Set hooks below change every scan in the test binary: a test that
// sets one must not call t.Parallel, nor run while parallel tests do. The
// With options change one scan.

// WithUnusableIndex makes the row indexes of the columns f accepts count
// as unusable in the scan, for tests of the reader's fallbacks.
func WithUnusableIndex(f func(col int) bool) ScanOption {
	return func(c *scanConfig) error { c.test.unusableIndex = f; return nil }
}

// WithKeptGroups prunes the row groups keep rejects, as a search argument
// ruling them out would, for tests of seeking in files of other writers.
func WithKeptGroups(keep func(stripe, group int) bool) ScanOption {
	return func(c *scanConfig) error { c.test.keepGroups = keep; return nil }
}

// WithChunkRows sets the fewest rows of the parallel scan's chunks of row
// groups, whatever the columns read.
func WithChunkRows(n int) ScanOption {
	return func(c *scanConfig) error { c.test.chunkRows = n; return nil }
}

// RaceEnabled says the tests run under the race detector.
const RaceEnabled = raceEnabled

// exec returns the executor of a serial scan, for tests of its internals.
func (br *BatchReader) exec() *executor { return br.scan.(*executor) }

// SetCompactPath makes the exact filter compact its batches by their
// bits (1), by the list of their rows (-1), or as it chooses (0), for
// every scan until set again (see the note above).
func SetCompactPath(p int) { compactPath = p }
