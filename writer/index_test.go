package writer_test

// Row index positions: for every row group of every column, seeking each
// of the column's streams to the recorded positions and decoding from there
// must give exactly that group's values. The test works on the streams
// with package format's decoders (InStream.Seek, decoder Reset, Skip of the
// run offset), independently of the reader.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/writer"
)

// colCursor decodes one column's streams from a row-index position.
type colCursor struct {
	node *orc.Schema
	dict []string // dictionary entries, for dictionary-encoded text

	present, data, length, second *format.InStream
	presentDec                    *format.BoolRLEDecoder
	boolDec                       *format.BoolRLEDecoder
	byteDec                       *format.ByteRLEDecoder
	intDec, lenDec, secDec        *format.IntRLEv2Decoder
	raw                           *format.ByteReader
}

const epoch2015 = 1420070400

func newCursor(t testing.TB, f *file, s *stripe, node *orc.Schema) *colCursor {
	t.Helper()
	id := node.ID()
	c := &colCursor{node: node, raw: format.NewByteReader(nil)}
	c.present = f.in(s, id, orcpb.Stream_PRESENT)
	c.data = f.in(s, id, orcpb.Stream_DATA)
	c.length = f.in(s, id, orcpb.Stream_LENGTH)
	c.second = f.in(s, id, orcpb.Stream_SECONDARY)
	if c.present != nil {
		c.presentDec = format.NewBoolRLEDecoder(c.present)
	}
	enc := s.footer.GetColumns()[id].GetKind()
	switch node.Kind {
	case orc.Boolean:
		c.boolDec = format.NewBoolRLEDecoder(c.data)
	case orc.Byte, orc.Union:
		c.byteDec = format.NewByteRLEDecoder(c.data)
	case orc.Short, orc.Int, orc.Long, orc.Date:
		c.intDec = format.NewIntRLEv2Decoder(c.data, true)
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		if enc == orcpb.ColumnEncoding_DICTIONARY_V2 {
			c.intDec = format.NewIntRLEv2Decoder(c.data, false)
			// Load the dictionary whole.
			n := int(s.footer.GetColumns()[id].GetDictionarySize())
			lens := make([]int64, n)
			if n > 0 {
				if err := format.NewIntRLEv2Decoder(c.length, false).Next(lens); err != nil {
					t.Fatalf("column %d dictionary lengths: %v", id, err)
				}
			}
			br := format.NewByteReader(f.in(s, id, orcpb.Stream_DICTIONARY_DATA))
			for _, l := range lens {
				b := make([]byte, l)
				if err := br.ReadFull(b); err != nil {
					t.Fatalf("column %d dictionary: %v", id, err)
				}
				c.dict = append(c.dict, string(b))
			}
			for i := 1; i < len(c.dict); i++ {
				if c.dict[i-1] >= c.dict[i] {
					t.Errorf("column %d: dictionary not sorted or not distinct at %d", id, i)
				}
			}
		} else {
			c.lenDec = format.NewIntRLEv2Decoder(c.length, false)
		}
	case orc.Decimal:
		c.secDec = format.NewIntRLEv2Decoder(c.second, true)
	case orc.Timestamp, orc.TimestampInstant:
		c.intDec = format.NewIntRLEv2Decoder(c.data, true)
		c.secDec = format.NewIntRLEv2Decoder(c.second, false)
	case orc.List, orc.Map:
		c.lenDec = format.NewIntRLEv2Decoder(c.length, false)
	}
	return c
}

