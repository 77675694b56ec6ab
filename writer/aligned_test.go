package writer_test

// Aligned row groups (WithAlignedRowGroups): at every row-index boundary
// each stream's recorded position must be a run start at a chunk start,
// [chunk header, 0, 0] or [offset, 0], except that a boolean stream whose
// values before the boundary are not a multiple of 8 keeps the bits of
// its partial byte. The files are checked chunk by chunk, position by
// position, and then decoded from every row group's positions
// (checkIndex).

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/internal/testutil"
	"github.com/orcgo/orc/rowindex"
	"github.com/orcgo/orc/writer"
)

// alignCodecs are the codecs the writer supports (LZO is read only).
var alignCodecs = []orc.CompressionKind{orc.CompressionNone, orc.CompressionZlib, orc.CompressionSnappy,
	orc.CompressionZstd, orc.CompressionLZ4}

// chunkStarts walks a stored stream's chunks, checking each header (length
// within the block size, payload decompressing to at most a block), and
// returns the offsets of their headers.
func chunkStarts(t *testing.T, f *file, what string, b []byte) map[uint64]bool {
	t.Helper()
	starts := map[uint64]bool{}
	bs := f.tail.BlockSize
	for off := 0; off < len(b); {
		if len(b)-off < 3 {
			t.Fatalf("%s: %d bytes left at %d, too few for a chunk header", what, len(b)-off, off)
		}
		h := int(b[off]) | int(b[off+1])<<8 | int(b[off+2])<<16
		n, orig := h>>1, h&1 == 1
		if n > bs || off+3+n > len(b) {
			t.Fatalf("%s: chunk at %d of %d bytes (block %d, stream %d)", what, off, n, bs, len(b))
		}
		if !orig {
			out, err := f.dec.Decompress(nil, b[off+3:off+3+n])
			if err != nil || len(out) > bs {
				t.Fatalf("%s: chunk at %d: %d bytes, %v", what, off, len(out), err)
			}
		}
		starts[uint64(off)] = true
		off += 3 + n
	}
	return starts
}

// checkAlignment checks every position of every row index of the file and
// returns how many stream positions are not aligned; with strict, each is
// an error.
func checkAlignment(t *testing.T, data []byte, rows []any, strict bool) (positions, unaligned int) {
	t.Helper()
	f := parseFile(t, data)
	schema := f.tail.Schema
	stride := int(f.tail.Footer.GetRowIndexStride())
	compressed := f.tail.Compression != orc.CompressionNone
	flat := testutil.Flatten(schema, rows)
	errs := 0
	for si, s := range f.stripes {
		starts := map[streamKey]map[uint64]bool{}
		if compressed {
			for k, b := range s.streams {
				starts[k] = chunkStarts(t, f, fmt.Sprintf("stripe %d column %d %v", si, k.col, k.kind), b)
			}
		}
		for _, node := range schema.Columns() {
			id := node.ID()
			enc := s.footer.GetColumns()[id].GetKind()
			_, hasPresent := s.streams[streamKey{id, orcpb.Stream_PRESENT}]
			layout := rowindex.Layout(node, enc, hasPresent, compressed, false)
			// items: the column's items (nulls included) before each group
			// of the stripe; values: its non-null ones.
			items, values := 0, 0
			for g, e := range f.rowIndex(t, s, id).GetEntry() {
				parts, err := rowindex.Split(e.GetPositions(), layout)
				if err != nil {
					t.Fatalf("stripe %d column %d group %d: %v", si, id, g, err)
				}
				for j, slot := range layout {
					p := parts[j]
					positions++
					key := streamKey{id, slot.Kind}
					isBool := slot.Kind == orcpb.Stream_PRESENT || node.Kind == orc.Boolean
					var why []string
					rest := p[1:]
					if compressed {
						if !starts[key][p[0]] && p[0] != uint64(len(s.streams[key])) {
							why = append(why, fmt.Sprintf("offset %d is not a chunk header", p[0]))
						}
						if p[1] != 0 {
							why = append(why, fmt.Sprintf("%d bytes into the chunk", p[1]))
						}
						rest = p[2:]
					}
					if isBool {
						n := values
						if slot.Kind == orcpb.Stream_PRESENT {
							n = items
						}
						if rest[0] != 0 {
							why = append(why, fmt.Sprintf("%d bytes held", rest[0]))
						}
						if rest[1] != uint64(n%8) {
							why = append(why, fmt.Sprintf("%d bits after %d values", rest[1], n))
						}
					} else if len(rest) == 1 && rest[0] != 0 {
						why = append(why, fmt.Sprintf("%d values held", rest[0]))
					}
					if why != nil {
						unaligned++
						if strict {
							t.Errorf("stripe %d column %d (%s, %v) group %d: %v position %v: %s",
								si, id, node, enc, g, slot.Kind, p, strings.Join(why, ", "))
							if errs++; errs > 10 {
								t.FailNow()
							}
						}
					}
				}
				from, to := s.first+g*stride, min(s.first+(g+1)*stride, s.first+s.rows)
				for _, v := range flat.Range(id, from, to) {
					items++
					if v != nil {
						values++
					}
				}
			}
		}
	}
	return positions, unaligned
}

