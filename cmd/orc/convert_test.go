package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

// examplesDir finds Apache's example files or skips the test.
func examplesDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("ORC_EXAMPLES"); d != "" {
		return d
	}
	d := filepath.Join("..", "..", "..", "shared", "orc-examples")
	if _, err := os.Stat(d); err != nil {
		t.Skip("ORC example files not found: set ORC_EXAMPLES or place them in ../shared/orc-examples")
	}
	return d
}

// convert runs orc convert with args and returns its error and stdout.
func convert(t *testing.T, args ...string) (string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := runConvert(args, &stdout, &stderr)
	if stderr.Len() > 0 {
		t.Errorf("convert wrote to stderr (not a terminal): %q", stderr.String())
	}
	return stdout.String(), err
}

func mustConvert(t *testing.T, args ...string) {
	t.Helper()
	if _, err := convert(t, args...); err != nil {
		t.Fatalf("convert %q: %v", args, err)
	}
}

// catValues runs orc cat on path and parses each line, numbers kept as
// their text.
func catValues(t *testing.T, path string) []any {
	t.Helper()
	var out bytes.Buffer
	if err := runCat([]string{path}, &out, io.Discard); err != nil {
		t.Fatalf("cat %s: %v", path, err)
	}
	return parseLines(t, out.String())
}

func parseLines(t *testing.T, text string) []any {
	t.Helper()
	var vals []any
	sc := bufio.NewScanner(strings.NewReader(text))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("bad JSON line %q: %v", sc.Text(), err)
		}
		vals = append(vals, v)
	}
	return vals
}

