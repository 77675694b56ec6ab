package reader

import "time"

// The Set hooks below change every scan in the test binary: a test that
// sets one must not call t.Parallel, nor run while parallel tests do. The
// With options change one scan.

// WithUnusableIndex makes the row indexes of the columns f accepts count
// as unusable in the scan, for tests of the reader's fallbacks.
func WithUnusableIndex(f func(col int) bool) ScanOption {
	return func(c *scanConfig) error { c.test.unusableIndex = f; return nil }
}

// WithChunkRows sets the fewest rows of the parallel scan's chunks of row
// groups, whatever the columns read.
func WithChunkRows(n int) ScanOption {
	return func(c *scanConfig) error { c.test.chunkRows = n; return nil }
}

// SetReadFast sets how long beyond its transfer time a read may take and
// still count as local, and returns a function restoring the default: a
// test that compares the reads of two scans of a local file keeps a loaded
// machine (or -race) from making one of them read ahead.
func SetReadFast(d time.Duration) (restore func()) {
	old := readFast
	readFast = d
	return func() { readFast = old }
}

// RaceEnabled says the tests run under the race detector.
const RaceEnabled = raceEnabled

// exec returns the executor of a serial scan, for tests of its internals.
func (br *BatchReader) exec() *executor { return br.scan.(*executor) }
