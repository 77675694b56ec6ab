//go:build ignore

// Gen writes the Iceberg tables of ORC data files of the Apache ORC C++
// interop check (see README.md), with orcgo's iceberg module, into DIR:
//
//	cd iceberg && go run ../scripts/cppiceberg/gen.go DIR
//
// DIR/catalog.db is an SQL catalog (SQLite) whose warehouse is
// DIR/warehouse; DIR/files.txt lists every data file committed, one
// "table path rows metadata" line each (metadata: the table's metadata file
// after the commit), and DIR/nanos.orc is a data file of the nanosecond
// timestamp types written outside a table, its Iceberg schema in
// DIR/nanos.schema.json. The rows are the same
// on every run (seeded), the file names are not (UUIDs).
package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	"github.com/apache/iceberg-go/table"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/iceberg"
	"github.com/orcgo/orc/writer"
	_ "modernc.org/sqlite"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ../scripts/cppiceberg/gen.go DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// allTypes has every Iceberg type of format version 2 that maps to ORC,
// nested in structs, lists and maps, required and optional.
func allTypes() *ice.Schema {
	p := ice.PrimitiveTypes
	return ice.NewSchema(0,
		ice.NestedField{ID: 1, Name: "b", Type: p.Bool, Required: true},
		ice.NestedField{ID: 2, Name: "i", Type: p.Int32},
		ice.NestedField{ID: 3, Name: "l", Type: p.Int64},
		ice.NestedField{ID: 4, Name: "f", Type: p.Float32},
		ice.NestedField{ID: 5, Name: "d", Type: p.Float64},
		ice.NestedField{ID: 6, Name: "dec", Type: ice.DecimalTypeOf(12, 3)},
		ice.NestedField{ID: 7, Name: "dec38", Type: ice.DecimalTypeOf(38, 10)},
		ice.NestedField{ID: 8, Name: "date", Type: p.Date},
		ice.NestedField{ID: 9, Name: "time", Type: p.Time},
		ice.NestedField{ID: 10, Name: "ts", Type: p.Timestamp},
		ice.NestedField{ID: 11, Name: "tstz", Type: p.TimestampTz},
		ice.NestedField{ID: 12, Name: "s", Type: p.String},
		ice.NestedField{ID: 13, Name: "u", Type: p.UUID},
		ice.NestedField{ID: 14, Name: "fx", Type: ice.FixedTypeOf(7)},
		ice.NestedField{ID: 15, Name: "bin", Type: p.Binary},
		ice.NestedField{ID: 16, Name: "st", Type: &ice.StructType{FieldList: []ice.NestedField{
			{ID: 17, Name: "x", Type: p.Int32, Required: true},
			{ID: 18, Name: "y", Type: p.String},
			{ID: 19, Name: "inner", Type: &ice.StructType{FieldList: []ice.NestedField{
				{ID: 20, Name: "z", Type: p.Int64},
				{ID: 21, Name: "t", Type: p.Time},
			}}},
		}}},
		ice.NestedField{ID: 22, Name: "lst", Type: &ice.ListType{ElementID: 23, Element: p.String}},
		ice.NestedField{ID: 24, Name: "lst2", Type: &ice.ListType{ElementID: 25, ElementRequired: true,
			Element: &ice.StructType{FieldList: []ice.NestedField{
				{ID: 26, Name: "a", Type: p.Int32},
				{ID: 27, Name: "u", Type: p.UUID, Required: true},
			}}}},
		ice.NestedField{ID: 28, Name: "m", Type: &ice.MapType{KeyID: 29, KeyType: p.String,
			ValueID: 30, ValueType: p.Float64, ValueRequired: true}},
		ice.NestedField{ID: 31, Name: "m2", Type: &ice.MapType{KeyID: 32, KeyType: p.Int32,
			ValueID: 33, ValueType: &ice.ListType{ElementID: 34, Element: p.Date}}},
		ice.NestedField{ID: 35, Name: "req_s", Type: p.String, Required: true},
		ice.NestedField{ID: 36, Name: "bfx", Type: ice.FixedTypeOf(16)},
	)
}

// nanosTypes has the nanosecond timestamps of format version 3, which
// iceberg-go v0.7.0 does not create tables of: written with NewWriter.
func nanosTypes() *ice.Schema {
	p := ice.PrimitiveTypes
	return ice.NewSchema(0,
		ice.NestedField{ID: 1, Name: "id", Type: p.Int64, Required: true},
		ice.NestedField{ID: 2, Name: "tsns", Type: p.TimestampNs},
		ice.NestedField{ID: 3, Name: "tstzns", Type: p.TimestampTzNs},
		ice.NestedField{ID: 4, Name: "ts", Type: p.Timestamp},
	)
}

