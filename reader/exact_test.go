package reader_test

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/rowindex"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// recordingReaderAt keeps every ReadAt's range.
type recordingReaderAt struct {
	r     *bytes.Reader
	mu    sync.Mutex
	reads [][2]int64
}

func (r *recordingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	r.mu.Lock()
	r.reads = append(r.reads, [2]int64{off, off + int64(len(p))})
	r.mu.Unlock()
	return r.r.ReadAt(p, off)
}

// span is a byte range of the file allowed to be read, and why.
type span struct {
	start, end int64
	what       string
}

// TestAlignedReadsExact proves that a pruned scan of an aligned file reads
// no byte outside its kept row groups, except the index streams, stripe
// footers and file tail, the dictionaries, and for boolean streams whose
// groups end inside a byte the one chunk holding that byte. The allowed
// bytes come from the row index positions alone: a kept group's bytes in a
// stream run from its position to the next group's. Reads are not merged
// across gaps (WithCoalesceGap(0)): merging is the one deliberate reading of
// unneeded bytes, to save requests.
func TestAlignedReadsExact(t *testing.T) {
	schema := orc.MustParseSchema("struct<k:bigint,s:string,d:string,x:double,m:decimal(12,2),ts:timestamp,b:boolean,l:array<int>,st:struct<a:int,c:string>>")
	const n = 23000
	rng := rand.New(rand.NewPCG(5, 6))
	rows := make([][]any, n)
	for i := range rows {
		var b any
		if i%7 != 0 {
			b = rng.IntN(2) == 0
		}
		s := fmt.Sprintf("%08x", rng.Uint64())
		if i%900 == 0 {
			s = strings.Repeat(s, 200) // over 1,024 bytes
		}
		var l []any
		for range rng.IntN(4) {
			l = append(l, int64(rng.IntN(1000)))
		}
		var st any
		if i%5 != 0 {
			var a any
			if i%3 != 0 {
				a = int64(i)
			}
			st = []any{a, fmt.Sprint(i % 17)}
		}
		rows[i] = []any{int64(i), s, fmt.Sprint("v", i%10), rng.Float64(), orc.Int128{Lo: uint64(rng.IntN(1e6))},
			sdTS{Sec: int64(1.6e9) + int64(i), Nanos: int32(i % 1000 * 1000)}, b, l, st}
	}
	for _, codec := range []orc.CompressionKind{orc.CompressionNone, orc.CompressionZstd, orc.CompressionSnappy} {
		var batches []*orc.Batch
		for start := 0; start < n; start += 1500 {
			k := min(1500, n-start)
			b := orc.NewBatch(schema, k)
			for _, row := range rows[start : start+k] {
				for c, v := range row {
					sdAppend(schema.Children[c], b.Cols[c], v)
				}
			}
			b.NumRows = k
			batches = append(batches, b)
		}
		_, data := writeOpen(t, schema, batches, writer.WithCompression(codec), writer.WithRowIndexStride(1000),
			writer.WithStripeRowLimit(9000), writer.WithCompressionBlockSize(8<<10))
		rec := &recordingReaderAt{r: bytes.NewReader(data)}
		r, err := reader.Open(rec, int64(len(data)))
		if err != nil {
			t.Fatal(err)
		}
		if len(r.Stripes()) != 3 {
			t.Fatalf("%d stripes, want 3", len(r.Stripes()))
		}
		for _, c := range []struct {
			where  string
			ranges [][2]int64 // k ranges, inclusive
		}{
			{"k BETWEEN 2500 AND 3700", [][2]int64{{2500, 3700}}},
			{"k BETWEEN 12100 AND 12200 OR k BETWEEN 15000 AND 15999 OR k = 22999", [][2]int64{{12100, 12200}, {15000, 15999}, {22999, 22999}}},
			{"k = 8999 OR k = 9000", [][2]int64{{8999, 9000}}},
		} {
			for _, v := range []struct {
				exact  bool
				window int64
			}{{false, 1 << 20}, {true, 1 << 20}, {false, 4 << 10}, {true, 4 << 10}} {
				exact := v.exact
				name := fmt.Sprintf("%v/%s/exact=%v/window=%d", codec, c.where, exact, v.window)
				allowed, groupsRead := allowedSpans(t, r, data, c.ranges)
				e, err := sarg.Parse(c.where)
				if err != nil {
					t.Fatal(err)
				}
				rec.mu.Lock()
				rec.reads = nil
				rec.mu.Unlock()
				br, err := r.NewBatchReader(reader.WithSearchArgument(e), reader.WithExactFilter(exact), reader.WithReadWindow(v.window), reader.WithCoalesceGap(0))
				if err != nil {
					t.Fatal(err)
				}
				b := br.NewBatch()
				got := 0
				for {
					if err := br.Next(b); err == io.EOF {
						break
					} else if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					got += b.NumRows
				}
				st := br.Stats()
				br.Close()
				want := 0
				for _, rg := range c.ranges {
					want += int(rg[1] - rg[0] + 1)
				}
				if !exact {
					want = groupsRead * 1000
				}
				if got != want || st.UnplannedReads != 0 {
					t.Errorf("%s: %d rows, want %d; %d unplanned reads", name, got, want, st.UnplannedReads)
				}
				checkReads(t, name, rec.reads, allowed)
			}
		}
	}
}

