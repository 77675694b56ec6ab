//go:build race

package sarg

// timeScale widens wall-clock bounds under the race detector, which runs
// this code 5 to 20 times slower.
const timeScale = 10
