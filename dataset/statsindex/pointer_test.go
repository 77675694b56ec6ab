package statsindex_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/dataset/statsindex"
	"github.com/orcgo/orc/httpfile"
	"github.com/orcgo/orc/sarg"
)

// putStore is an in-memory object store behind a loopback HTTP server:
// GET with ranges and an ETag per object, PUT and DELETE of whole objects,
// each atomic. It has no rename.
type putStore struct {
	mu      sync.Mutex
	objects map[string][]byte
	srv     *httptest.Server
	client  *http.Client
	gets    atomic.Int64
}

func newPutStore(t testing.TB) *putStore {
	st := &putStore{objects: map[string][]byte{}, client: &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 32}}}
	st.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		switch r.Method {
		case http.MethodPut:
			data, err := io.ReadAll(r.Body)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadRequest)
				return
			}
			st.put(name, data)
		case http.MethodDelete:
			st.mu.Lock()
			delete(st.objects, name)
			st.mu.Unlock()
		default:
			st.gets.Add(1)
			st.mu.Lock()
			data, ok := st.objects[name]
			st.mu.Unlock()
			if !ok {
				http.NotFound(w, r)
				return
			}
			w.Header().Set("ETag", etag(data))
			http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
		}
	}))
	t.Cleanup(st.srv.Close)
	return st
}

func etag(data []byte) string {
	h := sha256.Sum256(data)
	return `"` + hex.EncodeToString(h[:8]) + `"`
}

func (st *putStore) put(name string, data []byte) {
	st.mu.Lock()
	st.objects[name] = data
	st.mu.Unlock()
}

// httpPut is a PutFunc over HTTP.
func (st *putStore) httpPut(name string, data []byte) error {
	req, err := http.NewRequest(http.MethodPut, st.srv.URL+"/"+name, bytes.NewReader(data))
	if err != nil {
		return err
	}
	resp, err := st.client.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("PUT %s: %s", name, resp.Status)
	}
	return nil
}

func (st *putStore) open(name string) dataset.Opener {
	return func() (io.ReaderAt, int64, io.Closer, error) {
		f, err := httpfile.Open(context.Background(), st.srv.URL+"/"+name, httpfile.WithClient(st.client))
		if err != nil {
			return nil, 0, nil, err
		}
		return f, f.Size(), f, nil
	}
}

// listing is what the store's LIST gives: the data objects with their
// sizes and ETags (the index objects and the pointer start with "_").
func (st *putStore) listing() []dataset.File {
	st.mu.Lock()
	defer st.mu.Unlock()
	var files []dataset.File
	for name, data := range st.objects {
		if !strings.HasPrefix(name, "_") {
			files = append(files, dataset.File{Name: name, Open: st.open(name), Size: int64(len(data)), Version: etag(data)})
		}
	}
	return files
}

func (st *putStore) names() []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []string
	for n := range st.objects {
		out = append(out, n)
	}
	return out
}