// seek positions every stream at a row-index entry's positions, in the
// order the specification fixes, and checks that all are consumed.
func (c *colCursor) seek(pos []uint64) (err error) {
	pp := format.NewPositionProvider(pos)
	next := func() int64 {
		v, err := pp.Next()
		if err != nil {
			panic(err)
		}
		return int64(v)
	}
	seekBool := func(in *format.InStream, d *format.BoolRLEDecoder) error {
		if err := in.Seek(pp); err != nil {
			return err
		}
		d.Reset(in)
		n := next()
		return d.SeekTo(n, int(next()))
	}
	seekInt := func(in *format.InStream, d *format.IntRLEv2Decoder) error {
		if err := in.Seek(pp); err != nil {
			return err
		}
		d.Reset(in)
		return d.Skip(next())
	}
	seekRaw := func(in *format.InStream) error {
		if err := in.Seek(pp); err != nil {
			return err
		}
		c.raw.Reset(in)
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%v", r)
		}
	}()
	if c.present != nil {
		if err := seekBool(c.present, c.presentDec); err != nil {
			return fmt.Errorf("PRESENT: %w", err)
		}
	}
	switch c.node.Kind {
	case orc.Boolean:
		err = seekBool(c.data, c.boolDec)
	case orc.Byte, orc.Union:
		if err = c.data.Seek(pp); err == nil {
			c.byteDec.Reset(c.data)
			err = c.byteDec.Skip(next())
		}
	case orc.Short, orc.Int, orc.Long, orc.Date:
		err = seekInt(c.data, c.intDec)
	case orc.Float, orc.Double:
		err = seekRaw(c.data)
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		if c.dict != nil || c.lenDec == nil {
			err = seekInt(c.data, c.intDec)
		} else if err = seekRaw(c.data); err == nil {
			err = seekInt(c.length, c.lenDec)
		}
	case orc.Decimal:
		if err = seekRaw(c.data); err == nil {
			err = seekInt(c.second, c.secDec)
		}
	case orc.Timestamp, orc.TimestampInstant:
		if err = seekInt(c.data, c.intDec); err == nil {
			err = seekInt(c.second, c.secDec)
		}
	case orc.List, orc.Map:
		err = seekInt(c.length, c.lenDec)
	}
	if err == nil && pp.Remaining() != 0 {
		err = fmt.Errorf("%d positions left over", pp.Remaining())
	}
	return err
}

// level returns what a column's own streams say about an item: for lists
// and maps the number of children, for unions the tag, for structs true.
func level(t *orc.Schema, v any) any {
	if v == nil {
		return nil
	}
	switch t.Kind {
	case orc.Struct:
		return true
	case orc.List:
		return int64(len(v.([]any)))
	case orc.Map:
		return int64(len(v.([]testutil.KV)))
	case orc.Union:
		return int64(v.(testutil.U).Tag)
	}
	return v
}

// next decodes the next item at the column's level.
func (c *colCursor) next() (any, error) {
	if c.present != nil {
		var p [1]bool
		if err := c.presentDec.Next(p[:]); err != nil {
			return nil, fmt.Errorf("PRESENT: %w", err)
		}
		if !p[0] {
			return nil, nil
		}
	}
	var one [1]int64
	switch c.node.Kind {
	case orc.Struct:
		return true, nil
	case orc.Boolean:
		var b [1]bool
		err := c.boolDec.Next(b[:])
		return b[0], err
	case orc.Byte, orc.Union:
		var b [1]byte
		err := c.byteDec.Next(b[:])
		if c.node.Kind == orc.Union {
			return int64(b[0]), err
		}
		return int64(int8(b[0])), err
	case orc.Short, orc.Int, orc.Long, orc.Date:
		err := c.intDec.Next(one[:])
		return one[0], err
	case orc.Float:
		var b [4]byte
		err := c.raw.ReadFull(b[:])
		return float64(math.Float32frombits(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24)), err
	case orc.Double:
		var b [8]byte
		err := c.raw.ReadFull(b[:])
		var u uint64
		for i := 7; i >= 0; i-- {
			u = u<<8 | uint64(b[i])
		}
		return math.Float64frombits(u), err
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		if c.dict != nil {
			if err := c.intDec.Next(one[:]); err != nil {
				return nil, err
			}
			if one[0] < 0 || one[0] >= int64(len(c.dict)) {
				return nil, fmt.Errorf("dictionary id %d of %d", one[0], len(c.dict))
			}
			return c.dict[one[0]], nil
		}
		if err := c.lenDec.Next(one[:]); err != nil {
			return nil, err
		}
		b := make([]byte, one[0])
		err := c.raw.ReadFull(b)
		return string(b), err
	case orc.Decimal:
		v, err := c.raw.ReadVarint128()
		if err != nil {
			return nil, err
		}
		if err := c.secDec.Next(one[:]); err != nil {
			return nil, err
		}
		return testutil.Dec{Unscaled: v, Scale: int(one[0])}, nil
	case orc.Timestamp, orc.TimestampInstant:
		if err := c.intDec.Next(one[:]); err != nil {
			return nil, err
		}
		sec := one[0] + epoch2015
		if err := c.secDec.Next(one[:]); err != nil {
			return nil, err
		}
		ns := one[0] >> 3
		if z := one[0] & 7; z != 0 {
			for i := int64(0); i <= z; i++ {
				ns *= 10
			}
		}
		if sec < 0 && ns > 999_999 {
			sec--
		}
		return testutil.TS{Sec: sec, Nanos: int32(ns)}, nil
	case orc.List, orc.Map:
		err := c.lenDec.Next(one[:])
		return one[0], err
	}
	return nil, fmt.Errorf("no decoder for %s", c.node.Kind)
}

