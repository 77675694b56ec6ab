//go:build race

package format

// raceEnabled is true under the race detector, which allocates on its own.
const raceEnabled = true
