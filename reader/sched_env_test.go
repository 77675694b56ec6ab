package reader

import "os"

// ORCGO_PREFETCH=always makes every scan of the test binary read ahead as
// over a network (the scheduler's prefetching path), whatever the speed
// of the test's files: CI runs the conformance and differential tests
// once so.
func init() {
	if os.Getenv("ORCGO_PREFETCH") == "always" {
		schedPrefetchAlways = true
	}
}
