package httpfile_test

import (
	"bytes"
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc/httpfile"
)

// TestConnectionsKept: a File's default client keeps the connections of a
// burst of 32 reads at once (a scan reading ahead), so the next burst
// opens none; http.DefaultClient keeps 2 to a host, and a second burst
// would open about 30.
func TestConnectionsKept(t *testing.T) {
	data := bytes.Repeat([]byte("orcgo"), 2<<20) // 10 MB
	var opened atomic.Int64
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(20 * time.Millisecond) // so that a burst's requests overlap
		http.ServeContent(w, r, "f", time.Unix(1e9, 0), bytes.NewReader(data))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			opened.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	f, err := httpfile.Open(context.Background(), srv.URL+"/f")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	burst := func(round int) {
		var wg sync.WaitGroup
		for i := range 32 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				p := make([]byte, 1000)
				if _, err := f.ReadAt(p, int64(round*32+i)*10_000); err != nil {
					t.Error(err)
				}
			}()
		}
		wg.Wait()
	}
	burst(0)
	first := opened.Load()
	burst(1)
	again := opened.Load() - first
	t.Logf("connections opened: %d for the first burst, %d for the second", first, again)
	if again > 2 {
		t.Errorf("the second burst of 32 reads opened %d connections, want them kept from the first (%d)", again, first)
	}
}