func events() *ice.Schema {
	p := ice.PrimitiveTypes
	return ice.NewSchema(0,
		ice.NestedField{ID: 1, Name: "id", Type: p.Int64, Required: true},
		ice.NestedField{ID: 2, Name: "ts", Type: p.TimestampTz},
		ice.NestedField{ID: 3, Name: "cat", Type: p.String},
		ice.NestedField{ID: 4, Name: "v", Type: p.Float64},
		ice.NestedField{ID: 5, Name: "day", Type: p.Date},
		ice.NestedField{ID: 6, Name: "amount", Type: ice.DecimalTypeOf(9, 2)},
	)
}

var utc = time.UTC

func day(y int, m time.Month, d int) int64 {
	return time.Date(y, m, d, 0, 0, 0, 0, utc).Unix() / 86400
}

// Edge values, used in the first rows and then now and then.
var (
	edgeInt   = []int64{0, -1, 1, math.MinInt32, math.MaxInt32}
	edgeLong  = []int64{0, -1, math.MinInt64, math.MaxInt64, 1 << 53}
	edgeFloat = []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1),
		math.MaxFloat32, math.SmallestNonzeroFloat32, -1.5, 3.1415927}
	edgeDouble = []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1),
		math.MaxFloat64, math.SmallestNonzeroFloat64, 1e-300, -123456.789012345, 0.1}
	edgeDec   = []string{"0", "-0.001", "999999999.999", "-999999999.999", "1.5"}
	edgeDec38 = []string{"0", "9999999999999999999999999999.9999999999", "-9999999999999999999999999999.9999999999",
		"0.0000000001", "12345678901234567890.1234567890", "-1"}
	edgeDate = []int64{0, -1, day(1582, 10, 4), day(1582, 10, 15), day(1000, 1, 1), day(1900, 1, 1),
		day(1969, 12, 31), day(2038, 1, 20), day(9999, 12, 31), day(2024, 2, 29)}
	edgeTime = []int64{0, 1, 86399999999, 43200000000, 3723004005}
	edgeTS   = []time.Time{
		time.Unix(0, 0).UTC(),
		time.Date(1969, 12, 31, 23, 59, 59, 999999000, utc),
		time.Date(1969, 12, 31, 23, 59, 59, 0, utc),
		time.Date(1900, 1, 1, 0, 0, 0, 1000, utc),
		time.Date(1582, 10, 10, 12, 0, 0, 0, utc),
		time.Date(1000, 6, 1, 0, 0, 0, 500000000, utc),
		time.Date(2015, 1, 1, 0, 0, 0, 0, utc),
		time.Date(2014, 12, 31, 23, 59, 59, 999999000, utc),
		time.Date(2038, 1, 19, 3, 14, 8, 0, utc),
		time.Date(9999, 12, 31, 23, 59, 59, 999999000, utc),
		time.Date(2024, 3, 10, 2, 30, 0, 0, utc), // a spring-forward gap in New York
		time.Date(2024, 11, 3, 1, 30, 0, 0, utc), // a fall-back repeat in New York
		// New York's local mean time (-4:56:02) ended at 12:03:58 on 1883-11-18
		time.Date(1883, 11, 18, 12, 3, 57, 0, utc),
		time.Date(1883, 11, 18, 12, 3, 58, 0, utc),
	}
	edgeStr = []string{"", "a", "żółw 🐢", `quote " and \ backslash`, "tab\tnewline\ncr\rbs\bff\f", "ctl\x01\x1f",
		"nan", "[1, 2]", strings.Repeat("x", 300), "日本語テキスト"}
)

func pick[T any](rng *rand.Rand, i int, edges []T, random func() T) T {
	if i < len(edges) {
		return edges[i]
	}
	if rng.IntN(10) == 0 {
		return edges[rng.IntN(len(edges))]
	}
	return random()
}

// maybe returns nil for about one value in every k (k 0: never).
func maybe(rng *rand.Rand, k int, v any) any {
	if k > 0 && rng.IntN(k) == 0 {
		return nil
	}
	return v
}

func randBytes(rng *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.IntN(256))
	}
	return b
}