// alignEdgeSchema has the cases the generator may miss: long direct and
// short dictionary strings, whole row groups of nulls, structs null for a
// whole group (their fields get empty groups), empty lists, a boolean under
// a nullable struct (group value counts that are not multiples of 8), a
// column whose first null comes in a stripe's fourth group (its PRESENT
// bits are held back until then).
const alignEdgeSchema = "struct<b:boolean,n:int,long:string,dict:string,s:struct<x:bigint,y:string,z:boolean>," +
	"l:array<double>,dec:decimal(20,4),ts:timestamp,u:uniontype<int,string>,t:tinyint,late:bigint>"

// alignEdgeBatch returns rows [from, to) of the edge-case table.
func alignEdgeBatch(s *orc.Schema, from, to int) *orc.Batch {
	n := to - from
	b := orc.NewBatch(s, n)
	b.NumRows = n
	group := func(i int) int { return i / 1000 }
	bo := b.Cols[0].(*orc.LongVector)
	iv := b.Cols[1].(*orc.LongVector)
	long := b.Cols[2].(*orc.BytesVector)
	dict := b.Cols[3].(*orc.BytesVector)
	st := b.Cols[4].(*orc.StructVector)
	sx, sy, sz := st.Fields[0].(*orc.LongVector), st.Fields[1].(*orc.BytesVector), st.Fields[2].(*orc.LongVector)
	lv := b.Cols[5].(*orc.ListVector)
	le := lv.Elem.(*orc.DoubleVector)
	dec := b.Cols[6].(*orc.DecimalVector)
	ts := b.Cols[7].(*orc.TimestampVector)
	un := b.Cols[8].(*orc.UnionVector)
	ui, us := un.Children[0].(*orc.LongVector), un.Children[1].(*orc.BytesVector)
	ti := b.Cols[9].(*orc.LongVector)
	late := b.Cols[10].(*orc.LongVector)
	late.Nulls.Nulls = make([]bool, n)
	iv.Nulls.Nulls = make([]bool, n)
	st.Nulls.Nulls = make([]bool, n)
	sz.Nulls.Nulls = make([]bool, n)
	st.N = n
	lv.Offsets = []int64{0}
	dec.Scale = 4
	for k := 0; k < n; k++ {
		i := from + k
		g := group(i)
		bo.Values = append(bo.Values, int64(i/3%2))
		iv.Values = append(iv.Values, int64(i%50))
		iv.Nulls.Nulls[k] = g == 2 || g == 3 || i%11 == 0 // groups 2 and 3 all null
		long.AppendString(strings.Repeat(string(rune('a'+i%26)), 1030+i%40) + fmt.Sprint(i))
		dict.AppendString(fmt.Sprintf("k%d", i%13))
		st.Nulls.Nulls[k] = g == 4 || i%7 == 0 // group 4: fields get no values
		sx.Values = append(sx.Values, int64(i)*1_000_003)
		sy.AppendString(fmt.Sprint("y", i%300))
		sz.Values = append(sz.Values, int64(min(i%5/2, 1))) // stored as before: 2 was written as true
		sz.Nulls.Nulls[k] = i%9 == 0
		elems := i % 4
		if g == 5 {
			elems = 0 // a group of empty lists
		}
		for j := 0; j < elems; j++ {
			le.Values = append(le.Values, float64(i)+float64(j)/4)
		}
		lv.Offsets = append(lv.Offsets, int64(len(le.Values)))
		dec.Values = append(dec.Values, orc.Int128FromInt64(int64(i)*int64(i)-5_000_000))
		ts.Seconds = append(ts.Seconds, 1_700_000_000+int64(i)*37)
		ts.Nanos = append(ts.Nanos, int32(i%1000)*1000)
		tag := uint8(i % 3 % 2)
		un.Tags = append(un.Tags, tag)
		ui.Values = append(ui.Values, int64(i))
		us.AppendString(fmt.Sprint("u", i))
		ti.Values = append(ti.Values, int64(int8(i/7)))
		late.Values = append(late.Values, int64(i/100))
		late.Nulls.Nulls[k] = i%6000 >= 3500 && i%13 == 0 // stripe 0 only, from group 3
	}
	return b
}

