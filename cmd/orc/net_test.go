package main

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// A server that trickles a byte every half second (the answer to Open's
// request for the file's tail aside): with --timeout every command reading
// the file fails within the timeout per attempt, naming the URL and the
// range; a bad --timeout is a usage error.
func TestTimeoutFlag(t *testing.T) {
	data := writeORC(t, "", 0, 100000)
	srv := slowRangeServer(t, data, 500*time.Millisecond)
	url := srv.URL + "/x.orc"
	if len(data) < 2*65536 {
		t.Fatalf("the file (%d bytes) must be larger than the tail Open reads", len(data))
	}
	for _, args := range [][]string{{"cat", "--timeout", "100ms", url}, {"scan", "--timeout", "100ms", "--where", "id = 5", url}} {
		start := time.Now()
		_, _, err := runCmd(t, args...)
		took := time.Since(start)
		// 5 attempts of 100 ms, and 1.5 s of backoff between them.
		if err == nil || !strings.Contains(err.Error(), url+" (bytes=") || !strings.Contains(err.Error(), "timeout)") || took > 5*time.Second {
			t.Fatalf("orc %s: %v after %v", args[0], err, took)
		}
		t.Logf("orc %s --timeout 100ms: %v after %v", args[0], err, took.Round(time.Millisecond))
	}
	for _, bad := range []string{"-1s", "1ns", "soon"} {
		if _, _, err := runCmd(t, "cat", "--timeout", bad, url); err == nil {
			t.Fatalf("--timeout %s was taken", bad)
		}
	}
}

// slowRangeServer serves data on 127.0.0.1: whole to a request without a
// range, and a range one byte at a time, perByte apart, until the client
// goes away. It is closed with the test.
func slowRangeServer(t *testing.T, data []byte, perByte time.Duration) *httptest.Server {
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
			case <-time.After(perByte):
			}
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}