func randTS(rng *rand.Rand) time.Time {
	// 1960..2040, microseconds
	return time.UnixMicro(rng.Int64N(80*365*86400*1e6) - 10*365*86400*1e6).UTC()
}

func randDec(rng *rand.Rand, digits, scale int) string {
	var sb strings.Builder
	if rng.IntN(2) == 0 {
		sb.WriteByte('-')
	}
	n := 1 + rng.IntN(digits)
	for k := 0; k < n; k++ {
		if k == n-scale {
			if k == 0 {
				sb.WriteByte('0')
			}
			sb.WriteByte('.')
		}
		sb.WriteByte(byte('0' + rng.IntN(10)))
	}
	return sb.String()
}

func randStr(rng *rand.Rand) string {
	const alpha = "abcdefghijklmnopqrstuvwxyzĄęß€ 0123456789"
	r := []rune(alpha)
	n := rng.IntN(20)
	out := make([]rune, n)
	for i := range out {
		out[i] = r[rng.IntN(len(r))]
	}
	return string(out)
}

// allTypesRow is row i: nested Go values in the schema's order, nil for a
// null. k is the null rate (one in k) of the optional values.
func allTypesRow(rng *rand.Rand, i, k int) []any {
	uuid := func() []byte { return randBytes(rng, 16) }
	var st any
	if rng.IntN(k) != 0 {
		var inner any
		if rng.IntN(k) != 0 {
			inner = []any{maybe(rng, k, rng.Int64()), maybe(rng, k, rng.Int64N(86400e6))}
		}
		st = []any{int64(rng.Int32()), maybe(rng, k, randStr(rng)), inner}
	}
	var lst any
	if rng.IntN(k) != 0 {
		l := []any{}
		for n := rng.IntN(4); n > 0; n-- {
			l = append(l, maybe(rng, k, randStr(rng)))
		}
		lst = l
	}
	var lst2 any
	if rng.IntN(k) != 0 {
		l := []any{}
		for n := rng.IntN(3); n > 0; n-- {
			l = append(l, []any{maybe(rng, k, int64(rng.Int32())), uuid()})
		}
		lst2 = l
	}
	var m any
	if rng.IntN(k) != 0 {
		mm := [][2]any{}
		for n := rng.IntN(4); n > 0; n-- {
			mm = append(mm, [2]any{fmt.Sprintf("k%d", n), rng.NormFloat64() * 1e3})
		}
		m = mm
	}
	var m2 any
	if rng.IntN(k) != 0 {
		mm := [][2]any{}
		for n := rng.IntN(3); n > 0; n-- {
			var dates any
			if rng.IntN(k) != 0 {
				d := []any{}
				for c := rng.IntN(3); c > 0; c-- {
					d = append(d, maybe(rng, k, rng.Int64N(40000)-10000))
				}
				dates = d
			}
			mm = append(mm, [2]any{int64(n - 2), dates})
		}
		m2 = mm
	}
	return []any{
		i%3 == 0,
		maybe(rng, k, pick(rng, i, edgeInt, func() int64 { return int64(rng.Int32()) })),
		maybe(rng, k, pick(rng, i, edgeLong, func() int64 { return rng.Int64() - rng.Int64() })),
		maybe(rng, k, pick(rng, i, edgeFloat, func() float64 { return float64(float32(rng.NormFloat64() * 100)) })),
		maybe(rng, k, pick(rng, i, edgeDouble, func() float64 { return rng.NormFloat64() * 1e6 })),
		maybe(rng, k, pick(rng, i, edgeDec, func() string { return randDec(rng, 12, 3) })),
		maybe(rng, k, pick(rng, i, edgeDec38, func() string { return randDec(rng, 38, 10) })),
		maybe(rng, k, pick(rng, i, edgeDate, func() int64 { return rng.Int64N(60000) - 20000 })),
		maybe(rng, k, pick(rng, i, edgeTime, func() int64 { return rng.Int64N(86400e6) })),
		maybe(rng, k, pick(rng, i, edgeTS, func() time.Time { return randTS(rng) })),
		maybe(rng, k, pick(rng, i, edgeTS, func() time.Time { return randTS(rng) })),
		maybe(rng, k, pick(rng, i, edgeStr, func() string { return randStr(rng) })),
		maybe(rng, k, uuid()),
		maybe(rng, k, randBytes(rng, 7)),
		maybe(rng, k, randBytes(rng, rng.IntN(40))),
		st, lst, lst2, m, m2,
		pick(rng, i, edgeStr, func() string { return randStr(rng) }),
		maybe(rng, k, randBytes(rng, 16)),
	}
}

