package reader

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/orcgo/orc/internal/examples"
)

// ReadStripeFooter walks the streams and encodings a scan reads
// (readStripeMeta), at the same offsets, and fails where it fails.
func TestStripeFooterMatchesScan(t *testing.T) {
	names, _ := filepath.Glob(filepath.Join(examples.Dir(t), "*.orc"))
	stripes := 0
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			continue
		}
		for i := range r.Stripes() {
			m, merr := r.readStripeMeta(r.r, i)
			f, ferr := r.ReadStripeFooter(i)
			if (merr == nil) != (ferr == nil) {
				t.Fatalf("%s stripe %d: the scan says %v, ReadStripeFooter %v", name, i, merr, ferr)
			}
			if merr != nil {
				continue
			}
			stripes++
			n := 0
			for st := range f.Streams() {
				n++
				want := &m.list[n-1]
				loc, _ := m.stream(st.Column, want.kind)
				if st.Kind != want.kind.String() || st.Column != int(want.column) || st.Length != want.length || st.Offset != want.offset ||
					(loc.offset != st.Offset && loc.length == st.Length) {
					t.Fatalf("%s stripe %d stream %d: %+v, the scan has %+v, %d by lookup", name, i, n-1, st, *want, loc.offset)
				}
			}
			if n != len(m.list) || n != f.NumStreams() {
				t.Fatalf("%s stripe %d: %d streams (%d), the scan %d", name, i, n, f.NumStreams(), len(m.list))
			}
			id := 0
			for e := range f.Encodings() {
				want := m.encodings[id]
				if e.Kind != want.kind.String() || e.DictionarySize != int(want.dictSize) || e.BloomEncoding != int(want.bloom) {
					t.Fatalf("%s stripe %d encoding %d: %+v, the scan has %+v", name, i, id, e, want)
				}
				id++
			}
			if id != len(m.encodings) || f.WriterTimezone != m.zone {
				t.Fatalf("%s stripe %d: %d encodings, zone %q; the scan %d, %q", name, i, id, f.WriterTimezone, len(m.encodings), m.zone)
			}
			// Stopping a walk early is fine.
			for range f.Streams() {
				break
			}
		}
	}
	t.Logf("%d stripes of %d files", stripes, len(names))
}
