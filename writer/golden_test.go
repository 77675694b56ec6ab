package writer_test

// Golden files: small files written from fixed data and compared byte for
// byte with testdata/*.orc, so that any change to what the writer emits is
// deliberate. Regenerate with
//
//	go test ./writer -run TestGolden -update
//
// and review the diff. The compressed golden files also depend on the
// codec libraries' output: a compress or lz4 upgrade may change them.

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/writer"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// fill returns a vector of n rows of type t with fixed, varied content:
// nulls every 7th row (offset by the column id), extremes, repeats, text
// of several lengths and scripts. It depends on nothing but its inputs.
func fill(t *orc.Schema, n int, seed int) orc.Vector {
	x := uint64(seed)*0x9e3779b97f4a7c15 + 1
	rnd := func() uint64 { // xorshift64
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return x
	}
	var nulls []bool
	if t.Kind != orc.Struct || seed%2 == 0 {
		nulls = make([]bool, n)
		for i := range nulls {
			nulls[i] = (i+seed)%7 == 0
		}
	}
	texts := []string{"", "a", "orc", "naïve café", "日本語テキスト", "emoji 🎉🎉", "x"}
	switch t.Kind {
	case orc.Boolean, orc.Byte, orc.Short, orc.Int, orc.Long, orc.Date:
		v := &orc.LongVector{Values: make([]int64, n)}
		v.Nulls.Nulls = nulls
		for i := range v.Values {
			switch {
			case t.Kind == orc.Boolean:
				v.Values[i] = int64(i / 3 % 2)
			case i%10 == 0:
				v.Values[i] = map[orc.Kind]int64{orc.Byte: math.MinInt8, orc.Short: math.MaxInt16, orc.Int: math.MinInt32,
					orc.Long: math.MaxInt64, orc.Date: -719162}[t.Kind]
			case i < n/2:
				v.Values[i] = int64(i / 5) // repeats and a slow ramp
			default:
				v.Values[i] = int64(int8(rnd()))
			}
		}
		return v
	case orc.Float, orc.Double:
		v := &orc.DoubleVector{Values: make([]float64, n)}
		v.Nulls.Nulls = nulls
		special := []float64{math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 0.1, -1e300, 3}
		for i := range v.Values {
			v.Values[i] = special[i%len(special)] * float64(1+i/len(special))
		}
		return v
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		v := &orc.BytesVector{Offsets: []int{0}}
		v.Nulls.Nulls = nulls
		for i := 0; i < n; i++ {
			s := texts[i%len(texts)]
			if i%4 == 3 {
				s = fmt.Sprintf("%s-%d", s, rnd()%1000) // high cardinality
			}
			v.Data = append(v.Data, s...)
			v.Offsets = append(v.Offsets, len(v.Data))
		}
		return v
	case orc.Decimal:
		v := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: t.Scale}
		v.Nulls.Nulls = nulls
		limit := orc.Pow10(t.Precision)
		for i := range v.Values {
			switch i % 5 {
			case 0:
				v.Values[i], _ = limit.Add(orc.Int128FromInt64(-1)) // full precision
			case 1:
				v.Values[i] = orc.Int128FromInt64(-int64(rnd() % 1000))
			default:
				v.Values[i] = orc.Int128FromInt64(int64(i))
			}
		}
		return v
	case orc.Timestamp, orc.TimestampInstant:
		v := &orc.TimestampVector{Seconds: make([]int64, n), Nanos: make([]int32, n)}
		v.Nulls.Nulls = nulls
		for i := range v.Seconds {
			v.Seconds[i] = []int64{-2208988800, 0, 1420070400, 2147483648, 253402300799}[i%5] + int64(i)
			v.Nanos[i] = []int32{0, 1000, 999_999_999, 123_456_789, 5_000_000}[i%5]
		}
		return v
	case orc.Struct:
		v := &orc.StructVector{N: n}
		v.Nulls.Nulls = nulls
		for j, c := range t.Children {
			v.Fields = append(v.Fields, fill(c, n, seed*31+j+1))
		}
		return v
	case orc.List, orc.Map:
		offs := make([]int64, n+1)
		for i := 0; i < n; i++ {
			k := int64(i % 4)
			if nulls != nil && nulls[i] {
				k = 0
			}
			offs[i+1] = offs[i] + k
		}
		if t.Kind == orc.List {
			v := &orc.ListVector{Offsets: offs, Elem: fill(t.Children[0], int(offs[n]), seed*31+1)}
			v.Nulls.Nulls = nulls
			return v
		}
		v := &orc.MapVector{Offsets: offs, Keys: fill(t.Children[0], int(offs[n]), seed*31+1),
			Values: fill(t.Children[1], int(offs[n]), seed*31+2)}
		v.Nulls.Nulls = nulls
		return v
	case orc.Union:
		v := &orc.UnionVector{Tags: make([]uint8, n)}
		v.Nulls.Nulls = nulls
		for i := range v.Tags {
			v.Tags[i] = uint8(i % len(t.Children))
		}
		for j, c := range t.Children {
			v.Children = append(v.Children, fill(c, n, seed*31+j+1))
		}
		return v
	}
	panic("fill: " + t.Kind.String())
}

func goldenBatch(s *orc.Schema, n, seed int) *orc.Batch {
	b := &orc.Batch{Schema: s, NumRows: n}
	if s.Kind == orc.Struct {
		for i, c := range s.Children {
			b.Cols = append(b.Cols, fill(c, n, seed+i))
		}
	} else {
		b.Cols = []orc.Vector{fill(s, n, seed)}
	}
	return b
}