func (st *putStore) dataset(t testing.TB, files []dataset.File, index bool) *dataset.Dataset {
	t.Helper()
	opts := []dataset.Option{dataset.WithSchema(orc.MustParseSchema("struct<id:bigint,name:string>"))}
	if index {
		opts = append(opts, dataset.WithIndex(statsindex.PointerName, statsindex.Pointer(st.open)))
	}
	d, err := dataset.New(files, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestIndexPointer: an index published on a store without rename is found
// through its pointer; no pointer is no index; a dangling or malformed
// pointer is a warning, and the rows are the footers' rows.
func TestIndexPointer(t *testing.T) {
	st := newPutStore(t)
	for _, f := range latencyFiles(t, 40) {
		st.put(f.name, f.data)
	}
	files := st.listing()
	// Rows of files 3, 17 and 30.
	e := sarg.Or(sarg.Eq("id", sarg.Int(31)), sarg.Eq("id", sarg.Int(172)), sarg.Eq("id", sarg.Int(303)))
	scan := func(d *dataset.Dataset) ([]string, dataset.Stats) {
		t.Helper()
		return scanRows(t, d, dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
	}
	want, _ := scan(st.dataset(t, files, false))
	if len(want) != 3 {
		t.Fatalf("rows %q", want)
	}

	rows, stats := scan(st.dataset(t, files, true))
	same(t, "no pointer", rows, want)
	if stats.IndexUsed || stats.IndexWarning != "" {
		t.Fatalf("no pointer: %+v", stats)
	}

	var buf bytes.Buffer
	if _, err := statsindex.Write(st.dataset(t, files, false).IndexSource(), &buf); err != nil {
		t.Fatal(err)
	}
	name, err := statsindex.Publish(st.httpPut, buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	before := st.gets.Load()
	rows, stats = scan(st.dataset(t, files, true))
	same(t, "through the pointer", rows, want)
	if !stats.IndexUsed || stats.FilesPrunedByIndex != 37 || stats.IndexWarning != "" {
		t.Fatalf("through the pointer: %+v", stats)
	}
	// The pointer, the index, then the three files.
	if n := st.gets.Load() - before; n > 2+3 {
		t.Fatalf("%d requests through the pointer", n)
	}

	// A second publication replaces the pointer; the first index stays.
	name2, err := statsindex.Publish(st.httpPut, buf.Bytes())
	if err != nil || name2 == name {
		t.Fatalf("second publication %q, %v", name2, err)
	}
	st.mu.Lock()
	_, kept := st.objects[name]
	pointer := string(st.objects[statsindex.PointerName])
	st.mu.Unlock()
	if !kept || pointer != "orcgo-index-pointer 1\n"+name2+"\n" {
		t.Fatalf("after the second publication: first kept %v, pointer %q", kept, pointer)
	}

	// Dangling: the index the pointer names is gone.
	st.mu.Lock()
	delete(st.objects, name2)
	st.mu.Unlock()
	rows, stats = scan(st.dataset(t, files, true))
	same(t, "dangling pointer", rows, want)
	if stats.IndexUsed || !strings.Contains(stats.IndexWarning, "names "+name2+", which cannot be opened") {
		t.Fatalf("dangling pointer: %+v", stats)
	}

	for _, bad := range []string{
		"",
		"orcgo-index-pointer 2\n" + name + "\n",
		"orcgo-index-pointer 1\n" + name,
		"orcgo-index-pointer 1\n" + name + "\nmore\n",
		"orcgo-index-pointer 1\n../" + name + "\n",
		"orcgo-index-pointer 1\n_orcgo_index-a/b.orc\n",
		"orcgo-index-pointer 1\n_orcgo_index-..orc\n",
		"orcgo-index-pointer 1\n_orcgo_index-.orc\n",
		"orcgo-index-pointer 1\n" + statsindex.PointerName + "\n",
		"orcgo-index-pointer 1\n" + strings.Repeat("x", 2000) + "\n",
	} {
		st.put(statsindex.PointerName, []byte(bad))
		rows, stats = scan(st.dataset(t, files, true))
		same(t, "bad pointer", rows, want)
		if stats.IndexUsed || !strings.Contains(stats.IndexWarning, statsindex.PointerName) {
			t.Fatalf("pointer %q: %+v", bad, stats)
		}
	}
	st.put(statsindex.PointerName, []byte("orcgo-index-pointer 1\n"+name+"\n"))
	if _, _, _, err := statsindex.Pointer(st.open)(); err != nil {
		t.Fatalf("a pointer at the first index: %v", err)
	}
	st.mu.Lock()
	delete(st.objects, statsindex.PointerName)
	st.mu.Unlock()
	if _, _, _, err := statsindex.Pointer(st.open)(); !errorsIsNotExist(err) {
		t.Fatalf("no pointer: %v", err)
	}
}

func errorsIsNotExist(err error) bool { return err != nil && errors.Is(err, fs.ErrNotExist) }

// scanQuiet scans with a predicate, filtered exactly, for goroutines that
// may not call t.Fatal.
func scanQuiet(d *dataset.Dataset, e sarg.Expr) ([]string, dataset.Stats, error) {
	s, err := d.Scan(dataset.WithSearchArgument(e), dataset.WithExactFilter(true))
	if err != nil {
		return nil, dataset.Stats{}, err
	}
	defer s.Close()
	var rows []string
	b := s.NewBatch()
	for {
		err := s.Next(b)
		if err == io.EOF {
			return rows, s.Stats(), nil
		}
		if err != nil {
			return nil, s.Stats(), err
		}
		rows = append(rows, jsonRows(b)...)
	}
}

// TestIndexPublishConcurrent: writers add files and publish indexes of
// what they listed, at the same time, while a janitor deletes the indexes
// older than the one the pointer names whose publications have returned
// (at once, so that readers meet dangling pointers and indexes deleted
// under them) and readers scan through the pointer. Every scan returns exactly the rows of the files it
// listed, and at the end the pointer names an index that is there.
func TestIndexPublishConcurrent(t *testing.T) {
	st := newPutStore(t)
	all := latencyFiles(t, 40)
	for _, f := range all[:20] {
		st.put(f.name, f.data)
	}
	rounds := 6
	if testing.Short() {
		rounds = 3
	}
	var wg sync.WaitGroup
	stop := make(chan struct{})
	var next atomic.Int64
	next.Store(20)
	var errs sync.Map
	fail := func(err error) { errs.Store(err.Error(), true) }
	// The indexes whose PublishIndex has returned. One still publishing
	// may yet store its pointer, naming an index older than the one the
	// pointer names now: the janitor leaves those (PublishIndex's rule).
	var published sync.Map
	for w := range 3 { // writers
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range rounds {
				if i := int(next.Add(1)) - 1; i < len(all) {
					st.put(all[i].name, all[i].data)
				}
				d, err := dataset.New(st.listing(), dataset.WithSchema(orc.MustParseSchema("struct<id:bigint,name:string>")))
				if err != nil {
					fail(err)
					return
				}
				var buf bytes.Buffer
				if _, err := statsindex.Write(d.IndexSource(), &buf, statsindex.Parallelism(4)); err != nil {
					fail(fmt.Errorf("writer %d: %w", w, err))
					return
				}
				name, err := statsindex.Publish(st.httpPut, buf.Bytes())
				if err != nil {
					fail(err)
					return
				}
				published.Store(name, true)
			}
		}()
	}
	var janitor sync.WaitGroup
	janitor.Add(1)
	go func() { // deletes every index older than the one the pointer names, at once
		defer janitor.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			st.mu.Lock()
			_, cur, _ := strings.Cut(string(st.objects[statsindex.PointerName]), "\n")
			cur = strings.TrimSuffix(cur, "\n")
			for n := range st.objects {
				// The names sort by the time in them. A newer index is
				// one whose pointer is still to come, and so may be an
				// older one whose publication has not returned.
				if _, done := published.Load(n); done && cur != "" && strings.HasPrefix(n, "_orcgo_index-") && n < cur {
					delete(st.objects, n)
				}
			}
			st.mu.Unlock()
			time.Sleep(5 * time.Millisecond)
		}
	}()
	var used, warned atomic.Int64
	for k := range 3 { // readers
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(33, uint64(k)))
			for range 2 * rounds {
				files := st.listing()
				e := sarg.Or(sarg.Eq("id", sarg.Int(int64(10*r.IntN(40)+1))), sarg.Eq("id", sarg.Int(int64(10*r.IntN(40)+2))))
				want, _, err := scanQuiet(st.dataset(t, files, false), e)
				if err != nil {
					fail(err)
					return
				}
				got, stats, err := scanQuiet(st.dataset(t, files, true), e)
				if err != nil {
					fail(err)
					return
				}
				if strings.Join(got, "\n") != strings.Join(want, "\n") {
					fail(fmt.Errorf("%s: %d rows through the pointer, %d without (%s)", e, len(got), len(want), stats.IndexWarning))
				}
				if stats.IndexUsed {
					used.Add(1)
				}
				if stats.IndexWarning != "" {
					warned.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	close(stop)
	janitor.Wait()
	errs.Range(func(k, _ any) bool { t.Error(k); return true })
	// Once the writers are done, the pointer names an index that stays.
	files := st.listing()
	e := sarg.Eq("id", sarg.Int(11))
	want, _, err := scanQuiet(st.dataset(t, files, false), e)
	if err != nil {
		t.Fatal(err)
	}
	got, stats, err := scanQuiet(st.dataset(t, files, true), e)
	if err != nil || strings.Join(got, "\n") != strings.Join(want, "\n") || !stats.IndexUsed || stats.IndexWarning != "" {
		t.Fatalf("after the writers: %d rows, want %d; %+v, %v", len(got), len(want), stats, err)
	}
	t.Logf("%d scans through an index, %d warned (dangling pointer or index deleted under them); %d objects at the end", used.Load(), warned.Load(), len(st.names()))
}
