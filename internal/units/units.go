// Package units writes counts and sizes for messages, one way for every
// package of the module: "1 column", "3 columns", "256.0 MiB".
package units

import "fmt"

// Bytes writes n bytes in the largest binary unit that keeps a number of at
// least 1 (B, KiB, MiB, GiB, TiB), with one decimal for the units past B.
func Bytes(n int64) string {
	if n < 1024 {
		return fmt.Sprintf("%d B", n)
	}
	f := float64(n)
	for _, u := range []string{"KiB", "MiB", "GiB", "TiB"} {
		f /= 1024
		if f < 1024 || u == "TiB" {
			return fmt.Sprintf("%.1f %s", f, u)
		}
	}
	return ""
}

// Plural writes n and noun, with an s unless n is 1: "1 row", "2 rows".
func Plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