func nanosRow(rng *rand.Rand, i int) []any {
	ns := func() time.Time {
		return pick(rng, i, []time.Time{
			time.Unix(0, 1).UTC(), time.Unix(-1, 999999999).UTC(), time.Unix(-1, 1).UTC(),
			time.Date(1677, 9, 21, 0, 12, 43, 145224192, utc), time.Date(2262, 4, 11, 23, 47, 16, 854775807, utc),
			time.Date(1969, 12, 31, 23, 59, 59, 123456789, utc),
		}, func() time.Time { return randTS(rng).Add(time.Duration(rng.IntN(1000))) })
	}
	return []any{int64(i), maybe(rng, 9, ns()), maybe(rng, 9, ns()), maybe(rng, 9, pick(rng, i, edgeTS, func() time.Time { return randTS(rng) }))}
}

func eventsRow(rng *rand.Rand, i int, span int64) []any {
	const day0 = 1704067200 // 2024-01-01T00:00:00Z
	cats := []string{"apple", "avocado", "banana", "cherry", "-"}
	return []any{
		int64(i),
		maybe(rng, 20, time.Unix(day0+rng.Int64N(span), int64(rng.IntN(1e6))*1000).UTC()),
		maybe(rng, 20, cats[i%5]+fmt.Sprint(i%7)),
		maybe(rng, 20, pick(rng, i, edgeDouble, func() float64 { return float64(i) / 2 })),
		maybe(rng, 20, day(2024, 1, 1)+int64(rng.IntN(90))),
		maybe(rng, 20, randDec(rng, 9, 2)),
	}
}

// appendValue appends Go value x (nil: null) to vector v of type n.
func appendValue(n *orc.Schema, v orc.Vector, x any) error {
	if x == nil {
		switch v := v.(type) {
		case *orc.LongVector:
			v.AppendNull()
		case *orc.DoubleVector:
			v.AppendNull()
		case *orc.DecimalVector:
			v.AppendNull()
		case *orc.TimestampVector:
			v.AppendNull()
		case *orc.BytesVector:
			v.AppendNull()
		case *orc.StructVector:
			v.AppendNull()
		case *orc.ListVector:
			v.AppendNull()
		case *orc.MapVector:
			v.AppendNull()
		default:
			return fmt.Errorf("null in a %T", v)
		}
		return nil
	}
	switch n.Kind {
	case orc.Boolean:
		b := int64(0)
		if x.(bool) {
			b = 1
		}
		v.(*orc.LongVector).Append(b)
	case orc.Int, orc.Long, orc.Date:
		v.(*orc.LongVector).Append(x.(int64))
	case orc.Float, orc.Double:
		v.(*orc.DoubleVector).Append(x.(float64))
	case orc.Decimal:
		d, scale, err := orc.ParseDecimal(x.(string))
		if err != nil {
			return err
		}
		r, exact, ok := orc.Rescale(d, scale, n.Scale)
		if !exact || !ok {
			return fmt.Errorf("decimal %s does not fit scale %d", x, n.Scale)
		}
		v.(*orc.DecimalVector).Append(r)
	case orc.Timestamp, orc.TimestampInstant:
		t := x.(time.Time)
		v.(*orc.TimestampVector).Append(t.Unix(), int32(t.Nanosecond()))
	case orc.String:
		v.(*orc.BytesVector).AppendString(x.(string))
	case orc.Binary:
		v.(*orc.BytesVector).Append(x.([]byte))
	case orc.Struct:
		sv := v.(*orc.StructVector)
		for i, c := range n.Children {
			if err := appendValue(c, sv.Fields[i], x.([]any)[i]); err != nil {
				return err
			}
		}
		sv.AppendRow()
	case orc.List:
		lv := v.(*orc.ListVector)
		for _, e := range x.([]any) {
			if err := appendValue(n.Children[0], lv.Elem, e); err != nil {
				return err
			}
		}
		lv.AppendRow()
	case orc.Map:
		mv := v.(*orc.MapVector)
		for _, kv := range x.([][2]any) {
			if err := appendValue(n.Children[0], mv.Keys, kv[0]); err != nil {
				return err
			}
			if err := appendValue(n.Children[1], mv.Values, kv[1]); err != nil {
				return err
			}
		}
		mv.AppendRow()
	default:
		return fmt.Errorf("no values for %s", n.Kind)
	}
	return nil
}

