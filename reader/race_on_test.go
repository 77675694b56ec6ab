//go:build race

package reader

// raceEnabled says the tests run under the race detector, whose slowdown
// makes wall-clock assertions meaningless.
const raceEnabled = true
