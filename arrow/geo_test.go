package orcarrow_test

import (
	"bytes"
	"testing"

	"github.com/orcgo/orc"
	orcarrow "github.com/orcgo/orc/arrow"
	"github.com/orcgo/orc/geo"
	"github.com/orcgo/orc/reader"
)

func jsonLines(t *testing.T, r *reader.Reader) []string {
	t.Helper()
	br, err := r.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	b := br.NewBatch()
	var out []string
	for br.Next(b) == nil {
		for i := range b.NumRows {
			out = append(out, string(reader.AppendJSONRow(nil, b, i)))
		}
	}
	return out
}

// Geometry and geography travel through Arrow as geoarrow.wkb binary
// fields, CRS and edges in the extension metadata, and come back as they
// were.
func TestGeoArrowRoundTrip(t *testing.T) {
	s := orc.MustParseSchema("struct<g:geometry(EPSG:4326),h:geography(OGC:CRS84,vincenty)>")
	b := orc.NewBatch(s, 3)
	for _, w := range []string{"POINT (1 2)", "", "LINESTRING (0 0, 3 4)"} {
		for c := range 2 {
			v := b.Cols[c].(*orc.BytesVector)
			if w == "" {
				v.AppendNull()
				continue
			}
			wkb, _ := geo.AppendWKB(nil, w)
			v.Append(wkb)
		}
	}
	b.NumRows = 3
	data := writeORC(t, s, []*orc.Batch{b})
	ra := openORC(t, data)
	as, err := orcarrow.ArrowSchema(ra.Schema())
	if err != nil {
		t.Fatal(err)
	}
	md := as.Field(1).Metadata
	if i := md.FindKey("ARROW:extension:name"); i < 0 || md.Values()[i] != "geoarrow.wkb" {
		t.Fatalf("field metadata %v", md)
	}
	if i := md.FindKey("ARROW:extension:metadata"); i < 0 || md.Values()[i] != `{"crs":"OGC:CRS84","edges":"vincenty"}` {
		t.Fatalf("field metadata %v", md)
	}
	back, err := orcarrow.ORCSchema(as)
	if err != nil || back.String() != s.String() {
		t.Fatalf("schema back %v, %v", back, err)
	}
	rr, err := orcarrow.FromReader(ra)
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Release()
	var out bytes.Buffer
	w, err := orcarrow.NewWriter(&out, rr.Schema())
	if err != nil {
		t.Fatal(err)
	}
	for rr.Next() {
		if err := w.Write(rr.RecordBatch()); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rb := openORC(t, out.Bytes())
	if rb.Schema().String() != s.String() {
		t.Errorf("schema after Arrow: %s", rb.Schema())
	}
	want, got := jsonLines(t, ra), jsonLines(t, rb)
	if len(got) != 3 || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Errorf("rows after Arrow %q, want %q", got, want)
	}
	if st, _ := rb.Statistics(1); st.Geo == nil || !st.Geo.Box.HasXY() {
		t.Errorf("no box after Arrow: %+v", st)
	}
}
