package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"errors"
)

// Ctrl-C during a slow HTTP read ends the read, not only the scan after
// it (issue 48, item 14): the command stops within a moment, as
// interrupted, though the server would take minutes to answer.
func TestInterruptEndsHTTPRead(t *testing.T) {
	data := writeORC(t, "", 0, 100000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var first, last int64
		if _, err := fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-%d", &first, &last); err != nil {
			http.ServeContent(w, r, "x.orc", time.Unix(0, 0), bytes.NewReader(data))
			return
		}
		w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", first, last, len(data)))
		w.Header().Set("Content-Length", fmt.Sprint(last-first+1))
		w.WriteHeader(http.StatusPartialContent)
		for i := first; i <= last; i++ {
			w.Write(data[i : i+1])
			w.(http.Flusher).Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(200 * time.Millisecond):
			}
		}
	}))
	defer srv.Close()
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
