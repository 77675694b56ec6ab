package fanout

import (
	"runtime"
	"sync/atomic"
	"testing"
	"time"
)

// TestTeam runs many short jobs, some with pauses between them longer
// than the spin, and checks that each job's items are all done exactly
// once before Run returns, that helpers take part, and that they end.
func TestTeam(t *testing.T) {
	before := runtime.NumGoroutine()
	team := NewTeam(3)
	team.Spin = 200 * time.Microsecond
	const items = 64
	var byHelper atomic.Int64
	for job := range 2000 {
		var next atomic.Int32
		var done [items]atomic.Int32
		team.Run(func(w int) {
			if w < 0 || w > 2 {
				t.Errorf("worker %d", w)
			}
			for {
				k := int(next.Add(1)) - 1
				if k >= items {
					return
				}
				if w > 0 {
					byHelper.Add(1)
				}
				for range 200 { // a little work per item
					runtime.KeepAlive(k)
				}
				done[k].Add(1)
			}
		})
		for k := range done {
			if n := done[k].Load(); n != 1 {
				t.Fatalf("job %d: item %d done %d times when Run returned", job, k, n)
			}
		}
		if job%500 == 499 {
			time.Sleep(2 * time.Millisecond) // the helpers end meanwhile
		}
	}
	if byHelper.Load() == 0 {
		t.Error("helpers did no item in 2,000 jobs")
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines 5 s after the last job, %d before the first", runtime.NumGoroutine(), before)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestTeamSlowHelper checks that the caller does not wait for a helper
// that has not started, and that every worker's part still runs once:
// with one processor and a caller that never yields, a new helper cannot
// run before the caller's part ends, so the caller runs its part too.
func TestTeamSlowHelper(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	team := NewTeam(3)
	for job := range 200 {
		var parts [3]atomic.Int32
		team.Run(func(w int) { parts[w].Add(1) })
		for w := range parts {
			if n := parts[w].Load(); n != 1 {
				t.Fatalf("job %d: worker %d's part ran %d times", job, w, n)
			}
		}
		if job%50 == 49 {
			time.Sleep(time.Millisecond) // the helpers end meanwhile
		}
	}
}
