package storegw

import (
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"sync"
)

// Backend is what the helper serves: the stores, through their SDKs.
type Backend interface {
	// Open opens the object at url, reading its last bytes.
	Open(ctx context.Context, url string) (Object, error)
	// List lists the objects below the prefix url.
	List(ctx context.Context, url string) ([]Entry, error)
	// Create starts an upload to url, aborted when ctx ends before Close.
	Create(ctx context.Context, url string) (ObjectWriter, error)
}

// Object is an opened object.
type Object interface {
	ReadAtContext(ctx context.Context, p []byte, off int64) (int, error)
	Size() int64
	// Version names the version every read is pinned to.
	Version() string
	// Tail returns the object's last bytes read by Open, and their offset.
	Tail() (int64, []byte)
	Close() error
}

// ObjectWriter is an upload in progress.
type ObjectWriter interface {
	io.Writer
	Close() error // completes it
	Abort() error // ends it without an object
}

// maxRead bounds one read request (the reader asks for 4 MiB at most).
const maxRead = 64 << 20

// Handler serves the protocol for b to requests carrying token.
func Handler(token string, b Backend) http.Handler {
	s := &server{b: b, token: token, open: map[string]Object{}}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /open", s.handleOpen)
	mux.HandleFunc("GET /read", s.handleRead)
	mux.HandleFunc("POST /close", s.handleClose)
	mux.HandleFunc("GET /list", s.handleList)
	mux.HandleFunc("PUT /put", s.handlePut)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get(tokenHeader)), []byte(token)) != 1 {
			http.Error(w, "wrong token", http.StatusUnauthorized)
			return
		}
		mux.ServeHTTP(w, r)
	})
}

type server struct {
	b     Backend
	token string
	mu    sync.Mutex
	next  int
	open  map[string]Object
}

func (s *server) handleOpen(w http.ResponseWriter, r *http.Request) {
	o, err := s.b.Open(r.Context(), r.URL.Query().Get("u"))
	if err != nil {
		fail(w, err)
		return
	}
	s.mu.Lock()
	s.next++
	h := strconv.Itoa(s.next)
	s.open[h] = o
	s.mu.Unlock()
	off, tail := o.Tail()
	w.Header().Set("X-Orcgo-Handle", h)
	w.Header().Set("X-Orcgo-Size", strconv.FormatInt(o.Size(), 10))
	w.Header().Set("X-Orcgo-Version", o.Version())
	w.Header().Set("X-Orcgo-Tail-Offset", strconv.FormatInt(off, 10))
	w.Header().Set("Content-Length", strconv.Itoa(len(tail)))
	w.Write(tail)
}

func (s *server) object(h string) Object {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open[h]
}

func (s *server) handleRead(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	o := s.object(q.Get("h"))
	off, err1 := strconv.ParseInt(q.Get("off"), 10, 64)
	n, err2 := strconv.ParseInt(q.Get("n"), 10, 64)
	if o == nil || err1 != nil || err2 != nil || off < 0 || n < 0 || n > maxRead {
		http.Error(w, fmt.Sprintf("bad read request %q", r.URL.RawQuery), http.StatusBadRequest)
		return
	}
	buf := make([]byte, min(n, max(0, o.Size()-off)))
	k, err := o.ReadAtContext(r.Context(), buf, off)
	if err != nil && !(errors.Is(err, io.EOF) && k == len(buf)) {
		fail(w, err)
		return
	}
	w.Header().Set("Content-Length", strconv.Itoa(k))
	w.Write(buf[:k])
}

func (s *server) handleClose(w http.ResponseWriter, r *http.Request) {
	h := r.URL.Query().Get("h")
	s.mu.Lock()
	o := s.open[h]
	delete(s.open, h)
	s.mu.Unlock()
	if o != nil {
		o.Close()
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *server) handleList(w http.ResponseWriter, r *http.Request) {
	list, err := s.b.List(r.Context(), r.URL.Query().Get("u"))
	if err != nil {
		fail(w, err)
		return
	}
	enc := json.NewEncoder(w)
	for _, e := range list {
		if enc.Encode(e) != nil {
			return
		}
	}
}

func (s *server) handlePut(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	up, err := s.b.Create(ctx, r.URL.Query().Get("u"))
	if err != nil {
		fail(w, err)
		return
	}
	if _, err := io.Copy(up, r.Body); err != nil {
		// The body ended early (the command aborted or failed): no object.
		up.Abort()
		fail(w, err)
		return
	}
	if err := up.Close(); err != nil {
		fail(w, err)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

// fail answers err with its status and text.
func fail(w http.ResponseWriter, err error) {
	code := http.StatusBadGateway
	switch {
	case errors.Is(err, ErrBadURL):
		code = http.StatusBadRequest
	case errors.Is(err, ErrDenied):
		code = http.StatusForbidden
	case errors.Is(err, fs.ErrNotExist):
		code = http.StatusNotFound
	case errors.Is(err, ErrChanged):
		code = http.StatusConflict
	}
	http.Error(w, err.Error(), code)
}
