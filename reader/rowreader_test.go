package reader_test

// The row API: structs written by writer.RowWriter and read back by
// RowReader, compared with the batch API on the same data.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

type rowGeo struct {
	Lat float64 `orc:"lat"`
	Lon float64 `orc:"lon"`
}

type rowItem struct {
	SKU   string         `orc:"sku"`
	Qty   uint16         `orc:"qty"`
	Price reader.Decimal `orc:"price,decimal(10,2)"`
	Note  *string        `orc:"note"`
}

// rowEvent covers every mapping. rowRandEvent makes values in the form they read
// back (UTC times, dates at midnight, decimals at the column scale, nil for
// empty slices and maps), so that a round trip must give them back exactly.
type rowEvent struct {
	ID      int64              `orc:"id"`
	Flag    bool               `orc:"flag"`
	Tiny    int8               `orc:"tiny"`
	Small   int16              `orc:"small"`
	Mid     int32              `orc:"mid"`
	Plain   int                `orc:"plain"`
	U8      uint8              `orc:"u8"`
	U16     uint16             `orc:"u16"`
	U32     uint32             `orc:"u32"`
	U64     uint64             `orc:"u64"`
	Ratio   float32            `orc:"ratio"`
	Score   float64            `orc:"score"`
	Name    string             `orc:"name"`
	Code    string             `orc:"code,varchar(8)"`
	Payload []byte             `orc:"payload"`
	At      time.Time          `orc:"at"`
	Instant time.Time          `orc:"instant,instant"`
	Day     time.Time          `orc:"day,date"`
	Total   reader.Decimal     `orc:"total,decimal(18,4)"`
	Big     *reader.Decimal    `orc:"big,decimal(38,6)"`
	Where   rowGeo             `orc:"where"`
	Home    *rowGeo            `orc:"home"`
	Items   []rowItem          `orc:"items"`
	Tags    []string           `orc:"tags"`
	Attrs   map[string]string  `orc:"attrs"`
	Counts  map[int32]*int64   `orc:"counts"`
	Parent  *int64             `orc:"parent"`
	Seen    *time.Time         `orc:"seen"`
	Grid    [][]float64        `orc:"grid"`
	Days    []time.Time        `orc:"days,date"`
	Skipped chan int           `orc:"-"`
	hidden  int                //lint:ignore U1000 unexported: the test checks it is not a column
	Sets    map[string][]uint8 `orc:"sets"`
}

const rowEventSchema = "struct<id:bigint,flag:boolean,tiny:tinyint,small:smallint,mid:int,plain:bigint," +
	"u8:smallint,u16:int,u32:bigint,u64:bigint,ratio:float,score:double,name:string,code:varchar(8)," +
	"payload:binary,at:timestamp,instant:timestamp with local time zone,day:date,total:decimal(18,4)," +
	"big:decimal(38,6),where:struct<lat:double,lon:double>,home:struct<lat:double,lon:double>," +
	"items:array<struct<sku:string,qty:int,price:decimal(10,2),note:string>>,tags:array<string>," +
	"attrs:map<string,string>,counts:map<int,bigint>,parent:bigint,seen:timestamp,grid:array<array<double>>," +
	"days:array<date>,sets:map<string,binary>>"

func rowMaybe[T any](r *rand.Rand, v T) *T {
	if r.IntN(3) == 0 {
		return nil
	}
	return &v
}