// readAll opens an ORC file and returns its rows in one batch.
func readAll(t *testing.T, path string) (*reader.Reader, *orc.Batch) {
	t.Helper()
	r, closeFn, err := openORC(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(closeFn)
	br, err := r.NewBatchReader(reader.WithBatchSize(1 << 16))
	if err != nil {
		t.Fatal(err)
	}
	b := br.NewBatch()
	if err := br.Next(b); err != nil {
		t.Fatal(err)
	}
	if int64(b.NumRows) != r.NumRows() {
		t.Fatalf("one batch has %d rows, file %d", b.NumRows, r.NumRows())
	}
	return r, b
}

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// dirNames lists a directory, to check that no temporary file is left.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

func TestConvertCSV10Rows(t *testing.T) {
	in := filepath.Join(examplesDir(t), "TestCSVFileImport.test10rows.csv")
	out := filepath.Join(t.TempDir(), "out.orc")
	stdout, err := convert(t, "--schema", "struct<a:int,b:string,c:float>", in, out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout, "wrote 10 rows") {
		t.Errorf("stdout %q", stdout)
	}
	_, b := readAll(t, out)
	a := b.Cols[0].(*orc.LongVector)
	s := b.Cols[1].(*orc.BytesVector)
	c := b.Cols[2].(*orc.DoubleVector)
	// The file: "0,a,0.0", ..., "3,d,", "4,,4.4", ",f,5.5", ",,", "7,h,7.7", ...
	for i := 0; i < 10; i++ {
		aNull, bNull, cNull := i == 5 || i == 6, i == 4 || i == 6, i == 3 || i == 6
		if a.IsNull(i) != aNull || s.IsNull(i) != bNull || c.IsNull(i) != cNull {
			t.Fatalf("row %d nulls a=%v b=%v c=%v", i, a.IsNull(i), s.IsNull(i), c.IsNull(i))
		}
		if !aNull && a.Values[i] != int64(i) {
			t.Errorf("row %d: a = %d", i, a.Values[i])
		}
		if !bNull && s.String(i) != string(rune('a'+i)) {
			t.Errorf("row %d: b = %q", i, s.String(i))
		}
		if want := float64(float32(float64(i) * 1.1)); !cNull && c.Values[i] != want {
			t.Errorf("row %d: c = %v, want %v", i, c.Values[i], want)
		}
	}
}

func TestConvertCSVTimezone(t *testing.T) {
	in := filepath.Join(examplesDir(t), "TestCSVFileImport.testTimezoneOption.csv")
	dir := t.TempDir()
	for _, zone := range []string{"UTC", "America/New_York", "Asia/Shanghai", "Europe/Berlin", "Australia/Lord_Howe"} {
		out := filepath.Join(dir, strings.ReplaceAll(zone, "/", "_")+".orc")
		mustConvert(t, "--schema", "struct<d:timestamp>", "--timezone", zone, in, out)
		r, b := readAll(t, out)
		ts := b.Cols[0].(*orc.TimestampVector)
		want := time.Date(2021, 12, 27, 0, 0, 0, 0, time.UTC).Unix()
		if b.NumRows != 1 || ts.Seconds[0] != want || ts.Nanos[0] != 0 {
			t.Errorf("%s: read %d rows, %d.%09d; want wall clock 2021-12-27 00:00:00", zone, b.NumRows, ts.Seconds[0], ts.Nanos[0])
		}
		d, err := r.StripeDetail(0)
		if err != nil {
			t.Fatal(err)
		}
		if d.WriterTimezone != zone {
			t.Errorf("%s: stripe writer zone %q", zone, d.WriterTimezone)
		}
	}
}

// TestConvertCSVTypes converts every primitive type and checks the stored
// values exactly.
func TestConvertCSVTypes(t *testing.T) {
	dir := t.TempDir()
	schema := "struct<bo:boolean,ti:tinyint,sm:smallint,i:int,bi:bigint,f:float,d:double,s:string," +
		"vc:varchar(3),ch:char(3),bin:binary,dec:decimal(12,2),big:decimal(38,10),dt:date,ts:timestamp," +
		"tl:timestamp with local time zone>"
	rows := [][]string{
		{"TRUE", "-128", "-32768", "-2147483648", "-9223372036854775808", "1.1", "0.1", `"a,""b"""`, "abcdef", "x", "raw",
			"1.5", "-12345678901234567890.0123456789", "1969-12-31", "1969-12-31 23:59:59.999999999", "2021-06-01 12:00:00"},
		{"false", "127", "32767", "2147483647", "9223372036854775807", "-3.4e38", "1e308", "plain", "ab", "xyz", "",
			"-0.05", "0.0000000001", "2000-02-29", "2024-02-29 12:34:56.123456789", "2021-01-01 00:00:00.5"},
		{"true", "0", "0", "0", "0", "NaN", "-Inf", `""`, "", "", "", "12345678.90", "1.500000000000", "0001-01-01",
			"1900-01-01 00:00:00.1", "1970-01-01 00:00:00"},
		{"", "", "", "", "", "", "", "", "", "", "", "", "", "", "", ""},
	}
	text := "bo;ti\n" // a header line, skipped
	for _, r := range rows {
		text += strings.Join(r, "\t") + "\n"
	}
	in := writeFile(t, dir, "types.csv", text)
	out := filepath.Join(dir, "types.orc")
	// --truncate: "abcdef" is stored as the varchar(3) "abc".
	mustConvert(t, "--schema", schema, "--header", "--delimiter", `\t`, "--timezone", "Asia/Kolkata", "--truncate", in, out)
	_, b := readAll(t, out)
	if b.NumRows != 4 {
		t.Fatalf("%d rows", b.NumRows)
	}
	col := func(name string) orc.Vector { return b.Col(name) }
	long := func(name string) []int64 { return col(name).(*orc.LongVector).Values[:3] }
	for _, c := range []struct {
		name string
		want []int64
	}{
		{"bo", []int64{1, 0, 1}},
		{"ti", []int64{-128, 127, 0}},
		{"sm", []int64{-32768, 32767, 0}},
		{"i", []int64{math.MinInt32, math.MaxInt32, 0}},
		{"bi", []int64{math.MinInt64, math.MaxInt64, 0}},
		{"dt", []int64{-1, 11016, -719162}},
	} {
		if got := long(c.name); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, got, c.want)
		}
	}
	f := col("f").(*orc.DoubleVector).Values
	if f[0] != float64(float32(1.1)) || f[1] != float64(float32(-3.4e38)) || !math.IsNaN(f[2]) {
		t.Errorf("f = %v", f[:3])
	}
	dv := col("d").(*orc.DoubleVector).Values
	if dv[0] != 0.1 || dv[1] != 1e308 || !math.IsInf(dv[2], -1) {
		t.Errorf("d = %v", dv[:3])
	}
	str := func(name string, i int) string { return col(name).(*orc.BytesVector).String(i) }
	// A quoted empty field is empty, and so null, as in csv-import.
	if str("s", 0) != `a,"b"` || str("s", 1) != "plain" || !col("s").IsNull(2) {
		t.Errorf("s = %q %q null=%v", str("s", 0), str("s", 1), col("s").IsNull(2))
	}
	if str("vc", 0) != "abc" || str("vc", 1) != "ab" || str("ch", 0) != "x  " || str("bin", 0) != "raw" {
		t.Errorf("vc %q %q, ch %q, bin %q", str("vc", 0), str("vc", 1), str("ch", 0), str("bin", 0))
	}
	dec := col("dec").(*orc.DecimalVector)
	big := col("big").(*orc.DecimalVector)
	for i, want := range []string{"1.50", "-0.05", "12345678.90"} {
		if got := orc.FormatDecimal(dec.Values[i], dec.Scale); got != want {
			t.Errorf("dec[%d] = %s, want %s", i, got, want)
		}
	}
	for i, want := range []string{"-12345678901234567890.0123456789", "0.0000000001", "1.5000000000"} {
		if got := orc.FormatDecimal(big.Values[i], big.Scale); got != want {
			t.Errorf("big[%d] = %s, want %s", i, got, want)
		}
	}
	ts := col("ts").(*orc.TimestampVector)
	for i, want := range []struct {
		sec   int64
		nanos int32
	}{{-1, 999999999}, {1709210096, 123456789}, {-2208988800, 100000000}} {
		if ts.Seconds[i] != want.sec || ts.Nanos[i] != want.nanos {
			t.Errorf("ts[%d] = %d.%09d, want %d.%09d", i, ts.Seconds[i], ts.Nanos[i], want.sec, want.nanos)
		}
	}
	// Instants: the wall clock in the --timezone (UTC+5:30).
	tl := col("tl").(*orc.TimestampVector)
	kolkata, err := time.LoadLocation("Asia/Kolkata")
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []int64{
		time.Date(2021, 6, 1, 12, 0, 0, 0, kolkata).Unix(),
		time.Date(2021, 1, 1, 0, 0, 0, 0, kolkata).Unix(),
		time.Date(1970, 1, 1, 0, 0, 0, 0, kolkata).Unix(),
	} {
		if tl.Seconds[i] != want {
			t.Errorf("tl[%d] = %d, want %d", i, tl.Seconds[i], want)
		}
	}
	if tl.Nanos[1] != 500000000 {
		t.Errorf("tl[1] nanos %d", tl.Nanos[1])
	}
	for i, v := range b.Cols {
		if !v.IsNull(3) {
			t.Errorf("column %s not null in the all-empty row", b.Schema.FieldNames[i])
		}
	}
}