var goldens = []struct {
	name   string
	schema string
	rows   int
	batch  int
	opts   []writer.Option
}{
	{"alltypes-none", "struct<bo:boolean,ti:tinyint,si:smallint,i:int,bi:bigint,fl:float,do:double,st:string," +
		"vc:varchar(4),ch:char(5),bin:binary,dec:decimal(38,6),d2:decimal(5,2),da:date,ts:timestamp," +
		"tsi:timestamp with local time zone,s:struct<a:int,b:string>,l:array<int>,m:map<string,double>,u:uniontype<int,string>>",
		120, 64, []writer.Option{writer.WithCompression(orc.CompressionNone), writer.WithRowIndexStride(100),
			writer.WithStripeRowLimit(110)}},
	{"alltypes-zstd", "struct<bo:boolean,ti:tinyint,i:int,bi:bigint,do:double,st:string,ch:char(5),dec:decimal(38,6)," +
		"da:date,ts:timestamp,s:struct<a:int,b:string>,l:array<int>,m:map<string,double>,u:uniontype<int,string>>",
		300, 100, []writer.Option{writer.WithCompression(orc.CompressionZstd), writer.WithRowIndexStride(100),
			writer.WithCompressionBlockSize(1 << 10)}},
	{"strings-bloom-zlib", "struct<low:string,high:string,v:varchar(3),b:binary>", 400, 150,
		[]writer.Option{writer.WithCompression(orc.CompressionZlib), writer.WithRowIndexStride(100),
			writer.WithStripeRowLimit(300), writer.WithBloomFilterColumns("low", "high", "v", "b")}},
	{"root-union-none", "uniontype<int,array<string>,struct<x:double>>", 120, 50,
		[]writer.Option{writer.WithCompression(orc.CompressionNone), writer.WithRowIndexStride(100)}},
	{"nested-noindex-snappy", "struct<a:array<map<int,struct<p:string,q:array<date>>>>>", 200, 60,
		[]writer.Option{writer.WithCompression(orc.CompressionSnappy), writer.WithRowIndexStride(0)}},
	{"empty-lz4", "struct<a:int,b:string>", 0, 1,
		[]writer.Option{writer.WithCompression(orc.CompressionLZ4)}},
	// WithAlignedRowGroups(false): the layout from before aligned row groups
	// became the default (the stripes of these files are byte for byte
	// those of the three cases above as they were then; only the name in
	// the user metadata differs).
	{"alltypes-none-unaligned", "struct<bo:boolean,ti:tinyint,si:smallint,i:int,bi:bigint,fl:float,do:double,st:string," +
		"vc:varchar(4),ch:char(5),bin:binary,dec:decimal(38,6),d2:decimal(5,2),da:date,ts:timestamp," +
		"tsi:timestamp with local time zone,s:struct<a:int,b:string>,l:array<int>,m:map<string,double>,u:uniontype<int,string>>",
		120, 64, []writer.Option{writer.WithCompression(orc.CompressionNone), writer.WithRowIndexStride(100),
			writer.WithStripeRowLimit(110), writer.WithAlignedRowGroups(false)}},
	{"alltypes-zstd-unaligned", "struct<bo:boolean,ti:tinyint,i:int,bi:bigint,do:double,st:string,ch:char(5),dec:decimal(38,6)," +
		"da:date,ts:timestamp,s:struct<a:int,b:string>,l:array<int>,m:map<string,double>,u:uniontype<int,string>>",
		300, 100, []writer.Option{writer.WithCompression(orc.CompressionZstd), writer.WithRowIndexStride(100),
			writer.WithCompressionBlockSize(1 << 10), writer.WithAlignedRowGroups(false)}},
	{"strings-bloom-zlib-unaligned", "struct<low:string,high:string,v:varchar(3),b:binary>", 400, 150,
		[]writer.Option{writer.WithCompression(orc.CompressionZlib), writer.WithRowIndexStride(100),
			writer.WithStripeRowLimit(300), writer.WithBloomFilterColumns("low", "high", "v", "b"), writer.WithAlignedRowGroups(false)}},
}

func TestGolden(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			s := orc.MustParseSchema(g.schema)
			var buf bytes.Buffer
			w, err := writer.NewWriter(&buf, s, g.opts...)
			if err != nil {
				t.Fatal(err)
			}
			if err := w.AddUserMetadata("golden", []byte(g.name)); err != nil {
				t.Fatal(err)
			}
			var rows []any
			for n := 0; n < g.rows; n += g.batch {
				b := goldenBatch(s, min(g.batch, g.rows-n), n)
				rows = append(rows, testutil.Rows(s, b, true)...)
				if err := w.Write(b); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			got := buf.Bytes()
			// The file is well formed and its row index finds the values.
			if f := parseFile(t, got); f.tail.Footer.GetRowIndexStride() > 0 && len(f.stripes) > 0 {
				checkIndex(t, got, rows, rand.New(rand.NewPCG(1, 1)))
			}
			if len(got) > 20<<10 {
				t.Errorf("golden file of %d bytes; keep them under 20 KiB", len(got))
			}
			path := filepath.Join("testdata", g.name+".orc")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test ./writer -run TestGolden -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				i := 0
				for i < len(got) && i < len(want) && got[i] == want[i] {
					i++
				}
				t.Errorf("output differs from %s at byte %d (%d bytes, golden %d); if the change is intended, rerun with -update",
					path, i, len(got), len(want))
			}
		})
	}
}
