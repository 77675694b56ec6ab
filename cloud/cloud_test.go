package orccloud_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	orccloud "github.com/orcgo/orc/cloud"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

const testSchema = "struct<id:bigint,name:string,v:double>"

// writeRows writes n rows (ids from first, sorted) as ORC to w.
func writeRows(t *testing.T, w io.Writer, first, n int64, opts ...writer.Option) {
	t.Helper()
	schema := orc.MustParseSchema(testSchema)
	opts = append([]writer.Option{writer.WithCompression(orc.CompressionZstd),
		writer.WithRowIndexStride(10000), writer.WithStripeSize(1 << 20)}, opts...)
	ow, err := writer.NewWriter(w, schema, opts...)
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(schema, 4096)
	for i := first; i < first+n; {
		b.Reset()
		ids, names, vs := b.Cols[0].(*orc.LongVector), b.Cols[1].(*orc.BytesVector), b.Cols[2].(*orc.DoubleVector)
		for ; i < first+n && ids.Len() < 4096; i++ {
			ids.Append(i)
			names.AppendString(fmt.Sprintf("name-%d-%x", i%977, i*2654435761))
			vs.Append(float64(i) / 3)
		}
		b.NumRows = ids.Len()
		if err := ow.Write(b); err != nil {
			t.Fatal(err)
		}
	}
	if err := ow.Close(); err != nil {
		t.Fatal(err)
	}
}

// upload writes n rows to url through a Writer, and returns the bytes.
func upload(t *testing.T, url string, first, n int64, opts ...writer.Option) []byte {
	t.Helper()
	w, err := orccloud.Create(ctxT(t), url)
	if err != nil {
		t.Fatal(err)
	}
	var local bytes.Buffer
	writeRows(t, io.MultiWriter(w, &local), first, n, opts...)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return local.Bytes()
}

// scanSum scans r (with the predicate, if any) and returns rows and the
// sum of ids.
func scanSum(t *testing.T, ra io.ReaderAt, size int64, where string) (rows, sum int64, st reader.ScanStats) {
	t.Helper()
	r, err := reader.Open(ra, size)
	if err != nil {
		t.Fatal(err)
	}
	var opts []reader.ScanOption
	if where != "" {
		opts = append(opts, reader.WithSearchArgument(sarg.MustParse(where)))
	}
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	for b, err := range br.All() {
		if err != nil {
			t.Fatal(err)
		}
		ids := b.Cols[0].(*orc.LongVector)
		for i := 0; i < b.NumRows; i++ {
			sum += ids.Values[i]
		}
		rows += int64(b.NumRows)
	}
	return rows, sum, br.Stats()
}

// TestReadWrite writes a file through an upload, reads it whole and pruned
// through ranged reads, and compares with the same bytes read locally.
func TestReadWrite(t *testing.T) {
	allStores(t, func(t *testing.T, s store) {
		const n = 300000
		url := s.url("dir/part-0.orc")
		local := upload(t, url, 0, n)
		before := s.proxy.count()
		f, err := orccloud.Open(ctxT(t), url)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if f.Size() != int64(len(local)) {
			t.Fatalf("size %d, wrote %d", f.Size(), len(local))
		}
		// One suffix-range GET; Azure Blob takes no suffix range, so a HEAD
		// gives the size first.
		if want := map[string]int64{"s3": 1, "gcs": 1, "azure": 2}[s.name]; want != 0 && f.Requests() != want {
			t.Errorf("open made %d requests, want %d", f.Requests(), want)
		}
		opened := f.Requests()
		rows, sum, st := scanSum(t, f, f.Size(), "")
		if rows != n || sum != n*(n-1)/2 {
			t.Fatalf("full scan: %d rows, sum %d", rows, sum)
		}
		t.Logf("%s: %d bytes; open %d requests; full scan %d requests, %d bytes (server saw %d requests)",
			s.name, f.Size(), opened, st.ReadCalls, st.BytesRead, s.proxy.count()-before)
		for _, where := range []string{"id BETWEEN 150000 AND 150299", "id = 299999", "name = 'name-5-0'"} {
			reqs := f.Requests()
			rows, sum, st := scanSum(t, f, f.Size(), where)
			lrows, lsum, lst := scanSum(t, bytes.NewReader(local), int64(len(local)), where)
			if rows != lrows || sum != lsum {
				t.Fatalf("%s: %d rows (sum %d) from the store, %d (sum %d) locally", where, rows, sum, lrows, lsum)
			}
			t.Logf("%s: %q: %d rows; %d requests, %d bytes (locally %d reads, %d bytes)", s.name, where, rows, f.Requests()-reqs, st.BytesRead, lst.ReadCalls, lst.BytesRead)
		}
	})
}