// nestedSchema has every kind, nested.
const nestedSchema = "struct<id:bigint,name:string,flag:boolean,tags:array<string>,attrs:map<string,int>," +
	"loc:struct<lat:double,lon:float>,u:uniontype<int,string,array<tinyint>>,price:decimal(20,4),ts:timestamp," +
	"d:date,bin:binary,items:array<struct<sku:varchar(10),qty:smallint,cost:decimal(38,10)>>," +
	"nest:map<string,array<map<int,string>>>>"

// nestedRows are in the exact forms orc cat prints.
var nestedRows = []string{
	`{"id": 1, "name": "alpha", "flag": true, "tags": ["a", "b"], "attrs": [{"key": "x", "value": 1}, {"key": "y", "value": null}], "loc": {"lat": 52.52, "lon": 13.405}, "u": {"tag": 0, "value": 42}, "price": 1234.5000, "ts": "2024-02-29 12:34:56.123456789", "d": "2024-02-29", "bin": [0, 1, 255], "items": [{"sku": "s1", "qty": 2, "cost": 0.1000000000}], "nest": [{"key": "k", "value": [[{"key": 1, "value": "one"}], []]}]}`,
	`{"id": -9223372036854775808, "name": "", "flag": false, "tags": [], "attrs": [], "loc": null, "u": {"tag": 1, "value": "s"}, "price": -0.0001, "ts": "1969-12-31 23:59:58.9", "d": "1969-12-31", "bin": [], "items": [], "nest": []}`,
	`{"id": null, "name": null, "flag": null, "tags": null, "attrs": null, "loc": {"lat": null, "lon": -1.5}, "u": null, "price": null, "ts": null, "d": null, "bin": null, "items": null, "nest": null}`,
	`{"id": 9223372036854775807, "name": "\"quoted\" \\ ünï", "flag": true, "tags": [null, "c"], "attrs": [{"key": "z", "value": -2147483648}], "loc": {"lat": 1e-300, "lon": 3.4028235e+38}, "u": {"tag": 2, "value": [1, null, -128]}, "price": 9999999999999999.9999, "ts": "2038-01-19 03:14:08.0", "d": "9999-12-31", "bin": [10], "items": [{"sku": null, "qty": null, "cost": null}, null, {"sku": "s2", "qty": -32768, "cost": 1234567890123456789012345678.0123456789}], "nest": [{"key": "a", "value": null}, {"key": "b", "value": [null, [{"key": 2, "value": null}]]}]}`,
	`{"id": 5, "name": "tab\tnewline\n", "flag": false, "tags": ["x"], "attrs": [{"key": "w", "value": 0}], "loc": {"lat": -0.5, "lon": 0}, "u": {"tag": 1, "value": ""}, "price": 0.0000, "ts": "1900-01-01 00:00:00.000001", "d": "0001-01-01", "bin": [128], "items": [null], "nest": [{"key": "c", "value": []}]}`,
}

