package latency

import (
	"sync"
	"testing"
	"time"
)

func TestMin(t *testing.T) {
	var m Min
	if got := m.Get(); got != 0 {
		t.Fatalf("zero value: %v, want 0", got)
	}
	m.Note(0)
	if got := m.Get(); got != time.Nanosecond {
		t.Fatalf("after a wait of 0: %v, want 1ns", got)
	}
	var n Min
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			n.Note(time.Duration(100-i) * time.Millisecond)
		}()
	}
	wg.Wait()
	if got := n.Get(); got != 51*time.Millisecond {
		t.Fatalf("after concurrent notes: %v, want 51ms", got)
	}
}