// allowedSpans returns the bytes a scan for rows with k in ranges may read,
// and the number of row groups holding such rows (k is the row number).
func allowedSpans(t *testing.T, r *reader.Reader, data []byte, ranges [][2]int64) ([]span, int) {
	t.Helper()
	var out []span
	kept := 0
	last := int64(0)
	first := int64(0)
	stride := int64(r.RowIndexStride())
	compressed := r.Compression() != orc.CompressionNone
	for i, info := range r.Stripes() {
		d, err := r.StripeDetail(i)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, span{info.Offset, info.Offset + info.IndexLength, "index streams"},
			span{info.Offset + info.IndexLength + info.DataLength, info.Offset + info.Length(), "stripe footer"})
		last = info.Offset + info.Length()
		groups := int((info.NumRows + stride - 1) / stride)
		keep := make([]bool, groups)
		for g := range keep {
			lo, hi := first+int64(g)*stride, min(first+int64(g+1)*stride, first+info.NumRows)-1
			for _, rg := range ranges {
				if rg[0] <= hi && rg[1] >= lo {
					keep[g] = true
				}
			}
			if keep[g] {
				kept++
			}
		}
		first += info.NumRows
		ix := rowIndexes(t, r, data, i)
		cols := r.Schema().Columns()
		for _, s := range d.Streams {
			kind := orcpb.Stream_Kind(orcpb.Stream_Kind_value[s.Kind])
			switch kind {
			case orcpb.Stream_ROW_INDEX, orcpb.Stream_BLOOM_FILTER, orcpb.Stream_BLOOM_FILTER_UTF8:
				continue
			}
			enc := orcpb.ColumnEncoding_Kind(orcpb.ColumnEncoding_Kind_value[d.Encodings[s.Column].Kind])
			hasPresent := false
			for _, o := range d.Streams {
				hasPresent = hasPresent || o.Column == s.Column && o.Kind == "PRESENT"
			}
			layout := rowindex.Layout(cols[s.Column], enc, hasPresent, compressed, false)
			slot := -1
			for k, sl := range layout {
				if sl.Kind == kind {
					slot = k
				}
			}
			what := fmt.Sprintf("stripe %d column %d %s", i, s.Column, s.Kind)
			if slot < 0 {
				out = append(out, span{s.Offset, s.Offset + s.Length, what + " (no positions: read whole)"})
				continue
			}
			si, err := rowindex.NewStreamIndex(uint64(s.Length), ix[s.Column].GetEntry(), layout, slot, compressed, r.CompressionBlockSize())
			if err != nil {
				t.Fatal(err)
			}
			bool := layout[slot].Count-map[bool]int{true: 1, false: 0}[compressed] == 3
			for g := 0; g < groups; g++ {
				if g > 0 && !si.Aligned(g) && !(bool && si.Carry[g] > 0 && si.Offsets[g] == 0) {
					t.Fatalf("%s: group %d is not aligned: start %d offset %d carry %d", what, g, si.Starts[g], si.Offsets[g], si.Carry[g])
				}
				if !keep[g] {
					continue
				}
				end := s.Length
				if g+1 < groups {
					end = int64(si.Starts[g+1])
				}
				out = append(out, span{s.Offset + int64(si.Starts[g]), s.Offset + end, fmt.Sprintf("%s group %d", what, g)})
				if g+1 < groups && si.Carry[g+1] > 0 {
					// The boolean slop: the chunk holding the split byte.
					slop := s.Length
					for h := g + 2; h < groups; h++ {
						if int64(si.Starts[h]) > end {
							slop = int64(si.Starts[h])
							break
						}
					}
					if !compressed {
						slop = end + 2
					}
					out = append(out, span{s.Offset + end, s.Offset + slop, fmt.Sprintf("%s group %d boolean slop", what, g)})
				}
			}
		}
	}
	out = append(out, span{last, int64(len(data)), "file tail"})
	return out, kept
}

// checkReads fails for every byte read outside the allowed spans.
func checkReads(t *testing.T, name string, reads [][2]int64, allowed []span) {
	t.Helper()
	sort.Slice(allowed, func(i, j int) bool { return allowed[i].start < allowed[j].start })
	for _, rd := range reads {
		pos := rd[0]
		for pos < rd[1] {
			advanced := false
			for _, a := range allowed {
				if a.start <= pos && pos < a.end {
					pos = a.end
					advanced = true
				}
			}
			if !advanced {
				next := rd[1]
				for _, a := range allowed {
					if a.start > pos && a.start < next {
						next = a.start
					}
				}
				t.Errorf("%s: read [%d, %d) takes bytes [%d, %d) outside kept groups, indexes and dictionaries (next allowed: %s)",
					name, rd[0], rd[1], pos, next, nextSpan(allowed, pos))
				break
			}
		}
	}
}

func nextSpan(allowed []span, pos int64) string {
	for _, a := range allowed {
		if a.start >= pos {
			return fmt.Sprintf("%s at %d", a.what, a.start)
		}
	}
	return "none"
}