// checkIndex seeks to every row group of every column of every stripe, in
// a shuffled order, and decodes the whole group.
func checkIndex(t *testing.T, data []byte, rows []any, r *rand.Rand) (groups int) {
	t.Helper()
	f := parseFile(t, data)
	schema := f.tail.Schema
	stride := int(f.tail.Footer.GetRowIndexStride())
	if stride == 0 {
		t.Fatal("file has no row index")
	}
	flat := testutil.Flatten(schema, rows)
	errs := 0
	for si, s := range f.stripes {
		for _, node := range schema.Columns() {
			id := node.ID()
			ri := f.rowIndex(t, s, id)
			n := (s.rows + stride - 1) / stride
			if len(ri.GetEntry()) != n {
				t.Fatalf("stripe %d column %d: %d row index entries, want %d", si, id, len(ri.GetEntry()), n)
			}
			c := newCursor(t, f, s, node)
			for _, k := range r.Perm(n) {
				groups++
				from, to := s.first+k*stride, min(s.first+(k+1)*stride, s.first+s.rows)
				want := flat.Range(id, from, to)
				pos := ri.GetEntry()[k].GetPositions()
				where := fmt.Sprintf("stripe %d column %d (%s, %s) group %d of %d, positions %v",
					si, id, node, s.footer.GetColumns()[id].GetKind(), k, n, pos)
				if k == 0 {
					for _, p := range pos {
						if p != 0 {
							t.Errorf("%s: first group's positions are not all zero", where)
							break
						}
					}
				}
				if err := c.seek(pos); err != nil {
					t.Errorf("%s: seek: %v", where, err)
					continue
				}
				for j, w := range want {
					got, err := c.next()
					if err != nil {
						t.Errorf("%s: item %d: %v", where, j, err)
						break
					}
					if d := testutil.Diff(level(node, w), got); d != "" {
						t.Errorf("%s: item %d of %d: %s", where, j, len(want), d)
						break
					}
				}
				if t.Failed() {
					if errs++; errs > 5 {
						t.Fatalf("too many errors; schema %s", schema)
					}
				}
			}
		}
	}
	return groups
}

func indexSpec(seed uint64, codec orc.CompressionKind) (*spec, *rand.Rand) {
	r := rand.New(rand.NewPCG(seed, 0x1de))
	var s *orc.Schema
	if seed%4 == 0 {
		s = testutil.AllTypesSchema()
	} else {
		s = testutil.RandomSchema(r, 5, 3)
	}
	stride := 100 + r.IntN(400)
	sp := &spec{schema: s, desc: fmt.Sprintf("%s stride %d", codec, stride), opts: []writer.Option{
		writer.WithCompression(codec), writer.WithRowIndexStride(stride), writer.WithStripeSize(64 << 10),
		writer.WithDictionaryKeyRatio([]float64{0, 0.8, 1}[r.IntN(3)]),
	}}
	if codec != orc.CompressionNone {
		bs := []int{1 << 10, 1<<10 + 3, 8 << 10}[r.IntN(3)]
		sp.opts = append(sp.opts, writer.WithCompressionBlockSize(bs))
		sp.desc += fmt.Sprintf(" block %d", bs)
	}
	if r.IntN(2) == 0 {
		sp.opts = append(sp.opts, writer.WithStripeRowLimit(int64(stride*(2+r.IntN(4))+r.IntN(stride))))
	}
	if seed%2 == 1 {
		// Positions inside runs and chunks (the default layout starts every
		// group on fresh ones).
		sp.opts = append(sp.opts, writer.WithAlignedRowGroups(false))
		sp.desc += " unaligned"
	}
	g := testutil.NewGenerator(r, s)
	generate(sp, g, 500+r.IntN(2500), 700, r)
	return sp, r
}