func batchOf(s *orc.Schema, rows [][]any) (*orc.Batch, error) {
	b := orc.NewBatch(s, len(rows))
	for _, r := range rows {
		for c, x := range r {
			if err := appendValue(s.Children[c], b.Cols[c], x); err != nil {
				return nil, fmt.Errorf("column %s: %w", s.FieldNames[c], err)
			}
		}
	}
	b.NumRows = len(rows)
	return b, nil
}

type tableSpec struct {
	name    string
	schema  *ice.Schema
	parts   func(*ice.Schema) []ice.PartitionOption
	props   ice.Properties
	appends []appendSpec
}

type appendSpec struct {
	rows   int
	nullK  int
	span   int64 // events: the timestamps' range in seconds
	target int64
	opts   []writer.Option
}

func tables() []tableSpec {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		panic(err)
	}
	return []tableSpec{
		{
			name:   "alltypes",
			schema: allTypes(),
			parts: func(s *ice.Schema) []ice.PartitionOption {
				return []ice.PartitionOption{
					ice.AddPartitionFieldByName("b", "b", ice.IdentityTransform{}, s, nil),
					ice.AddPartitionFieldByName("u", "u_bucket", ice.BucketTransform{NumBuckets: 2}, s, nil),
				}
			},
			props: ice.Properties{
				iceberg.PropMetricsDefault:                 "truncate(8)",
				iceberg.PropMetricsColumnPrefix + "s":      "full",
				iceberg.PropMetricsColumnPrefix + "d":      "none",
				iceberg.PropMetricsColumnPrefix + "bin":    "counts",
				iceberg.PropMetricsColumnPrefix + "st.y":   "truncate(2)",
				iceberg.PropMetricsColumnPrefix + "lst2.u": "full",
			},
			appends: []appendSpec{
				{rows: 3000, nullK: 7, opts: []writer.Option{writer.WithCompression(orc.CompressionZstd),
					writer.WithRowIndexStride(100), writer.WithStripeRowLimit(120)}},
				{rows: 2000, nullK: 3, opts: []writer.Option{writer.WithCompression(orc.CompressionLZ4),
					writer.WithTimeZone(ny), writer.WithCompressionBlockSize(4096)}},
			},
		},
		{
			name:   "flat",
			schema: allTypes(),
			props:  ice.Properties{iceberg.PropMetricsDefault: "full", iceberg.PropMetricsColumnPrefix + "lst": "none"},
			appends: []appendSpec{
				{rows: 6000, nullK: 5, opts: []writer.Option{writer.WithCompression(orc.CompressionSnappy),
					writer.WithStripeRowLimit(2500), writer.WithRowIndexStride(1000), writer.WithBloomFilterColumns("s", "l")}},
				{rows: 1500, nullK: 2, opts: []writer.Option{writer.WithCompression(orc.CompressionNone)}},
				{rows: 1, nullK: 1000, opts: []writer.Option{writer.WithCompression(orc.CompressionZlib)}},
			},
		},
		{
			name:   "events",
			schema: events(),
			parts: func(s *ice.Schema) []ice.PartitionOption {
				return []ice.PartitionOption{
					ice.AddPartitionFieldByName("ts", "ts_day", ice.DayTransform{}, s, nil),
					ice.AddPartitionFieldByName("id", "id_bucket", ice.BucketTransform{NumBuckets: 2}, s, nil),
					ice.AddPartitionFieldByName("cat", "cat_trunc", ice.TruncateTransform{Width: 1}, s, nil),
				}
			},
			props: ice.Properties{iceberg.PropMetricsDefault: "counts", iceberg.PropMetricsColumnPrefix + "id": "full",
				iceberg.PropMetricsColumnPrefix + "cat": "truncate(1)", iceberg.PropMetricsColumnPrefix + "v": "none"},
			appends: []appendSpec{
				{rows: 4000, span: 5 * 86400, opts: []writer.Option{writer.WithCompression(orc.CompressionZlib)}},
			},
		},
		{
			name:   "events_year",
			schema: events(),
			parts: func(s *ice.Schema) []ice.PartitionOption {
				return []ice.PartitionOption{
					ice.AddPartitionFieldByName("ts", "ts_year", ice.YearTransform{}, s, nil),
					ice.AddPartitionFieldByName("id", "id_trunc", ice.TruncateTransform{Width: 1000}, s, nil),
				}
			},
			props: ice.Properties{iceberg.PropMetricsColumnPrefix + "amount": "full"},
			appends: []appendSpec{
				{rows: 3000, span: 3 * 365 * 86400, opts: []writer.Option{writer.WithCompression(orc.CompressionSnappy)}},
			},
		},
		{
			name:   "events_roll",
			schema: events(),
			parts: func(s *ice.Schema) []ice.PartitionOption {
				return []ice.PartitionOption{
					ice.AddPartitionFieldByName("ts", "ts_hour", ice.HourTransform{}, s, nil),
					ice.AddPartitionFieldByName("day", "day_month", ice.MonthTransform{}, s, nil),
				}
			},
			appends: []appendSpec{
				{rows: 20000, span: 3 * 3600, target: 16 << 10, opts: []writer.Option{writer.WithCompression(orc.CompressionZstd),
					writer.WithStripeRowLimit(500)}},
			},
		},
	}
}

