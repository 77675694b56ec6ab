package main

import (
	"errors"
	"testing"
	"time"
)

// Ctrl-C during a slow HTTP read ends the read, not only the scan after
// it (issue 48, item 14): the command stops within a moment, as
// interrupted, though the server would take minutes to answer.
func TestInterruptEndsHTTPRead(t *testing.T) {
	data := writeORC(t, "", 0, 100000)
	srv := slowRangeServer(t, data, 200*time.Millisecond)
	stop := make(chan struct{})
	defer func(old <-chan struct{}) { interrupt = old }(interrupt)
	interrupt = stop
	time.AfterFunc(300*time.Millisecond, func() { close(stop) })
	start := time.Now()
	_, _, err := runCmd(t, "cat", srv.URL+"/x.orc")
	took := time.Since(start)
	var ei errInterrupted
	if !errors.As(err, &ei) || took > 5*time.Second {
		t.Fatalf("cat of a slow URL interrupted after 300ms: %v after %v; want errInterrupted within a few seconds", err, took)
	}
}