// TestRowIndexPositions checks the row index of random and all-types files
// with every codec.
func TestRowIndexPositions(t *testing.T) {
	codecs := []orc.CompressionKind{orc.CompressionNone, orc.CompressionZlib, orc.CompressionSnappy, orc.CompressionLZ4, orc.CompressionZstd}
	seeds := 40
	if testing.Short() {
		seeds = 15
	}
	for seed := 0; seed < seeds; seed++ {
		codec := codecs[seed%len(codecs)]
		sp, r := indexSpec(uint64(seed), codec)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			data := write(t, sp)
			checkIndex(t, data, sp.rows, r)
			if t.Failed() {
				t.Logf("schema %s, %s", sp.schema, sp.desc)
			}
		})
	}
}

// TestRowIndexRuns checks positions inside long runs that cross row-group
// boundaries (repeats, sequences, dictionary ids) and at chunk boundaries,
// for each codec, with both string encodings, aligned (runs and chunks
// end at each boundary) and not.
func TestRowIndexRuns(t *testing.T) {
	s := orc.MustParseSchema("struct<rep:bigint,seq:int,b:boolean,t:tinyint,s:string,d:double,ts:timestamp,dec:decimal(10,2),l:array<int>>")
	for _, codec := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionZlib, orc.CompressionSnappy, orc.CompressionLZ4, orc.CompressionZstd} {
		for _, ratio := range []float64{0, 1} {
			for _, aligned := range []bool{true, false} {
				t.Run(fmt.Sprintf("%s/dict=%v/aligned=%v", codec, ratio, aligned), func(t *testing.T) {
					sp := &spec{schema: s, opts: []writer.Option{writer.WithCompression(codec), writer.WithRowIndexStride(100),
						writer.WithDictionaryKeyRatio(ratio), writer.WithCompressionBlockSize(1 << 10), writer.WithStripeRowLimit(1234),
						writer.WithAlignedRowGroups(aligned)}}
					const n = 3000
					b := orc.NewBatch(s, n)
					rep := b.Cols[0].(*orc.LongVector)
					seq := b.Cols[1].(*orc.LongVector)
					bo := b.Cols[2].(*orc.LongVector)
					ti := b.Cols[3].(*orc.LongVector)
					str := b.Cols[4].(*orc.BytesVector)
					dbl := b.Cols[5].(*orc.DoubleVector)
					ts := b.Cols[6].(*orc.TimestampVector)
					dec := b.Cols[7].(*orc.DecimalVector)
					lst := b.Cols[8].(*orc.ListVector)
					lst.Offsets = append(lst.Offsets, 0)
					el := lst.Elem.(*orc.LongVector)
					for i := 0; i < n; i++ {
						rep.Values = append(rep.Values, int64(i/700)) // runs of 700: 7 groups each
						seq.Values = append(seq.Values, int64(i*3))   // one long delta run
						bo.Values = append(bo.Values, int64(i/250%2))
						ti.Values = append(ti.Values, int64(i/130%5))
						str.AppendString(fmt.Sprintf("value %d", i/333))
						dbl.Values = append(dbl.Values, float64(i/50))
						ts.Seconds = append(ts.Seconds, int64(i/400)-3)
						ts.Nanos = append(ts.Nanos, int32(i%7)*1000)
						dec.Values = append(dec.Values, orc.Int128FromInt64(int64(i/90)))
						for j := 0; j < i%3; j++ {
							el.Values = append(el.Values, 42)
						}
						lst.Offsets = append(lst.Offsets, int64(len(el.Values)))
					}
					b.NumRows = n
					// Batches that do not divide the stride.
					for from := 0; from < n; from += 137 {
						sp.batches = append(sp.batches, sliceBatch(s, b, from, min(from+137, n)))
					}
					sp.rows = testutil.Rows(s, b, true)
					data := write(t, sp)
					checkIndex(t, data, sp.rows, rand.New(rand.NewPCG(1, 2)))
				})
			}
		}
	}
}