func run(dir string) error {
	ctx := context.Background()
	if err := os.MkdirAll(filepath.Join(dir, "warehouse"), 0o755); err != nil {
		return err
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	db, err := sql.Open("sqlite", "file:"+filepath.Join(abs, "catalog.db"))
	if err != nil {
		return err
	}
	defer db.Close()
	cat, err := sqlcat.NewCatalog("cppiceberg", db, sqlcat.SQLite,
		ice.Properties{"warehouse": "file://" + filepath.Join(abs, "warehouse")})
	if err != nil {
		return err
	}
	if err := cat.CreateNamespace(ctx, table.Identifier{"db"}, nil); err != nil {
		return err
	}
	list, err := os.Create(filepath.Join(dir, "files.txt"))
	if err != nil {
		return err
	}
	defer list.Close()
	rng := rand.New(rand.NewPCG(50, 4))
	for _, ts := range tables() {
		ident := table.Identifier{"db", ts.name}
		opts := []catalog.CreateTableOpt{catalog.WithProperties(ts.props)}
		if ts.parts != nil {
			spec, err := ice.NewPartitionSpecOpts(ts.parts(ts.schema)...)
			if err != nil {
				return err
			}
			opts = append(opts, catalog.WithPartitionSpec(&spec))
		}
		if _, err := cat.CreateTable(ctx, ident, ts.schema, opts...); err != nil {
			return err
		}
		first := 0
		for _, ap := range ts.appends {
			tbl, err := cat.LoadTable(ctx, ident)
			if err != nil {
				return err
			}
			tw, err := iceberg.NewTableWriter(ctx, tbl, ap.target, ap.opts...)
			if err != nil {
				return err
			}
			for off := 0; off < ap.rows; off += 500 {
				var rows [][]any
				for i := off; i < min(ap.rows, off+500); i++ {
					switch ts.name {
					case "alltypes", "flat":
						rows = append(rows, allTypesRow(rng, first+i, ap.nullK))
					default:
						rows = append(rows, eventsRow(rng, first+i, ap.span))
					}
				}
				b, err := batchOf(tw.Schema(), rows)
				if err != nil {
					return err
				}
				if err := tw.Write(b); err != nil {
					return err
				}
			}
			files, err := tw.Close()
			if err != nil {
				return err
			}
			tbl, err = iceberg.Commit(ctx, cat, ident, files, 0)
			if err != nil {
				return err
			}
			for _, f := range files {
				fmt.Fprintf(list, "%s %s %d %s\n", ts.name, strings.TrimPrefix(f.FilePath(), "file://"), f.Count(),
					strings.TrimPrefix(tbl.MetadataLocation(), "file://"))
			}
			first += ap.rows
		}
	}
	return writeNanos(filepath.Join(dir, "nanos.orc"), rng)
}

func writeNanos(path string, rng *rand.Rand) error {
	js, err := json.Marshal(nanosTypes())
	if err != nil {
		return err
	}
	if err := os.WriteFile(strings.TrimSuffix(path, ".orc")+".schema.json", js, 0o644); err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	w, err := iceberg.NewWriter(f, nanosTypes(), nil, writer.WithCompression(orc.CompressionZstd))
	if err != nil {
		return err
	}
	var rows [][]any
	for i := 0; i < 3000; i++ {
		rows = append(rows, nanosRow(rng, i))
	}
	b, err := batchOf(w.Schema(), rows)
	if err != nil {
		return err
	}
	if err := w.Write(b); err != nil {
		return err
	}
	if _, err := w.Close(); err != nil {
		return err
	}
	return f.Close()
}
