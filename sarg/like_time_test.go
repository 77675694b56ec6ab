package sarg

import (
	"math"
	"strings"
	"testing"
	"time"
)

// A pattern of % and literals matches in time linear in the value: the
// pattern '%' + 2,000 'a' + 'c' against 4,000 'a' took 2,000 x 4,000
// steps per value with backtracking. 2,000 values must take well under a
// second (the linear matcher: about a millisecond), ten under the race
// detector (backtracking would take thousands of times longer).
func TestLikeLinearTime(t *testing.T) {
	v := strings.Repeat("a", 4000)
	for _, pat := range []string{
		"%" + strings.Repeat("a", 2000) + "c",
		"%" + strings.Repeat("a", 2000) + "c%",
		strings.Repeat("%a", 1000) + "c",
		"a%" + strings.Repeat("a", 1500) + "b%" + strings.Repeat("a", 10),
	} {
		for _, bytes := range []bool{false, true} {
			p, err := compileLike(pat, `\`, bytes)
			if err != nil {
				t.Fatal(err)
			}
			// The fastest of three tries: a loaded machine (go test runs
			// packages side by side) slowed one try of the linear
			// matcher past the bound; backtracking fails all three.
			best := time.Duration(math.MaxInt64)
			for range 3 {
				start := time.Now()
				for range 2000 {
					if p.match(v) {
						t.Fatalf("%.20q... matched", pat)
					}
				}
				best = min(best, time.Since(start))
			}
			if best > timeScale*time.Second {
				t.Fatalf("%.20q... (bytes %v): 2,000 values of 4,000 bytes took %v at best of 3", pat, bytes, best)
			}
		}
	}
	// And the same patterns still match where they should.
	p, _ := compileLike("%"+strings.Repeat("a", 2000)+"c", `\`, false)
	if !p.match(v + "c") {
		t.Fatal("no match on a value ending in c")
	}
}