// sliceBatch copies rows [from, to) of a batch of flat columns (lists of
// primitives allowed).
func sliceBatch(s *orc.Schema, b *orc.Batch, from, to int) *orc.Batch {
	out := orc.NewBatch(s, to-from)
	for i, col := range b.Cols {
		switch v := col.(type) {
		case *orc.LongVector:
			out.Cols[i].(*orc.LongVector).Values = append([]int64(nil), v.Values[from:to]...)
		case *orc.DoubleVector:
			out.Cols[i].(*orc.DoubleVector).Values = append([]float64(nil), v.Values[from:to]...)
		case *orc.BytesVector:
			o := out.Cols[i].(*orc.BytesVector)
			for j := from; j < to; j++ {
				o.Append(v.Get(j))
			}
		case *orc.TimestampVector:
			o := out.Cols[i].(*orc.TimestampVector)
			o.Seconds = append([]int64(nil), v.Seconds[from:to]...)
			o.Nanos = append([]int32(nil), v.Nanos[from:to]...)
		case *orc.DecimalVector:
			o := out.Cols[i].(*orc.DecimalVector)
			o.Values, o.Scale = append([]orc.Int128(nil), v.Values[from:to]...), v.Scale
		case *orc.ListVector:
			o := out.Cols[i].(*orc.ListVector)
			base := v.Offsets[from]
			for j := from; j <= to; j++ {
				o.Offsets = append(o.Offsets, v.Offsets[j]-base)
			}
			o.Elem.(*orc.LongVector).Values = append([]int64(nil), v.Elem.(*orc.LongVector).Values[base:v.Offsets[to]]...)
		default:
			panic(fmt.Sprintf("sliceBatch: %T", col))
		}
	}
	out.NumRows = to - from
	return out
}

// TestRowIndexHeldInts checks the positions of integer columns that get a
// value every few dozen rows, nulls between, so that row groups of 100
// rows start while a column holds a value or two without an encoder of its
// own (heldInts): its positions must count them as an encoder's would,
// when row groups are not aligned, and be the stream's start when they
// are. Values repeat, so that some columns' runs end early.
func TestRowIndexHeldInts(t *testing.T) {
	s := orc.MustParseSchema("struct<a:bigint,b:int,c:smallint,d:date,e:bigint,f:bigint>")
	for _, codec := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd} {
		for _, aligned := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/aligned=%v", codec, aligned), func(t *testing.T) {
				r := rand.New(rand.NewPCG(49, 10))
				sp := &spec{schema: s, opts: []writer.Option{writer.WithCompression(codec),
					writer.WithRowIndexStride(100), writer.WithAlignedRowGroups(aligned), writer.WithStripeRowLimit(700)}}
				const n = 1500
				every := []int{37, 45, 51, 70, 99, 140}
				b := orc.NewBatch(s, n)
				for j, v := range b.Cols {
					lv := v.(*orc.LongVector)
					for i := range n {
						if i%every[j] == 0 {
							lv.Append(int64(r.IntN(3)))
						} else {
							lv.AppendNull()
						}
					}
				}
				b.NumRows = n
				for from := 0; from < n; {
					to := min(from+1+r.IntN(60), n)
					sp.batches = append(sp.batches, sliceNullBatch(s, b, from, to))
					from = to
				}
				sp.rows = testutil.Rows(s, b, true)
				checkIndex(t, write(t, sp), sp.rows, r)
			})
		}
	}
}

// sliceNullBatch copies rows [from, to) of a batch of integer columns,
// nulls included.
func sliceNullBatch(s *orc.Schema, b *orc.Batch, from, to int) *orc.Batch {
	out := orc.NewBatch(s, to-from)
	for i, col := range b.Cols {
		v, o := col.(*orc.LongVector), out.Cols[i].(*orc.LongVector)
		for k := from; k < to; k++ {
			if v.IsNull(k) {
				o.AppendNull()
			} else {
				o.Append(v.Values[k])
			}
		}
	}
	out.NumRows = to - from
	return out
}