func rowText(r *rand.Rand, max int) string {
	alphabet := []rune("abcdefgh ÄéЖ€😀")
	n := r.IntN(max + 1)
	out := make([]rune, n)
	for i := range out {
		out[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(out)
}

func rowInstant(r *rand.Rand) time.Time {
	return time.Unix(r.Int64N(4e9)-2e9, r.Int64N(1e9)).UTC()
}

func rowDec(r *rand.Rand, digits int64, scale int) reader.Decimal {
	return reader.Decimal{Unscaled: orc.Int128FromInt64(r.Int64N(digits) - digits/2), Scale: scale}
}

func rowRandEvent(r *rand.Rand, id int64) rowEvent {
	e := rowEvent{
		ID: id, Flag: r.IntN(2) == 1, Tiny: int8(r.Uint32()), Small: int16(r.Uint32()), Mid: int32(r.Uint32()),
		Plain: int(r.Int64()), U8: uint8(r.Uint32()), U16: uint16(r.Uint32()), U32: r.Uint32(), U64: r.Uint64N(1 << 63),
		Ratio: float32(r.NormFloat64()), Score: r.ExpFloat64(), Name: rowText(r, 20), Code: rowText(r, 8),
		At: rowInstant(r), Instant: rowInstant(r), Day: time.Unix(r.Int64N(80000)*86400-40000*86400, 0).UTC(),
		Total: rowDec(r, 1e17, 4), Big: rowMaybe(r, rowDec(r, 1e18, 6)),
		Where:  rowGeo{Lat: r.Float64()*180 - 90, Lon: r.Float64()*360 - 180},
		Home:   rowMaybe(r, rowGeo{Lat: r.Float64(), Lon: r.Float64()}),
		Parent: rowMaybe(r, r.Int64()), Seen: rowMaybe(r, rowInstant(r)),
	}
	if n := r.IntN(6); n > 0 {
		e.Payload = make([]byte, n)
		for i := range e.Payload {
			e.Payload[i] = byte(r.Uint32())
		}
	}
	for range r.IntN(4) {
		e.Items = append(e.Items, rowItem{SKU: rowText(r, 6), Qty: uint16(r.Uint32()),
			Price: rowDec(r, 1e9, 2), Note: rowMaybe(r, rowText(r, 10))})
	}
	for range r.IntN(4) {
		e.Tags = append(e.Tags, rowText(r, 5))
	}
	if n := r.IntN(4); n > 0 {
		e.Attrs = map[string]string{}
		for range n {
			e.Attrs[rowText(r, 4)] = rowText(r, 6)
		}
	}
	if n := r.IntN(3); n > 0 {
		e.Counts = map[int32]*int64{}
		for range n {
			e.Counts[r.Int32N(50)] = rowMaybe(r, r.Int64())
		}
	}
	for range r.IntN(3) {
		var row []float64
		for range r.IntN(4) {
			row = append(row, r.NormFloat64())
		}
		e.Grid = append(e.Grid, row)
	}
	for range r.IntN(3) {
		e.Days = append(e.Days, time.Unix(r.Int64N(30000)*86400, 0).UTC())
	}
	if r.IntN(3) == 0 {
		e.Sets = map[string][]uint8{rowText(r, 3): nil}
		if r.IntN(2) == 0 {
			e.Sets["x"] = []uint8{1, 2, 3}
		}
	}
	return e
}

func rowRandEvents(seed uint64, n int) []rowEvent {
	r := rand.New(rand.NewPCG(seed, 3))
	out := make([]rowEvent, n)
	for i := range out {
		out[i] = rowRandEvent(r, int64(i))
	}
	return out
}

func rowOpen(tb testing.TB, data []byte) *reader.Reader {
	tb.Helper()
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// rowsWrite writes rows with a RowWriter in calls of random sizes.
func rowsWrite[T any](tb testing.TB, r *rand.Rand, rows []T, opts ...writer.Option) []byte {
	tb.Helper()
	var buf bytes.Buffer
	rw, err := writer.NewRowWriter[T](&buf, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	for done := 0; done < len(rows); {
		k := min(len(rows)-done, []int{1, 7, 500, 1024, 3000}[r.IntN(5)])
		if err := rw.Write(rows[done : done+k]...); err != nil {
			tb.Fatal(err)
		}
		done += k
	}
	if err := rw.Close(); err != nil {
		tb.Fatal(err)
	}
	return buf.Bytes()
}

// rowsRead reads every row with a RowReader, in reads of random sizes.
func rowsRead[T any](tb testing.TB, r *rand.Rand, rd *reader.Reader, opts ...reader.ScanOption) []T {
	tb.Helper()
	rr, err := reader.NewRowReader[T](rd, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	var out []T
	for {
		dst := make([]T, []int{1, 5, 100, 1024, 2500}[r.IntN(5)])
		n, err := rr.Read(dst)
		if err == io.EOF {
			if n != 0 {
				tb.Fatalf("io.EOF with %d rows", n)
			}
			break
		}
		if err != nil {
			tb.Fatal(err)
		}
		if n == 0 {
			tb.Fatal("Read returned no rows and no error")
		}
		out = append(out, dst[:n]...)
	}
	if n, err := rr.Read(make([]T, 3)); n != 0 || err != io.EOF {
		tb.Fatalf("Read after the end: %d, %v", n, err)
	}
	return out
}

func TestRowRoundTrip(t *testing.T) {
	for i, n := range []int{0, 1, 1023, 1024, 1025, 4000} {
		for _, codec := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd} {
			t.Run(fmt.Sprintf("%d-%s", n, codec), func(t *testing.T) {
				r := rand.New(rand.NewPCG(uint64(i), uint64(codec)))
				rows := rowRandEvents(uint64(i), n)
				data := rowsWrite(t, r, rows, writer.WithCompression(codec), writer.WithRowIndexStride(100),
					writer.WithStripeRowLimit(1500), writer.WithBloomFilterColumns("name", "where.lat"))
				rd := rowOpen(t, data)
				if got := rd.Schema().String(); got != rowEventSchema {
					t.Fatalf("schema\n got %s\nwant %s", got, rowEventSchema)
				}
				if rd.NumRows() != int64(n) {
					t.Fatalf("file has %d rows, want %d", rd.NumRows(), n)
				}
				got := rowsRead[rowEvent](t, r, rd)
				if len(got) != n {
					t.Fatalf("read %d rows, want %d", len(got), n)
				}
				for j := range rows {
					if !reflect.DeepEqual(got[j], rows[j]) {
						t.Fatalf("row %d:\n got %+v\nwant %+v", j, got[j], rows[j])
					}
				}
			})
		}
	}
}

// rowSimple is small enough to build its batches by hand.
type rowSimple struct {
	ID    int32            `orc:"id"`
	Name  *string          `orc:"name"`
	Price reader.Decimal   `orc:"price,decimal(9,2)"`
	At    time.Time        `orc:"at"`
	Day   time.Time        `orc:"day,date"`
	Raw   []byte           `orc:"raw"`
	Where *rowGeo          `orc:"where"`
	Tags  []string         `orc:"tags"`
	Attrs map[string]int64 `orc:"attrs"`
}

const rowSimpleSchema = "struct<id:int,name:string,price:decimal(9,2),at:timestamp,day:date,raw:binary," +
	"where:struct<lat:double,lon:double>,tags:array<string>,attrs:map<string,bigint>>"

func rowRandSimple(r *rand.Rand, n int) []rowSimple {
	out := make([]rowSimple, n)
	for i := range out {
		s := rowSimple{ID: int32(i), Name: rowMaybe(r, rowText(r, 8)), Price: rowDec(r, 1e9, 2), At: rowInstant(r),
			Day: time.Unix(r.Int64N(40000)*86400, 0).UTC(), Where: rowMaybe(r, rowGeo{r.Float64(), r.Float64()})}
		if k := r.IntN(4); k > 0 {
			s.Raw = []byte(rowText(r, 4) + "!")
		}
		for range r.IntN(3) {
			s.Tags = append(s.Tags, rowText(r, 4))
		}
		if k := r.IntN(4); k > 0 {
			s.Attrs = map[string]int64{}
			for range k {
				s.Attrs[rowText(r, 3)] = r.Int64()
			}
		}
		out[i] = s
	}
	return out
}

// rowSimpleBatch fills a batch from rows with the batch API, by hand.
func rowSimpleBatch(schema *orc.Schema, rows []rowSimple) *orc.Batch {
	b := orc.NewBatch(schema, len(rows))
	id := b.Cols[0].(*orc.LongVector)
	name := b.Cols[1].(*orc.BytesVector)
	price := b.Cols[2].(*orc.DecimalVector)
	at := b.Cols[3].(*orc.TimestampVector)
	day := b.Cols[4].(*orc.LongVector)
	raw := b.Cols[5].(*orc.BytesVector)
	where := b.Cols[6].(*orc.StructVector)
	lat, lon := where.Fields[0].(*orc.DoubleVector), where.Fields[1].(*orc.DoubleVector)
	tags := b.Cols[7].(*orc.ListVector)
	tagVals := tags.Elem.(*orc.BytesVector)
	attrs := b.Cols[8].(*orc.MapVector)
	keys, vals := attrs.Keys.(*orc.BytesVector), attrs.Values.(*orc.LongVector)
	tags.Offsets = append(tags.Offsets, 0)
	attrs.Offsets = append(attrs.Offsets, 0)
	for _, s := range rows {
		id.Values = append(id.Values, int64(s.ID))
		if s.Name == nil {
			name.AppendNull()
		} else {
			name.AppendString(*s.Name)
		}
		price.Values = append(price.Values, s.Price.Unscaled)
		at.Seconds = append(at.Seconds, s.At.Unix())
		at.Nanos = append(at.Nanos, int32(s.At.Nanosecond()))
		day.Values = append(day.Values, s.Day.Unix()/86400)
		raw.Append(s.Raw)
		where.Nulls.Nulls = append(where.Nulls.Nulls, s.Where == nil)
		lat.Nulls.Nulls = append(lat.Nulls.Nulls, s.Where == nil)
		lon.Nulls.Nulls = append(lon.Nulls.Nulls, s.Where == nil)
		if s.Where != nil {
			lat.Values = append(lat.Values, s.Where.Lat)
			lon.Values = append(lon.Values, s.Where.Lon)
		} else {
			lat.Values = append(lat.Values, 0)
			lon.Values = append(lon.Values, 0)
		}
		where.N++
		for _, tag := range s.Tags {
			tagVals.AppendString(tag)
		}
		tags.Offsets = append(tags.Offsets, int64(tagVals.Len()))
		ks := make([]string, 0, len(s.Attrs))
		for k := range s.Attrs {
			ks = append(ks, k)
		}
		sort.Strings(ks)
		for _, k := range ks {
			keys.AppendString(k)
			vals.Values = append(vals.Values, s.Attrs[k])
		}
		attrs.Offsets = append(attrs.Offsets, int64(keys.Len()))
	}
	b.NumRows = len(rows)
	return b
}

// rowJSON reads a file with the batch API and renders each row as JSON.
func rowJSON(tb testing.TB, rd *reader.Reader, opts ...reader.ScanOption) []string {
	tb.Helper()
	br, err := rd.NewBatchReader(opts...)
	if err != nil {
		tb.Fatal(err)
	}
	b := br.NewBatch()
	var out []string
	for {
		if err := br.Next(b); err == io.EOF {
			return out
		} else if err != nil {
			tb.Fatal(err)
		}
		for i := range b.NumRows {
			out = append(out, string(reader.AppendJSONRow(nil, b, i)))
		}
	}
}

// TestRowsAgainstBatches writes the same rows with RowWriter and with the
// batch API, checks that BatchReader reads the same values from both files,
// and that RowReader reads the rows back from the file the batch API wrote.
func TestRowsAgainstBatches(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	rows := rowRandSimple(r, 2500)
	rowFile := rowsWrite(t, r, rows, writer.WithRowIndexStride(1000))

	schema := orc.MustParseSchema(rowSimpleSchema)
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, schema, writer.WithRowIndexStride(1000))
	if err != nil {
		t.Fatal(err)
	}
	for start := 0; start < len(rows); start += 1000 {
		if err := w.Write(rowSimpleBatch(schema, rows[start:min(start+1000, len(rows))])); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	batchFile := buf.Bytes()

	rowRd, batchRd := rowOpen(t, rowFile), rowOpen(t, batchFile)
	if a, b := rowRd.Schema().String(), batchRd.Schema().String(); a != b || a != rowSimpleSchema {
		t.Fatalf("schemas differ:\nrows  %s\nbatch %s", a, b)
	}
	fromRows, fromBatches := rowJSON(t, rowRd), rowJSON(t, batchRd)
	if len(fromRows) != len(rows) || len(fromBatches) != len(rows) {
		t.Fatalf("rows: %d and %d, want %d", len(fromRows), len(fromBatches), len(rows))
	}
	for i := range fromRows {
		if fromRows[i] != fromBatches[i] {
			t.Fatalf("row %d differs:\nRowWriter %s\nWriter    %s", i, fromRows[i], fromBatches[i])
		}
	}
	// Spot check one rendering against the struct.
	if want := `{"id": 3, `; !strings.HasPrefix(fromRows[3], want) {
		t.Errorf("row 3 renders as %s", fromRows[3])
	}
	got := rowsRead[rowSimple](t, r, batchRd)
	if !reflect.DeepEqual(got, rows) {
		for i := range rows {
			if !reflect.DeepEqual(got[i], rows[i]) {
				t.Fatalf("row %d of the batch-written file:\n got %+v\nwant %+v", i, got[i], rows[i])
			}
		}
		t.Fatalf("read %d rows, want %d", len(got), len(rows))
	}
}

// TestRowProjection reads a subset of the columns, narrowing a nested
// struct, matching a name ignoring case, with a predicate on a column the
// row type does not have.
func TestRowProjection(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	rows := rowRandEvents(9, 3000)
	rd := rowOpen(t, rowsWrite(t, r, rows, writer.WithRowIndexStride(500)))

	type slim struct {
		ID    int64 // matches "id" ignoring case
		Where struct {
			Lat float64 `orc:"lat"`
		} `orc:"where"`
		Tags  []string          `orc:"tags"`
		Items []rowItem         `orc:"items"`
		Attrs map[string][]byte `orc:"attrs"` // string values read as bytes
	}
	rr, err := reader.NewRowReader[slim](rd)
	if err != nil {
		t.Fatal(err)
	}
	// The row type's order, which WithColumns asks for.
	want := "struct<id:bigint,where:struct<lat:double>,tags:array<string>,items:array<struct<sku:string,qty:int,price:decimal(10,2),note:string>>,attrs:map<string,string>>"
	if got := rr.Schema().String(); got != want {
		t.Errorf("projected schema\n got %s\nwant %s", got, want)
	}
	got := rowsRead[slim](t, r, rd)
	if len(got) != len(rows) {
		t.Fatalf("read %d rows", len(got))
	}
	for i, e := range rows {
		s := got[i]
		if s.ID != e.ID || s.Where.Lat != e.Where.Lat || !reflect.DeepEqual(s.Tags, e.Tags) || !reflect.DeepEqual(s.Items, e.Items) || len(s.Attrs) != len(e.Attrs) {
			t.Fatalf("row %d: %+v from %+v", i, s, e)
		}
		for k, v := range e.Attrs {
			if string(s.Attrs[k]) != v {
				t.Fatalf("row %d attrs[%q] = %q, want %q", i, k, s.Attrs[k], v)
			}
		}
	}

	// A predicate on a column outside the row type, filtered exactly.
	type idOnly struct {
		ID int64 `orc:"id"`
	}
	sel := rowsRead[idOnly](t, r, rd, reader.WithSearchArgument(sarg.MustParse("mid < 0")), reader.WithExactFilter(true))
	var wantIDs []idOnly
	for _, e := range rows {
		if e.Mid < 0 {
			wantIDs = append(wantIDs, idOnly{e.ID})
		}
	}
	if !reflect.DeepEqual(sel, wantIDs) {
		t.Errorf("filtered read: %d rows, want %d", len(sel), len(wantIDs))
	}
	// The same, the scan handing over selections (the matches are random).
	sel = rowsRead[idOnly](t, r, rd, reader.WithSearchArgument(sarg.MustParse("mid < 0")), reader.WithSelection())
	if !reflect.DeepEqual(sel, wantIDs) {
		t.Errorf("filtered read with selections: %d rows, want %d", len(sel), len(wantIDs))
	}
}

func TestRowReaderMismatch(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	rd := rowOpen(t, rowsWrite(t, r, rowRandEvents(1, 10)))
	check := func(name string, err error, want ...string) {
		t.Helper()
		if err == nil {
			t.Errorf("%s: no error", name)
			return
		}
		for _, w := range want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not mention %q", name, err, w)
			}
		}
	}
	_, err := reader.NewRowReader[struct {
		Missing int `orc:"missing"`
	}](rd, reader.WithStrictFields())
	check("missing", err, "field Missing", `no column "missing"`)
	// Strict by default: a tag naming no column (orc:"symbol" for sym)
	// is an error, pointing to the option that relaxes it.
	_, err = reader.NewRowReader[struct {
		ID     int64  `orc:"id"`
		Symbol string `orc:"symbol"`
	}](rd)
	check("missing by default", err, "field Symbol", `no column "symbol"`, "WithLenientFields")
	_, err = reader.NewRowReader[struct {
		Missing int `orc:"missing"`
	}](rd, reader.WithLenientFields())
	check("nothing found", err, "none of its fields names a column")
	_, err = reader.NewRowReader[struct {
		Name int64 `orc:"name"`
	}](rd)
	check("type", err, "field Name (int64)", `column "name"`, "string")
	_, err = reader.NewRowReader[struct {
		Items []struct {
			Price float64 `orc:"price"`
		} `orc:"items"`
	}](rd)
	check("nested type", err, "field Items[].Price (float64)", `column "items[].price"`, "decimal(10,2)")
	_, err = reader.NewRowReader[struct {
		Where struct {
			Alt float64 `orc:"alt"`
		} `orc:"where"`
	}](rd, reader.WithStrictFields())
	check("nested missing", err, "field Where.Alt", `no column "alt"`, `column "where"`)
	_, err = reader.NewRowReader[int](rd)
	check("not a struct", err, "not a struct")
	_, err = reader.NewRowReader[struct{ F func() }](rd)
	check("unsupported", err, "field F", "func()")

	// A value that does not fit its field fails the read.
	rr, err := reader.NewRowReader[struct {
		U64 int8 `orc:"u64"`
	}](rd)
	if err != nil {
		t.Fatal(err)
	}
	_, err = rr.Read(make([]struct {
		U64 int8 `orc:"u64"`
	}, 10))
	check("range", err, "field U64", "does not fit int8")
}

// TestRowWriteBadValue checks that a bad value stops a Write at its row,
// with the rows before it written and the writer usable afterwards.
func TestRowWriteBadValue(t *testing.T) {
	rows := rowRandEvents(4, 3000)
	rows[1500].Total = reader.Decimal{Unscaled: orc.Int128FromInt64(1), Scale: 5} // would need rounding
	rows[2000].Items = []rowItem{{Price: reader.Decimal{Unscaled: orc.Int128FromInt64(1e10), Scale: 2}}}
	var buf bytes.Buffer
	rw, err := writer.NewRowWriter[rowEvent](&buf)
	if err != nil {
		t.Fatal(err)
	}
	err = rw.Write(rows[:1800]...)
	if err == nil || !strings.Contains(err.Error(), "row 1500, field rowEvent.Total") || !strings.Contains(err.Error(), "rounding") {
		t.Fatalf("Write: %v", err)
	}
	err = rw.Write(rows[1501:]...)
	if err == nil || !strings.Contains(err.Error(), "row 499, field rowEvent.Items[].Price") {
		t.Fatalf("second Write: %v", err)
	}
	if err := rw.Write(rows[2001:]...); err != nil {
		t.Fatal(err)
	}
	if err := rw.Close(); err != nil {
		t.Fatal(err)
	}
	want := append(append(append([]rowEvent(nil), rows[:1500]...), rows[1501:2000]...), rows[2001:]...)
	got := rowsRead[rowEvent](t, rand.New(rand.NewPCG(0, 0)), rowOpen(t, buf.Bytes()))
	if len(got) != len(want) {
		t.Fatalf("read %d rows, want %d", len(got), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(got[i], want[i]) {
			t.Fatalf("row %d:\n got %+v\nwant %+v", i, got[i], want[i])
		}
	}
}

// test1Row mirrors TestOrcFile.test1.orc, written by ORC Java.
type test1Row struct {
	Boolean1 bool    `orc:"boolean1"`
	Byte1    int8    `orc:"byte1"`
	Short1   int16   `orc:"short1"`
	Int1     int32   `orc:"int1"`
	Long1    int64   `orc:"long1"`
	Float1   float32 `orc:"float1"`
	Double1  float64 `orc:"double1"`
	Bytes1   []byte  `orc:"bytes1"`
	String1  string  `orc:"string1"`
	Middle   struct {
		List []test1Inner `orc:"list"`
	} `orc:"middle"`
	List []test1Inner          `orc:"list"`
	Map  map[string]test1Inner `orc:"map"`
}

type test1Inner struct {
	Int1    int32  `orc:"int1"`
	String1 string `orc:"string1"`
}

func TestRowReaderJavaFile(t *testing.T) {
	f, err := os.ReadFile(examples.Path(t, "TestOrcFile.test1.orc"))
	if err != nil {
		t.Fatal(err)
	}
	got := rowsRead[test1Row](t, rand.New(rand.NewPCG(1, 2)), rowOpen(t, f))
	middle := []test1Inner{{1, "bye"}, {2, "sigh"}}
	want := []test1Row{
		{Boolean1: false, Byte1: 1, Short1: 1024, Int1: 65536, Long1: 9223372036854775807, Float1: 1, Double1: -15,
			Bytes1: []byte{0, 1, 2, 3, 4}, String1: "hi", List: []test1Inner{{3, "good"}, {4, "bad"}}},
		{Boolean1: true, Byte1: 100, Short1: 2048, Int1: 65536, Long1: 9223372036854775807, Float1: 2, Double1: -5,
			String1: "bye", List: []test1Inner{{100000000, "cat"}, {-100000, "in"}, {1234, "hat"}},
			Map: map[string]test1Inner{"chani": {5, "chani"}, "mauddib": {1, "mauddib"}}},
	}
	want[0].Middle.List, want[1].Middle.List = middle, middle
	if !reflect.DeepEqual(got, want) {
		t.Errorf("read\n%+v\nwant\n%+v", got, want)
	}
}

// TestRowReaderDates reads Java's timestamps and dates from 1900 and checks
// them against the batch API's vectors.
func TestRowReaderDates(t *testing.T) {
	f, err := os.ReadFile(examples.Path(t, "TestOrcFile.testDate1900.orc"))
	if err != nil {
		t.Fatal(err)
	}
	rd := rowOpen(t, f)
	type row struct {
		Time time.Time `orc:"time"`
		Date time.Time `orc:"date"`
	}
	got := rowsRead[row](t, rand.New(rand.NewPCG(3, 4)), rd)
	br, err := rd.NewBatchReader()
	if err != nil {
		t.Fatal(err)
	}
	b := br.NewBatch()
	i := 0
	for {
		if err := br.Next(b); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		ts, days := b.Cols[0].(*orc.TimestampVector), b.Cols[1].(*orc.LongVector)
		for j := range b.NumRows {
			if want := time.Unix(ts.Seconds[j], int64(ts.Nanos[j])).UTC(); !got[i].Time.Equal(want) {
				t.Fatalf("row %d time %v, want %v", i, got[i].Time, want)
			}
			if want := time.Unix(days.Values[j]*86400, 0).UTC(); !got[i].Date.Equal(want) {
				t.Fatalf("row %d date %v, want %v", i, got[i].Date, want)
			}
			i++
		}
	}
	if i != len(got) || i != 70000 {
		t.Fatalf("%d rows from batches, %d from rows", i, len(got))
	}
	if s := got[0].Time.Format("2006-01-02 15:04:05.9999"); s != "1900-05-05 12:34:56.1" {
		t.Errorf("first time %s", s)
	}
	if s := got[0].Date.Format("2006-01-02"); s != "1900-12-25" {
		t.Errorf("first date %s", s)
	}
}

func TestRowReaderStickyError(t *testing.T) {
	// A closed-over error source: a file cut short after the tail was read.
	r := rand.New(rand.NewPCG(2, 2))
	data := rowsWrite(t, r, rowRandEvents(2, 2000), writer.WithCompression(orc.CompressionNone))
	rd := rowOpen(t, data)
	rr, err := reader.NewRowReader[rowEvent](rd)
	if err != nil {
		t.Fatal(err)
	}
	// Corrupt the stripe data in place: the reader reads it lazily.
	for i := 3; i < len(data)/2; i++ {
		data[i] = 0xff
	}
	dst := make([]rowEvent, 100)
	var first error
	for range 50 {
		if _, err := rr.Read(dst); err != nil {
			first = err
			break
		}
	}
	if first == nil || first == io.EOF {
		t.Skipf("corruption not detected (%v); nothing to check", first)
	}
	if _, err := rr.Read(dst); !errors.Is(err, first) && err.Error() != first.Error() {
		t.Errorf("second Read: %v, want the first error %v", err, first)
	}
}

// rowBench is the 10-field struct of the row benchmarks.
type rowBench struct {
	ID     int64          `orc:"id"`
	Qty    int32          `orc:"qty"`
	Flag   bool           `orc:"flag"`
	Price  float64        `orc:"price"`
	Ratio  float32        `orc:"ratio"`
	Name   string         `orc:"name"`
	City   string         `orc:"city"`
	At     time.Time      `orc:"at"`
	Amount reader.Decimal `orc:"amount,decimal(12,2)"`
	Parent *int64         `orc:"parent"`
}

const rowBenchRows = 100_000

func rowBenchFile(b *testing.B) []byte {
	cities := []string{"Lisbon", "Oslo", "Kyoto", "Lagos", "Lima", "Perth"}
	rows := make([]rowBench, rowBenchRows)
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range rows {
		r := &rows[i]
		r.ID, r.Qty, r.Flag = int64(i), int32(i%1000), i%3 == 0
		r.Price, r.Ratio = float64(i)*0.25, float32(i%100)/100
		r.Name = fmt.Sprintf("customer-%05d", i%5000)
		r.City = cities[i%len(cities)]
		r.At = base.Add(time.Duration(i) * time.Second)
		r.Amount = reader.Decimal{Unscaled: orc.Int128FromInt64(int64(i * 7)), Scale: 2}
		if i%4 != 0 {
			p := int64(i / 2)
			r.Parent = &p
		}
	}
	return rowsWrite(b, rand.New(rand.NewPCG(1, 1)), rows)
}

// BenchmarkRowRead compares reading rowBench values with RowReader to the
// batch API: "batch" only decodes batches, "batch-convert" also copies
// each batch into the structs by hand, as a batch API user would. Bytes
// are the file's; rows/s counts rows.
func BenchmarkRowRead(b *testing.B) {
	data := rowBenchFile(b)
	rd := rowOpen(b, data)
	report := func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		b.ReportMetric(float64(rowBenchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
	}
	b.Run("rows", func(b *testing.B) {
		b.ReportAllocs()
		dst := make([]rowBench, 1024)
		for range b.N {
			rr, err := reader.NewRowReader[rowBench](rd)
			if err != nil {
				b.Fatal(err)
			}
			total := 0
			for {
				n, err := rr.Read(dst)
				if err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
				total += n
			}
			if total != rowBenchRows {
				b.Fatalf("read %d rows", total)
			}
		}
		report(b)
	})
	scan := func(b *testing.B, convert bool) {
		b.ReportAllocs()
		dst := make([]rowBench, 1024)
		for range b.N {
			br, err := rd.NewBatchReader()
			if err != nil {
				b.Fatal(err)
			}
			batch := br.NewBatch()
			for {
				if err := br.Next(batch); err == io.EOF {
					break
				} else if err != nil {
					b.Fatal(err)
				}
				if convert {
					convertBatch(batch, dst)
				}
			}
		}
		report(b)
	}
	b.Run("batch", func(b *testing.B) { scan(b, false) })
	b.Run("batch-convert", func(b *testing.B) { scan(b, true) })
}

// convertBatch is what batch API users write by hand for rowBench.
func convertBatch(b *orc.Batch, dst []rowBench) {
	id, qty, flag := b.Cols[0].(*orc.LongVector), b.Cols[1].(*orc.LongVector), b.Cols[2].(*orc.LongVector)
	price, ratio := b.Cols[3].(*orc.DoubleVector), b.Cols[4].(*orc.DoubleVector)
	name, city := b.Cols[5].(*orc.BytesVector), b.Cols[6].(*orc.BytesVector)
	at, amount, parent := b.Cols[7].(*orc.TimestampVector), b.Cols[8].(*orc.DecimalVector), b.Cols[9].(*orc.LongVector)
	parents := make([]int64, b.NumRows)
	for i := range b.NumRows {
		r := &dst[i]
		r.ID, r.Qty, r.Flag = id.Values[i], int32(qty.Values[i]), flag.Values[i] != 0
		r.Price, r.Ratio = price.Values[i], float32(ratio.Values[i])
		r.Name, r.City = name.String(i), city.String(i)
		r.At = time.Unix(at.Seconds[i], int64(at.Nanos[i])).UTC()
		r.Amount = reader.Decimal{Unscaled: amount.Values[i], Scale: amount.Scale}
		r.Parent = nil
		if !parent.IsNull(i) {
			parents[i] = parent.Values[i]
			r.Parent = &parents[i]
		}
	}
}

// FuzzRowReader reads mutated files through the row API: errors are fine,
// panics are not. The seeds are small files written by RowWriter.
func FuzzRowReader(f *testing.F) {
	r := rand.New(rand.NewPCG(11, 11))
	rows := rowRandSimple(r, 30)
	for _, codec := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd} {
		f.Add(rowsWrite(f, r, rows, writer.WithCompression(codec), writer.WithRowIndexStride(100)))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rd, err := reader.Open(bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		rr, err := reader.NewRowReader[rowSimple](rd)
		if err != nil {
			return
		}
		dst := make([]rowSimple, 7)
		for range 1000 {
			if _, err := rr.Read(dst); err != nil {
				return
			}
		}
	})
}

// TestRowReaderMissingFields: with WithLenientFields, a field whose column
// the file lacks (a column added after the file was written) reads as its
// zero value, at the top level and inside a struct, even in rows of dst
// that held values.
func TestRowReaderMissingFields(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	events := rowRandEvents(3, 3000)
	rd := rowOpen(t, rowsWrite(t, r, events))
	type geo struct {
		Lat  float64  `orc:"lat"`
		Alt  *float64 `orc:"alt"` // not in the file
		Note string   `orc:"note"`
	}
	type row struct {
		ID    int64     `orc:"id"`
		Added string    `orc:"added"` // not in the file
		Where geo       `orc:"where"`
		Tags  []string  `orc:"tags"`
		Later []float64 `orc:"later"` // not in the file
	}
	rr, err := reader.NewRowReader[row](rd, reader.WithLenientFields())
	if err != nil {
		t.Fatal(err)
	}
	defer rr.Close()
	one := 1.5
	dst := make([]row, 700)
	got := 0
	for {
		for i := range dst {
			dst[i].Added, dst[i].Where.Alt, dst[i].Where.Note, dst[i].Later = "stale", &one, "stale", []float64{1}
		}
		n, err := rr.Read(dst)
		for _, g := range dst[:n] {
			e := events[got]
			if g.ID != e.ID || g.Where.Lat != e.Where.Lat || !reflect.DeepEqual(g.Tags, e.Tags) {
				t.Fatalf("row %d: %+v, want id %d where %+v tags %v", got, g, e.ID, e.Where, e.Tags)
			}
			if g.Added != "" || g.Where.Alt != nil || g.Where.Note != "" || g.Later != nil {
				t.Fatalf("row %d: fields the file lacks are not zero: %+v", got, g)
			}
			got++
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if got != len(events) {
		t.Fatalf("%d rows, want %d", got, len(events))
	}
}