func TestConvertJSONRoundTrip(t *testing.T) {
	dir := t.TempDir()
	// Repeat the rows so that lists and maps cross batch boundaries.
	var text strings.Builder
	var want []any
	for rep := 0; rep < 7; rep++ {
		for _, r := range nestedRows {
			text.WriteString(r)
			text.WriteString("\n")
		}
		want = append(want, parseLines(t, strings.Join(nestedRows, "\n"))...)
		text.WriteString("\n") // blank lines are skipped
	}
	in := writeFile(t, dir, "rows.jsonl", text.String())
	for _, codec := range []string{"none", "zlib", "snappy", "lz4", "zstd"} {
		for _, batch := range []string{"1", "3", "1024"} {
			out := filepath.Join(dir, codec+batch+".orc")
			mustConvert(t, "--schema", nestedSchema, "--compression", codec, "--batch-size", batch, "--stride", "100",
				"--bloom-columns", "id,name,loc.lat", in, out)
			got := catValues(t, out)
			if !reflect.DeepEqual(got, want) {
				for i := range min(len(got), len(want)) {
					if !reflect.DeepEqual(got[i], want[i]) {
						t.Fatalf("%s batch %s: row %d differs:\n got %v\nwant %v", codec, batch, i, got[i], want[i])
					}
				}
				t.Fatalf("%s batch %s: %d rows, want %d", codec, batch, len(got), len(want))
			}
			r, _ := readAll(t, out)
			if r.Compression().String() != strings.ToUpper(codec) {
				t.Errorf("compression %s, want %s", r.Compression(), codec)
			}
		}
	}
}

// TestConvertJSONForms checks the accepted non-canonical forms: missing
// fields, numbers as strings, decimals at other scales, whole seconds,
// binary as a string, a non-struct root.
func TestConvertJSONForms(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "in.ndjson", `{"a": "17", "p": 1.5, "ts": "2021-01-01T10:00:00", "bin": "hi"}`+"\n"+
		`{"p": 2E+2, "f": "NaN"}`+"\n"+`{}`)
	out := filepath.Join(dir, "out.orc")
	mustConvert(t, "--schema", "struct<a:int,p:decimal(6,2),ts:timestamp,bin:binary,f:double>", in, out)
	want := parseLines(t, `{"a": 17, "p": 1.50, "ts": "2021-01-01 10:00:00.0", "bin": [104, 105], "f": null}
{"a": null, "p": 200.00, "ts": null, "bin": null, "f": "NaN"}
{"a": null, "p": null, "ts": null, "bin": null, "f": null}`)
	if got := catValues(t, out); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}

	in = writeFile(t, dir, "list.json", "[1, 2]\nnull\n[]\n[null]\n")
	out = filepath.Join(dir, "list.orc")
	mustConvert(t, "--schema", "array<int>", in, out)
	want = parseLines(t, "[1, 2]\nnull\n[]\n[null]\n")
	if got := catValues(t, out); !reflect.DeepEqual(got, want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
}

