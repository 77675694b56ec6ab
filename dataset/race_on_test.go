//go:build race

package dataset_test

// raceEnabled is true under the race detector, which allocates on its own.
const raceEnabled = true