// alignFiles returns the files of the test for one codec and alignment:
// the generator's all-types table and the edge-case table, each over
// several stripes with a stride of 1,000 and blocks of a few KiB.
func alignFiles(codec orc.CompressionKind, aligned bool) []*spec {
	base := []writer.Option{writer.WithCompression(codec), writer.WithRowIndexStride(1000),
		writer.WithCompressionBlockSize(2 << 10), writer.WithAlignedRowGroups(aligned)}
	var out []*spec

	s := testutil.AllTypesSchema()
	r := rand.New(rand.NewPCG(7, uint64(codec)))
	sp := &spec{schema: s, desc: "all types", opts: append(append([]writer.Option(nil), base...),
		writer.WithStripeRowLimit(2500), writer.WithDictionaryKeyRatio(0.8))}
	generate(sp, testutil.NewGenerator(r, s), 4300, 1500, r)
	out = append(out, sp)

	e := orc.MustParseSchema(alignEdgeSchema)
	ep := &spec{schema: e, desc: "edge cases", opts: append(append([]writer.Option(nil), base...),
		writer.WithStripeRowLimit(6000), writer.WithDictionaryKeyRatio(0.5))}
	const rows = 7337 // a last group of 337 rows in each stripe's end
	for from := 0; from < rows; from += 900 {
		b := alignEdgeBatch(e, from, min(from+900, rows))
		ep.batches = append(ep.batches, b)
		ep.rows = append(ep.rows, testutil.Rows(e, b, true)...)
	}
	out = append(out, ep)
	return out
}

func TestAlignedRowGroups(t *testing.T) {
	for _, codec := range alignCodecs {
		t.Run(codec.String(), func(t *testing.T) {
			for _, sp := range alignFiles(codec, true) {
				data := write(t, sp)
				n, bad := checkAlignment(t, data, sp.rows, true)
				if n < 100 {
					t.Errorf("%s: only %d positions checked", sp.desc, n)
				}
				if bad > 0 {
					t.Errorf("%s: %d of %d positions not aligned", sp.desc, bad, n)
				}
				checkIndex(t, data, sp.rows, rand.New(rand.NewPCG(3, 4)))
			}
			// Off, the positions fall inside runs and chunks.
			for _, sp := range alignFiles(codec, false) {
				data := write(t, sp)
				n, bad := checkAlignment(t, data, sp.rows, false)
				if bad == 0 {
					t.Errorf("%s, WithAlignedRowGroups(false): all %d positions aligned", sp.desc, n)
				}
				checkIndex(t, data, sp.rows, rand.New(rand.NewPCG(3, 4)))
			}
		})
	}
}

// TestAlignedEncodings checks that the edge-case file has what the test is
// about: dictionary and direct strings in the same stripe, a PRESENT
// stream on the columns with nulls, and several chunks per row group.
func TestAlignedEncodings(t *testing.T) {
	sp := alignFiles(orc.CompressionZstd, true)[1]
	f := parseFile(t, write(t, sp))
	s := f.stripes[0]
	cols := s.footer.GetColumns()
	if k := cols[3].GetKind(); k != orcpb.ColumnEncoding_DIRECT_V2 {
		t.Errorf("long strings: %v, want DIRECT_V2", k)
	}
	if k := cols[4].GetKind(); k != orcpb.ColumnEncoding_DICTIONARY_V2 {
		t.Errorf("dict strings: %v, want DICTIONARY_V2", k)
	}
	for _, id := range []int{2, 5, 8, 17} { // n, s, s.z, late
		if _, ok := s.streams[streamKey{id, orcpb.Stream_PRESENT}]; !ok {
			t.Errorf("column %d has no PRESENT stream", id)
		}
	}
	long := s.streams[streamKey{3, orcpb.Stream_DATA}]
	if chunks := len(chunkStarts(t, f, "long DATA", long)); chunks < 3*s.rows/1000 {
		t.Errorf("long strings DATA: %d chunks for %d rows", chunks, s.rows)
	}
}