// TestConvertManyRows crosses batches, row groups and stripes and checks
// every value.
func TestConvertManyRows(t *testing.T) {
	dir := t.TempDir()
	const n = 20000
	var text strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&text, "%d,key-%07d,%d.%02d\n", i, i*7919%n, i/100, i%100)
	}
	in := writeFile(t, dir, "many.csv", text.String())
	out := filepath.Join(dir, "many.orc")
	mustConvert(t, "--schema", "struct<id:int,k:string,amt:decimal(9,2)>", "--stripe-size", "64K",
		"--stride", "1000", "--batch-size", "333", "--bloom-columns", "k", "--fpp", "0.05", in, out)
	r, closeFn, err := openORC(out)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	if len(r.Stripes()) < 2 {
		t.Errorf("%d stripes; want the 64K stripe size to cut several", len(r.Stripes()))
	}
	br, err := r.NewBatchReader()
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
		id, k, amt := b.Cols[0].(*orc.LongVector), b.Cols[1].(*orc.BytesVector), b.Cols[2].(*orc.DecimalVector)
		for j := 0; j < b.NumRows; j, i = j+1, i+1 {
			if id.Values[j] != int64(i) || k.String(j) != fmt.Sprintf("key-%07d", i*7919%n) || amt.Values[j] != orc.Int128FromInt64(int64(i)) {
				t.Fatalf("row %d: %d %q %v", i, id.Values[j], k.String(j), amt.Values[j])
			}
		}
	}
	if i != n {
		t.Fatalf("read %d rows, want %d", i, n)
	}
	d, err := r.StripeDetail(0)
	if err != nil {
		t.Fatal(err)
	}
	bloom := false
	for _, s := range d.Streams {
		if s.Column == 2 && strings.HasPrefix(s.Kind, "BLOOM_FILTER") {
			bloom = true
		}
	}
	if !bloom {
		t.Errorf("no bloom filter stream for column k: %+v", d.Streams)
	}
}