// TestReplacedMidScan replaces the object between Open and a read: the
// read fails naming the URL, with ErrChanged.
func TestReplacedMidScan(t *testing.T) {
	allStores(t, func(t *testing.T, s store) {
		url := s.url("t.orc")
		upload(t, url, 0, 100000)
		f, err := orccloud.Open(ctxT(t), url)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		r, err := reader.Open(f, f.Size())
		if err != nil {
			t.Fatal(err)
		}
		upload(t, url, 7, 100000) // same size class, other bytes
		br, err := r.NewBatchReader()
		if err != nil {
			t.Fatal(err)
		}
		defer br.Close()
		var scanErr error
		for _, err := range br.All() {
			if err != nil {
				scanErr = err
				break
			}
		}
		if !errors.Is(scanErr, orccloud.ErrChanged) || !strings.Contains(scanErr.Error(), strings.TrimSuffix(url, s.query)) {
			t.Fatalf("scan of a replaced object: %v; want ErrChanged naming %s", scanErr, url)
		}
		t.Logf("%s: %v", s.name, scanErr)
	})
}

// TestAbortedUpload cancels uploads half-way, by Abort and by the context:
// no object appears, and an object of that name stays as it was.
func TestAbortedUpload(t *testing.T) {
	allStores(t, func(t *testing.T, s store) {
		part := bytes.Repeat([]byte("orcgo"), 3<<20) // 15 MiB: two parts sent
		url := s.url("aborted.orc")
		w, err := orccloud.Create(ctxT(t), url, orccloud.WithPartSize(5<<20))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(part); err != nil {
			t.Fatal(err)
		}
		if err := w.Abort(); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err == nil {
			t.Fatal("Close after Abort succeeded")
		}
		if _, err := orccloud.Open(ctxT(t), url); !errors.Is(err, fs.ErrNotExist) {
			t.Fatalf("after an aborted upload: %v, want no object", err)
		}

		old := upload(t, url, 0, 1000)
		ctx, cancel := context.WithCancel(ctxT(t))
		w, err = orccloud.Create(ctx, url, orccloud.WithPartSize(5<<20))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(part); err != nil {
			t.Fatal(err)
		}
		cancel()
		if err := w.Close(); err == nil {
			t.Fatal("Close after the context ended succeeded")
		}
		f, err := orccloud.Open(ctxT(t), url)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if f.Size() != int64(len(old)) {
			t.Fatalf("the object has %d bytes after a cancelled overwrite, it had %d", f.Size(), len(old))
		}
	})
}

// TestMissing: a missing object or bucket is fs.ErrNotExist naming the URL.
func TestMissing(t *testing.T) {
	allStores(t, func(t *testing.T, s store) {
		for _, url := range []string{s.url("no/such.orc"), strings.Replace(s.url("x.orc"), "orcgo-test", "orcgo-nobucket", 1)} {
			if s.name == "file" && strings.Contains(url, "nobucket") {
				continue
			}
			_, err := orccloud.Open(ctxT(t), url)
			if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), strings.TrimSuffix(url, s.query)) {
				t.Errorf("%s: %v", url, err)
			}
		}
	})
}

// TestBadURLs: each a clear error naming the URL, before any request.
func TestBadURLs(t *testing.T) {
	for _, c := range []struct{ url, want string }{
		{"ftp://b/k.orc", "not one of"},
		{"s3:///k.orc", "no bucket"},
		{"s3://Bad_Bucket/k.orc", "malformed bucket"},
		{"s3://ab/k.orc", "3 to 63"},
		{"gs://user:pw@bucket/k.orc", "credentials in the URL"},
		{"file://host/x.orc", "path of this machine"},
	} {
		_, err := orccloud.Open(context.Background(), c.url)
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.Is(err, orccloud.ErrURL) {
			t.Errorf("%s: %v, want %q", c.url, err, c.want)
		}
		if strings.Contains(fmt.Sprint(err), "pw") {
			t.Errorf("%s: the error shows the password: %v", c.url, err)
		}
	}
}
