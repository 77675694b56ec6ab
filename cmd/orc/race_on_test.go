//go:build race

package main

// raceEnabled is true under the race detector, which allocates on its own.
const raceEnabled = true