func TestConvertErrors(t *testing.T) {
	flat := "struct<a:int,b:date,c:decimal(5,2),d:boolean,e:timestamp,f:tinyint>"
	cases := []struct {
		name, file, schema, input string
		extra                     []string
		want                      []string // substrings of the error
	}{
		{"bad int", "in.csv", flat, "1,2021-01-01,1,true,,\nx,2021-01-01,1,true,,\n",
			nil, []string{"line 2, column 1 (a int)", `bad int "x"`}},
		{"int out of range", "in.csv", flat, "1,,,,,127\n1,,,,,128\n",
			nil, []string{"line 2, column 6 (f tinyint)", "out of range"}},
		{"bad date", "in.csv", flat, "1,,,,,\n2,,,,,\n3,2021-02-30,,,,\n",
			nil, []string{"line 3, column 2 (b date)", `bad date "2021-02-30"`}},
		{"column count", "in.csv", flat, "1,,,,,\n1,2\n",
			nil, []string{"line 2: 2 fields, but the schema has 6 columns"}},
		{"decimal rounding", "in.csv", flat, "1,,1.234,,,\n",
			nil, []string{"line 1, column 3 (c decimal(5,2))", "rounding"}},
		{"decimal precision", "in.csv", flat, "1,,999.99,,,\n1,,1000,,,\n",
			nil, []string{"line 2, column 3", "does not fit decimal(5,2)"}},
		{"bad decimal", "in.csv", flat, "1,,1.2.3,,,\n",
			nil, []string{"line 1, column 3", `bad decimal "1.2.3"`}},
		{"bad boolean", "in.csv", flat, "1,,,maybe,,\n",
			nil, []string{"line 1, column 4 (d boolean)", "bad boolean"}},
		{"bad timestamp", "in.csv", flat, "1,,,,2021-01-01 24:00:00,\n",
			nil, []string{"line 1, column 5", "bad timestamp"}},
		{"timestamp fraction too long", "in.csv", flat, "1,,,,2021-01-01 00:00:00.1234567891,\n",
			nil, []string{"line 1, column 5", "bad timestamp"}},
		{"dst gap", "in.csv", flat, "1,,,,2021-03-14 02:30:00,\n",
			[]string{"--timezone", "America/New_York"}, []string{"line 1, column 5", "does not exist in time zone America/New_York"}},
		{"header counts as a line", "in.csv", flat, "a,b,c,d,e,f\n1,,,,,\nbad,,,,,\n",
			[]string{"--header"}, []string{"line 3, column 1"}},
		{"multi-line quoted field", "in.csv", "struct<s:string,i:int>", "\"two\nlines\",1\n\"x\",y\n",
			nil, []string{"line 3, column 2 (i int)"}},
		{"csv syntax", "in.csv", "struct<s:string,i:int>", "a,1\nb\"c,2\n",
			nil, []string{"line 2", "bare"}},
		{"csv nested schema", "in.csv", "struct<a:array<int>>", "1\n",
			nil, []string{"CSV input supports only primitive columns", `"a"`}},
		{"csv non-struct", "in.csv", "int", "1\n",
			nil, []string{"CSV input needs a struct"}},
		{"json unknown field", "in.jsonl", nestedSchema, `{"id": 1}` + "\n" + `{"id": 2, "zz": 3}` + "\n",
			nil, []string{`line 2: unknown field "zz"`}},
		{"json nested unknown field", "in.jsonl", nestedSchema, `{"loc": {"lat": 1, "alt": 2}}`,
			nil, []string{`line 1, column "loc": unknown field "alt"`}},
		{"json nested bad value", "in.jsonl", nestedSchema, `{"items": [{"qty": 1}, {"qty": 99999}]}`,
			nil, []string{`line 1, column "items[1].qty"`, "out of range for smallint"}},
		{"json bad decimal", "in.jsonl", nestedSchema, "\n\n" + `{"price": 1.00001}`,
			nil, []string{`line 3, column "price"`, "rounding"}},
		{"json map value", "in.jsonl", nestedSchema, `{"attrs": [{"key": "a", "value": "x"}]}`,
			nil, []string{`line 1, column "attrs[0].value"`, "bad int"}},
		{"json map shape", "in.jsonl", nestedSchema, `{"attrs": "a"}`,
			nil, []string{`line 1, column "attrs"`, "want an object or an array"}},
		{"json map object value", "in.jsonl", nestedSchema, `{"attrs": {"a": "x"}}`,
			nil, []string{`line 1, column "attrs.a"`, "bad int"}},
		{"json deep", "in.jsonl", nestedSchema, `{"nest": [{"key": "k", "value": [[{"key": "notint", "value": "v"}]]}]}`,
			nil, []string{`line 1, column "nest[0].value[0][0].key"`}},
		{"json union tag", "in.jsonl", nestedSchema, `{"u": {"tag": 3, "value": 1}}`,
			nil, []string{`line 1, column "u"`, "want a tag 0..2"}},
		{"json union value", "in.jsonl", nestedSchema, `{"u": {"tag": 2, "value": [1, 300]}}`,
			nil, []string{`line 1, column "u.value[1]"`, "out of range for tinyint"}},
		{"json string type", "in.jsonl", nestedSchema, `{"name": 5}`,
			nil, []string{`line 1, column "name"`, "want a string"}},
		{"json binary byte", "in.jsonl", nestedSchema, `{"bin": [1, 256]}`,
			nil, []string{`line 1, column "bin[1]"`, "byte value"}},
		{"json date", "in.jsonl", nestedSchema, `{"d": "2021-13-01"}`,
			nil, []string{`line 1, column "d"`, "bad date"}},
		{"json syntax", "in.jsonl", nestedSchema, `{"id": 1}` + "\n" + `{"id": }`,
			nil, []string{"line 2, byte", "bad JSON"}},
		{"json two values", "in.jsonl", nestedSchema, `{"id": 1} {"id": 2}`,
			nil, []string{"line 1, byte 11: more than one JSON value"}},
		{"json null row", "in.jsonl", nestedSchema, "null\n",
			nil, []string{"line 1", "must be an object"}},
		{"json array row", "in.jsonl", nestedSchema, "[1]\n",
			nil, []string{"line 1", "want an object"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			in := writeFile(t, dir, c.file, c.input)
			out := filepath.Join(dir, "out.orc")
			args := append([]string{"--schema", c.schema, "--batch-size", "1"}, c.extra...)
			_, err := convert(t, append(args, in, out)...)
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if names := dirNames(t, dir); len(names) != 1 || names[0] != c.file {
				t.Errorf("left behind: %v", names)
			}
		})
	}
}

