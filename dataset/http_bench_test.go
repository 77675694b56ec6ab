package dataset_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/httpfile"
)

// BenchmarkFooterPrunedOverHTTP scans 1,000 small files served over HTTP
// by a loopback server that waits 20 ms before each response, for the
// rows of 3 of them (the others ruled out by their footers): opening one
// file after another against opening ahead (the default). Each file is
// opened with httpfile, one request (its tail). Run it alone:
//
//	go test ./dataset -run '^$' -bench FooterPrunedOverHTTP -benchtime 1x
func BenchmarkFooterPrunedOverHTTP(b *testing.B) {
	const n, latency = 1000, 20 * time.Millisecond
	files := latencyFiles(b, n)
	data := map[string][]byte{}
	var names []string
	for _, f := range files {
		data["/"+f.name] = f.data
		names = append(names, f.name)
	}
	var requests atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		time.Sleep(latency)
		d, ok := data[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("ETag", `"v1"`)
		http.ServeContent(w, r, r.URL.Path, time.Unix(1e9, 0), bytes.NewReader(d))
	}))
	defer srv.Close()
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
	open := func(name string) (io.ReaderAt, int64, io.Closer, error) {
		f, err := httpfile.Open(context.Background(), srv.URL+"/"+name, httpfile.WithClient(client))
		if err != nil {
			return nil, 0, nil, err
		}
		return f, f.Size(), f, nil
	}
	d, err := dataset.New(dataset.FromOpeners(names, open), dataset.WithSchema(orc.MustParseSchema("struct<id:bigint,name:string>")))
	if err != nil {
		b.Fatal(err)
	}
	for _, ahead := range []int{1, 8, 32} {
		b.Run(fmt.Sprintf("open-ahead=%d", ahead), func(b *testing.B) {
			var reqs int64
			for b.Loop() {
				before := requests.Load()
				rows, _, _ := latencyScan(b, d, []dataset.ScanOption{dataset.WithOpenAhead(ahead)})
				if len(rows) != 3 || !strings.Contains(rows[0], `"id": 171`) {
					b.Fatalf("rows %v", rows)
				}
				reqs = requests.Load() - before
			}
			b.ReportMetric(float64(reqs), "requests/op")
		})
	}
}
