package fanout

import (
	"runtime"
	"sync/atomic"
	"time"
)

// Team runs a job on the calling goroutine and on helpers kept between
// jobs, for work that comes as a stream of short jobs (a writer's Write
// calls). Starting a goroutine for each job costs more than the work of a
// small one: the new goroutine waits for a sleeping thread to wake, often
// tens of microseconds. A helper instead waits for the next job by
// spinning a while (Spin, default 100 µs), and only then ends; the next job
// starts a new one. Nothing outlives its last job by more than the spin,
// so a Team needs no closing.
//
// Every worker's part of a job runs exactly once: a helper that is slow
// to start, such as one the runtime has not scheduled yet, is withdrawn
// when the caller has finished its own part, and the caller runs the
// helper's part itself; it waits only for helpers that began. A job that
// splits its work dynamically (each part claiming items from a shared
// counter) so loses nothing to a late helper; one with fixed parts runs a
// late helper's part after its own.
type Team struct {
	// Spin is how long a helper waits for the next job before it ends.
	Spin time.Duration

	job     func(worker int)
	helpers []atomic.Int32 // helperGone, helperIdle, helperAssigned or helperWorking
	active  atomic.Int32   // helpers between taking a job and finishing it
	waiting atomic.Bool    // the caller sleeps on done
	done    chan struct{}
}

// Helper states.
const (
	helperGone int32 = iota
	helperIdle
	helperAssigned
	helperWorking
)

// NewTeam returns a team of the caller and n-1 helpers.
func NewTeam(n int) *Team {
	return &Team{Spin: 100 * time.Microsecond, helpers: make([]atomic.Int32, max(n-1, 0)), done: make(chan struct{}, 1)}
}

// Run calls job(w) once for every worker w of the team, 0 to n-1: job(0)
// on the calling goroutine, the others on the helpers, or on the calling
// goroutine after job(0) where a helper has not started by then. It
// returns once every call has returned. Calls to Run must not overlap.
func (t *Team) Run(job func(worker int)) {
	t.job = job
	for h := range t.helpers {
		if t.helpers[h].CompareAndSwap(helperIdle, helperAssigned) {
			continue
		}
		// The helper has ended (or is ending: it has set Gone already).
		t.helpers[h].Store(helperAssigned)
		go t.help(h)
	}
	job(0)
	for h := range t.helpers {
		if t.helpers[h].CompareAndSwap(helperAssigned, helperIdle) {
			job(h + 1) // withdrawn before it started
		}
	}
	t.wait()
	t.job = nil
}

// wait returns once no helper is working on the job: spinning first, then
// sleeping until the last one finishes.
func (t *Team) wait() {
	deadline := time.Now().Add(t.Spin)
	for i := 0; t.active.Load() != 0; i++ {
		if i&1023 == 1023 {
			runtime.Gosched() // one processor: let the helpers finish
		}
		if i&63 == 63 && time.Now().After(deadline) {
			t.waiting.Store(true)
			if t.active.Load() == 0 && t.waiting.CompareAndSwap(true, false) {
				return
			}
			<-t.done
			return
		}
	}
}

// help is a helper's loop: work on the job it was given, then wait for the
// next one, and end after Spin without one.
func (t *Team) help(h int) {
	st := &t.helpers[h]
	for {
		t.active.Add(1)
		if st.CompareAndSwap(helperAssigned, helperWorking) {
			t.job(h + 1)
			st.Store(helperIdle)
		}
		if t.active.Add(-1) == 0 && t.waiting.CompareAndSwap(true, false) {
			t.done <- struct{}{}
		}
		if !t.idle(st) {
			return
		}
	}
}

// idle spins until the helper is given a job (true) or Spin passes, when
// it ends (false).
func (t *Team) idle(st *atomic.Int32) bool {
	deadline := time.Now().Add(t.Spin)
	for i := 0; ; i++ {
		if st.Load() == helperAssigned {
			return true
		}
		if i&63 == 63 {
			if time.Now().After(deadline) {
				if st.CompareAndSwap(helperIdle, helperGone) {
					return false
				}
				return true // given a job just now
			}
			if i&1023 == 1023 {
				runtime.Gosched()
			}
		}
	}
}