// TestConvertKeepsOutputOnError checks that a failed --overwrite leaves the
// old file as it was, and that OUT is refused without --overwrite.
func TestConvertKeepsOutputOnError(t *testing.T) {
	dir := t.TempDir()
	out := writeFile(t, dir, "out.orc", "old contents")
	good := writeFile(t, dir, "good.csv", "1\n2\n")
	bad := writeFile(t, dir, "bad.csv", "1\nx\n")
	if _, err := convert(t, "--schema", "struct<a:int>", good, out); err == nil || !strings.Contains(err.Error(), "--overwrite") {
		t.Errorf("existing output: err %v", err)
	}
	if _, err := convert(t, "--schema", "struct<a:int>", "--overwrite", bad, out); err == nil {
		t.Error("bad input: no error")
	}
	if b, _ := os.ReadFile(out); string(b) != "old contents" {
		t.Errorf("output changed to %q", b)
	}
	if n := len(dirNames(t, dir)); n != 3 {
		t.Errorf("%d files in the directory, want 3", n)
	}
	mustConvert(t, "--schema", "struct<a:int>", "--overwrite", good, out)
	if got := catValues(t, out); len(got) != 2 {
		t.Errorf("%d rows", len(got))
	}
	if _, err := convert(t, "--schema", "struct<a:int>", "--overwrite", good, good); err == nil {
		t.Error("converting a file onto itself: no error")
	}
}

func TestConvertUsageErrors(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "in.csv", "1\n")
	out := filepath.Join(dir, "out.orc")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--schema", "struct<a:int>"}, ""},
		{[]string{"--schema", "struct<a:int", in, out}, "--schema"},
		{[]string{"--schema", "struct<a:int>", in}, ""},
		{[]string{"--schema", "struct<a:int>", "--compression", "brotli", in, out}, "--compression"},
		{[]string{"--schema", "struct<a:int>", "--stripe-size", "12 parsecs", in, out}, "--stripe-size"},
		{[]string{"--schema", "struct<a:int>", "--timezone", "Mars/Olympus", in, out}, "--timezone"},
		{[]string{"--schema", "struct<a:int>", "--delimiter", ";;", in, out}, "--delimiter"},
		{[]string{"--schema", "struct<a:int>", "--batch-size", "0", in, out}, "--batch-size"},
		{[]string{"--schema", "struct<a:int>", "--bloom-columns", "nope", in, out}, "--bloom-columns"},
		{[]string{"--schema", "struct<a:int>", "--format", "xml", in, out}, "--format"},
		{[]string{"--schema", "struct<a:int>", filepath.Join(dir, "in.txt"), out}, "--format"},
		{[]string{"--schema", "struct<a:int>", "--no-such-flag", in, out}, "no-such-flag"},
	} {
		_, err := convert(t, c.args...)
		if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: err %v, want a usage error with %q", c.args, err, c.want)
		}
	}
	// Values the writer refuses are usage errors naming the flag, not the
	// Go option.
	_, err := convert(t, "--schema", "struct<a:int>", "--stripe-size", "1K", in, out)
	if !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--stripe-size 1K: must be") || strings.Contains(err.Error(), "With") {
		t.Errorf("tiny stripe: %v", err)
	}
	if _, err := convert(t, "--schema", "struct<a:int>", "--fpp", "2", in, out); !errors.Is(err, errUsage) || !strings.Contains(err.Error(), "--fpp 2") {
		t.Errorf("fpp 2: %v", err)
	}
	if names := dirNames(t, dir); len(names) != 1 {
		t.Errorf("left behind: %v", names)
	}
}

