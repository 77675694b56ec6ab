package storegw

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/orcgo/orc/internal/readat"
)

// memBackend is a store in memory: objects by URL, each with a version.
type memBackend struct {
	mu   sync.Mutex
	objs map[string][]byte
	vers map[string]int
}

func newMem() *memBackend { return &memBackend{objs: map[string][]byte{}, vers: map[string]int{}} }

func (m *memBackend) Open(ctx context.Context, url string) (Object, error) {
	if !strings.HasPrefix(url, "mem://") {
		return nil, fmt.Errorf("%w: %s", ErrBadURL, url)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.objs[url]
	if !ok {
		return nil, fmt.Errorf("%s: %w", url, fs.ErrNotExist)
	}
	tail := b[max(0, len(b)-4):]
	return &memObject{m: m, url: url, ver: m.vers[url], size: int64(len(b)), tail: tail}, nil
}

func (m *memBackend) List(ctx context.Context, url string) ([]Entry, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Entry
	for k, b := range m.objs {
		if strings.HasPrefix(k, url) {
			out = append(out, Entry{Name: strings.TrimPrefix(k, url), Size: int64(len(b)), Version: fmt.Sprint(m.vers[k])})
		}
	}
	return out, nil
}

func (m *memBackend) Create(ctx context.Context, url string) (ObjectWriter, error) {
	return &memWriter{m: m, url: url}, nil
}

type memObject struct {
	m    *memBackend
	url  string
	ver  int
	size int64
	tail []byte
}

func (o *memObject) ReadAtContext(ctx context.Context, p []byte, off int64) (int, error) {
	o.m.mu.Lock()
	defer o.m.mu.Unlock()
	if o.m.vers[o.url] != o.ver {
		return 0, fmt.Errorf("%s: %w", o.url, ErrChanged)
	}
	n := copy(p, o.m.objs[o.url][off:])
	return readat.Done(n, p)
}
func (o *memObject) Size() int64           { return o.size }
func (o *memObject) Version() string       { return fmt.Sprint(o.ver) }
func (o *memObject) Tail() (int64, []byte) { return o.size - int64(len(o.tail)), o.tail }
func (o *memObject) Close() error          { return nil }

type memWriter struct {
	m   *memBackend
	url string
	buf bytes.Buffer
}

func (w *memWriter) Write(p []byte) (int, error) { return w.buf.Write(p) }
func (w *memWriter) Close() error {
	w.m.mu.Lock()
	defer w.m.mu.Unlock()
	w.m.objs[w.url] = w.buf.Bytes()
	w.m.vers[w.url]++
	return nil
}
func (w *memWriter) Abort() error { return nil }

func TestMain(m *testing.M) {
	if os.Getenv("ORCGO_STOREGW_TEST_HELPER") == "1" {
		// Started by Start as the helper.
		if err := Serve(newMem(), os.Stdout, os.Stdin); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestHelper starts the helper (this test binary) and goes through the
// protocol: upload, open, read, list, replace, abort, errors.
func TestHelper(t *testing.T) {
	t.Setenv(HelperEnv, os.Args[0])
	t.Setenv("ORCGO_STOREGW_TEST_HELPER", "1")
	c, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	put := func(url, data string) {
		t.Helper()
		u := c.Create(ctx, url)
		io.WriteString(u, data)
		if err := u.Close(); err != nil {
			t.Fatal(err)
		}
	}
	put("mem://b/t/a.orc", "0123456789abcdef")
	f, err := c.Open(ctx, "mem://b/t/a.orc")
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if n, err := f.ReadAt(buf, 3); n != 5 || err != nil || string(buf) != "34567" {
		t.Fatalf("ReadAt: %d %v %q", n, err, buf)
	}
	if n, err := f.ReadAt(buf, 14); n != 2 || err != io.EOF || string(buf[:2]) != "ef" {
		t.Fatalf("ReadAt at the end: %d %v %q", n, err, buf[:n])
	}
	if f.Requests() != 2 || f.Latency() <= 0 {
		t.Errorf("requests %d latency %v", f.Requests(), f.Latency())
	}
	list, err := c.List(ctx, "mem://b/t/")
	if err != nil || len(list) != 1 || list[0].Name != "a.orc" || list[0].Size != 16 {
		t.Fatalf("List: %v %v", list, err)
	}
	put("mem://b/t/a.orc", "replaced")
	if _, err := f.ReadAt(buf, 0); !errors.Is(err, ErrChanged) || !strings.Contains(err.Error(), "mem://b/t/a.orc") {
		t.Fatalf("read of a replaced object: %v", err)
	}
	f.Close()
	u := c.Create(ctx, "mem://b/t/aborted.orc")
	io.WriteString(u, "part")
	u.Abort()
	if _, err := c.Open(ctx, "mem://b/t/aborted.orc"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("an aborted upload: %v", err)
	}
	if _, err := c.Open(ctx, "ftp://x/y"); !errors.Is(err, ErrBadURL) {
		t.Fatalf("a bad URL: %v", err)
	}
	bad := NewClient(c.base, "wrong")
	if _, err := bad.Open(ctx, "mem://b/t/a.orc"); err == nil || !strings.Contains(err.Error(), "wrong token") {
		t.Fatalf("a wrong token: %v", err)
	}
	req, _ := http.NewRequest(http.MethodGet, c.base+"/list?u=mem://", nil)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("no token: %v %v", resp, err)
	}
}

// stallBackend is a store that never answers what stall names ("open",
// "read", "list"): the call waits for its context, and ended counts those
// that ended.
type stallBackend struct {
	*memBackend
	stall string
	ended chan string
}

func (s *stallBackend) wait(ctx context.Context, what string) error {
	<-ctx.Done()
	s.ended <- what
	return ctx.Err()
}

func (s *stallBackend) Open(ctx context.Context, url string) (Object, error) {
	if s.stall == "open" {
		return nil, s.wait(ctx, "open")
	}
	o, err := s.memBackend.Open(ctx, url)
	if err != nil {
		return nil, err
	}
	return stallObject{o.(*memObject), s}, nil
}

func (s *stallBackend) List(ctx context.Context, url string) ([]Entry, error) {
	if s.stall == "list" {
		return nil, s.wait(ctx, "list")
	}
	return s.memBackend.List(ctx, url)
}

type stallObject struct {
	*memObject
	s *stallBackend
}

func (o stallObject) ReadAtContext(ctx context.Context, p []byte, off int64) (int, error) {
	if o.s.stall == "read" {
		return 0, o.s.wait(ctx, "read")
	}
	return o.memObject.ReadAtContext(ctx, p, off)
}

// TestTimeout: with SetTimeout, an open, read or listing the store does
// not answer fails after the timeout with ErrTimeout naming the URL, and
// the helper's call ends with it; without one, a caller's context still
// ends it, as a cancellation, not a timeout.
func TestTimeout(t *testing.T) {
	b := &stallBackend{memBackend: newMem(), ended: make(chan string, 10)}
	b.objs["mem://b/t/a.orc"] = []byte("0123456789abcdef")
	srv := httptest.NewServer(Handler("tok", b))
	defer srv.Close()
	c := NewClient(srv.URL, "tok")
	c.SetTimeout(200 * time.Millisecond)
	ctx := context.Background()
	for _, what := range []string{"open", "read", "list"} {
		b.stall = ""
		f, err := c.Open(ctx, "mem://b/t/a.orc")
		if err != nil {
			t.Fatal(err)
		}
		b.stall = what
		start := time.Now()
		switch what {
		case "open":
			_, err = c.Open(ctx, "mem://b/t/a.orc")
		case "read":
			_, err = f.ReadAt(make([]byte, 4), 2)
		case "list":
			_, err = c.List(ctx, "mem://b/t/")
		}
		took := time.Since(start)
		if !errors.Is(err, ErrTimeout) || !strings.Contains(err.Error(), "mem://b/t/") || !strings.Contains(err.Error(), "200ms") {
			t.Errorf("%s: %v; want ErrTimeout naming the URL and the timeout", what, err)
		}
		if took < 200*time.Millisecond || took > 5*time.Second {
			t.Errorf("%s: failed after %v", what, took)
		}
		select {
		case got := <-b.ended:
			if got != what {
				t.Errorf("%s: the helper's %s call ended", what, got)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("%s: the helper's call did not end with the client's request", what)
		}
		f.Close()
	}
	c.SetTimeout(0)
	b.stall = "list"
	cctx, cancel := context.WithTimeout(ctx, 100*time.Millisecond)
	defer cancel()
	if _, err := c.List(cctx, "mem://b/t/"); err == nil || errors.Is(err, ErrTimeout) {
		t.Errorf("a listing the caller's context ended: %v; want its error, not ErrTimeout", err)
	}
	<-b.ended
}