func TestParseSize(t *testing.T) {
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"65536", 65536, true}, {"64MiB", 64 << 20, true}, {"64M", 64 << 20, true}, {"64mb", 64 << 20, true},
		{"512k", 512 << 10, true}, {"1 GiB", 1 << 30, true}, {"100b", 100, true}, {"", 0, false}, {"MiB", 0, false},
		{"1.5M", 0, false}, {"9T", 0, false}, {"-1", 0, false}, {"9223372036854775807G", 0, false},
		{"99999999999999999999", 0, false},
	} {
		got, err := parseSize(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("parseSize(%q) = %d, %v", c.in, got, err)
		}
	}
}

func TestParseDelimiterAndFormat(t *testing.T) {
	for in, want := range map[string]rune{",": ',', ";": ';', `\t`: '\t', "tab": '\t', "|": '|', "§": '§'} {
		if got, err := parseDelimiter(in); err != nil || got != want {
			t.Errorf("parseDelimiter(%q) = %q, %v", in, got, err)
		}
	}
	for _, in := range []string{"", ",,", `"`, "\n"} {
		if _, err := parseDelimiter(in); err == nil {
			t.Errorf("parseDelimiter(%q): no error", in)
		}
	}
	for _, c := range []struct{ flag, path, want string }{
		{"", "a.csv", "csv"}, {"", "a.CSV", "csv"}, {"", "a.jsonl", "json"}, {"", "a.json", "json"},
		{"", "a.ndjson", "json"}, {"csv", "a.txt", "csv"}, {"JSON", "-", "json"}, {"ndjson", "a.csv", "json"},
	} {
		if got, err := inputFormat(c.flag, c.path); err != nil || got != c.want {
			t.Errorf("inputFormat(%q, %q) = %q, %v", c.flag, c.path, got, err)
		}
	}
}

func TestProgressLine(t *testing.T) {
	got := progressLine(1234567, 3<<20, 12<<20, 2)
	for _, w := range []string{"[======>", " 25% ", "1,234,567 rows", "3.0 MiB / 12.0 MiB", "617,283 rows/s", "1.5 MiB/s"} {
		if !strings.Contains(got, w) {
			t.Errorf("progressLine = %q, missing %q", got, w)
		}
	}
	if got := progressLine(5, 100, -1, 1); strings.Contains(got, "[") || !strings.Contains(got, "5 rows  100 B") {
		t.Errorf("unknown total: %q", got)
	}
	for n, want := range map[int64]string{0: "0", 999: "999", 1000: "1,000", -1234567: "-1,234,567", 3000000: "3,000,000"} {
		if got := groupDigits(n); got != want {
			t.Errorf("groupDigits(%d) = %q", n, got)
		}
	}
	for n, want := range map[int64]string{0: "0 B", 1023: "1023 B", 1536: "1.5 KiB", 5 << 30: "5.0 GiB"} {
		if got := formatBytes(n); got != want {
			t.Errorf("formatBytes(%d) = %q", n, got)
		}
	}
	// No progress on anything but a terminal.
	f, err := os.CreateTemp(t.TempDir(), "stderr")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if newProgress(f, 10) != nil || newProgress(&bytes.Buffer{}, 10) != nil {
		t.Error("progress enabled on a regular file or buffer")
	}
	var p *progress // nil: every method is a no-op
	p.update(1, 1)
	p.done(1, 1)
	p.clear()

	// A conversion shorter than progressDelay draws nothing; a longer one
	// draws, and ends its line.
	var buf bytes.Buffer
	now := time.Now()
	p = &progress{w: &buf, total: 100, start: now, last: now.Add(-time.Second)}
	p.update(10, 10)
	p.done(20, 100)
	if buf.Len() != 0 {
		t.Errorf("a short conversion drew %q", buf.String())
	}
	p.start = now.Add(-progressDelay)
	p.update(10, 10)
	p.done(20, 100)
	if got := buf.String(); !strings.Contains(got, "10 rows") || !strings.Contains(got, "20 rows") || !strings.HasSuffix(got, "\n") {
		t.Errorf("a long conversion drew %q", got)
	}
}
