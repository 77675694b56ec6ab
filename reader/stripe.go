package reader

// Stripe layout, as this file reads it:
//
//	offset | index streams (indexLength) | data streams (dataLength) | StripeFooter (footerLength)
//
// The StripeFooter lists every stream's kind, column and length, and each
// column's encoding. Offsets are implicit: index-area streams (ROW_INDEX,
// BLOOM_FILTER, BLOOM_FILTER_UTF8) follow one another from the stripe offset
// in list order, data-area streams from offset+indexLength, as Java ORC
// computes them (C++ sums in list order; the two agree whenever writers list
// index streams first, as all do).

import (
	"cmp"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"sort"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// streamKey names a stream within a stripe.
type streamKey struct {
	column int
	kind   orcpb.Stream_Kind
}

// streamLoc is where a stream lies in the file.
type streamLoc struct {
	offset int64
	length int64
}

// stripeMeta is a stripe's footer with its streams located, kept compact:
// a stripe of 100,000 columns lists 100,000 encodings and 100,000 to
// 300,000 streams, which as protobuf messages and a map cost about 170
// bytes a stream; here they take 24 bytes a stream and encoding, and 8 a
// column for the lookup.
type stripeMeta struct {
	index int
	info  StripeInfo
	zone  string // the writer's time zone, or ""
	// list holds the streams in footer order; byCol indexes list by
	// column, list order kept within a column, the column's entries
	// being byCol[colStart[col]:colStart[col+1]].
	list      []stripeStream
	byCol     []int32
	colStart  []int32
	encodings []colEncoding
}

// stripeStream is one stream of a stripe footer, located.
type stripeStream struct {
	offset, length int64
	column         uint32
	kind           orcpb.Stream_Kind
}

func (s *stripeStream) key() streamKey { return streamKey{int(s.column), s.kind} }
func (s *stripeStream) loc() streamLoc { return streamLoc{s.offset, s.length} }

// colEncoding is one column's encoding in a stripe.
type colEncoding struct {
	kind     orcpb.ColumnEncoding_Kind
	dictSize uint32
	bloom    uint32 // bloom_encoding
}

// newStripeMeta makes the metadata of stripe index of a file of ncols
// columns from its streams, in footer order and naming columns below
// ncols, and its encodings.
func newStripeMeta(index int, info StripeInfo, zone string, ncols int, list []stripeStream, encodings []colEncoding) *stripeMeta {
	m := &stripeMeta{index: index, info: info, zone: zone, list: list, encodings: encodings,
		byCol: make([]int32, len(list)), colStart: make([]int32, ncols+1)}
	// A counting sort by column, stable.
	for i := range list {
		m.colStart[list[i].column+1]++
	}
	for c := 1; c <= ncols; c++ {
		m.colStart[c] += m.colStart[c-1]
	}
	next := make([]int32, ncols)
	copy(next, m.colStart[:ncols])
	for i := range list {
		c := list[i].column
		m.byCol[next[c]] = int32(i)
		next[c]++
	}
	return m
}

// stream returns where column col's stream of kind lies; when the footer
// lists it more than once, the last one counts.
func (m *stripeMeta) stream(col int, kind orcpb.Stream_Kind) (streamLoc, bool) {
	if col < 0 || col+1 >= len(m.colStart) {
		return streamLoc{}, false
	}
	for j := m.colStart[col+1] - 1; j >= m.colStart[col]; j-- {
		if s := &m.list[m.byCol[j]]; s.kind == kind {
			return s.loc(), true
		}
	}
	return streamLoc{}, false
}

// has reports whether column col has a stream of kind.
func (m *stripeMeta) has(col int, kind orcpb.Stream_Kind) bool {
	_, ok := m.stream(col, kind)
	return ok
}

// columnStreams returns the indexes in m.list of column col's streams, in
// footer order.
func (m *stripeMeta) columnStreams(col int) []int32 {
	if col < 0 || col+1 >= len(m.colStart) {
		return nil
	}
	return m.byCol[m.colStart[col]:m.colStart[col+1]]
}

func isIndexStream(k orcpb.Stream_Kind) bool {
	return k == orcpb.Stream_ROW_INDEX || k == orcpb.Stream_BLOOM_FILTER || k == orcpb.Stream_BLOOM_FILTER_UTF8
}

func (r *Reader) corrupt(stripe, column int, offset int64, stream, format string, args ...any) error {
	return &orc.CorruptError{Offset: offset, Stripe: stripe, Column: column, Stream: stream, Msg: fmt.Sprintf(format, args...)}
}

// readStripeMeta reads and checks stripe i's footer from src (the file, or
// a scan's scheduler), decoding it straight into the compact table.
func (r *Reader) readStripeMeta(src io.ReaderAt, i int) (*stripeMeta, error) {
	info, footerOff, data, err := r.stripeFooterBytes(src, i)
	if err != nil {
		return nil, err
	}
	nstreams, nenc, err := checkStripeFooter(data)
	if err != nil {
		return nil, &orc.CorruptError{Offset: footerOff, Stripe: i, Column: -1, Stream: "stripe footer", Msg: "stripe footer does not parse", Err: err}
	}
	if err := r.checkEncodings(i, footerOff, nenc); err != nil {
		return nil, err
	}
	list := make([]stripeStream, 0, nstreams)
	encs := make([]colEncoding, 0, nenc)
	var zone string
	place := r.newStreamPlacer(i, info)
	err = walkStripeFooter(data, func(s stripeStream) error {
		off, err := place.next(s.kind, s.column, uint64(s.length))
		if err != nil {
			return err
		}
		s.offset = off
		list = append(list, s)
		return nil
	}, func(e colEncoding) { encs = append(encs, e) }, func(z string) { zone = z })
	if err != nil {
		return nil, err
	}
	return newStripeMeta(i, info, zone, r.tail.Schema.MaxID()+1, list, encs), nil
}

// checkStripeFooter checks that a stripe footer parses as proto.Unmarshal
// would parse it, and counts its streams and encodings.
func checkStripeFooter(data []byte) (nstreams, nenc int, err error) {
	nop := func(protowire.Number, uint64) {}
	err = walkMessage(data, func(num protowire.Number, typ protowire.Type, v []byte) error {
		if typ != protowire.BytesType {
			return nil
		}
		switch num {
		case stripeFooterStreams:
			nstreams++
			return walkVarints(v, nop)
		case stripeFooterColumns:
			nenc++
			return walkVarints(v, nop)
		case stripeFooterEncryption:
			// Not used by a scan, but checked as a whole parse would.
			var ev orcpb.StripeEncryptionVariant
			return proto.Unmarshal(v, &ev)
		}
		return nil
	})
	return nstreams, nenc, err
}

// walkStripeFooter calls stream with each stream of a stripe footer that
// checkStripeFooter accepted (unlocated: offset 0), in footer order, enc
// with each column encoding, and zone with the writer's time zone when it
// is set. The fields are decoded as proto.Unmarshal decodes them: the last
// of a repeated scalar counts, varints are truncated to the field's width,
// a field of an unexpected wire type is ignored.
func walkStripeFooter(data []byte, stream func(stripeStream) error, enc func(colEncoding), zone func(string)) error {
	return walkMessage(data, func(num protowire.Number, typ protowire.Type, v []byte) error {
		if typ != protowire.BytesType {
			return nil
		}
		switch num {
		case stripeFooterStreams:
			var kind, column, length uint64
			if err := walkVarints(v, func(num protowire.Number, x uint64) {
				switch num {
				case 1:
					kind = x
				case 2:
					column = x
				case 3:
					length = x
				}
			}); err != nil {
				return err
			}
			return stream(stripeStream{length: int64(length), column: uint32(column), kind: orcpb.Stream_Kind(int32(kind))})
		case stripeFooterColumns:
			var e colEncoding
			if err := walkVarints(v, func(num protowire.Number, x uint64) {
				switch num {
				case 1:
					e.kind = orcpb.ColumnEncoding_Kind(int32(x))
				case 2:
					e.dictSize = uint32(x)
				case 3:
					e.bloom = uint32(x)
				}
			}); err != nil {
				return err
			}
			enc(e)
		case stripeFooterZone:
			zone(string(v))
		}
		return nil
	})
}

// walkVarints calls fn with each varint field of the message b, checking
// that every field parses.
func walkVarints(b []byte, fn func(num protowire.Number, x uint64)) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if typ == protowire.VarintType {
			var x uint64
			if x, n = protowire.ConsumeVarint(b); n >= 0 {
				fn(num, x)
			}
		} else {
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
	}
	return nil
}

// footerAtHand reports whether stripe i's footer bytes are held (Open read
// them with the tail).
func (r *Reader) footerAtHand(i int) bool {
	return r.lastFooter != nil && i == len(r.tail.Footer.GetStripes())-1
}

// stripeFooterBytes reads stripe i's footer from src and decompresses it.
func (r *Reader) stripeFooterBytes(src io.ReaderAt, i int) (info StripeInfo, footerOff int64, data []byte, err error) {
	info = stripeInfo(i, r.tail.Footer.GetStripes()[i])
	footerOff = info.Offset + info.IndexLength + info.DataLength
	if info.FooterLength > r.cfg.maxStripeFooter {
		return info, footerOff, nil, fmt.Errorf("%w: stripe %d footer of %d bytes exceeds the limit of %d", orc.ErrLimit, i, info.FooterLength, r.cfg.maxStripeFooter)
	}
	raw := r.lastFooter // read only below
	if !r.footerAtHand(i) {
		raw = make([]byte, info.FooterLength)
		if err := readFull(src, raw, footerOff); err != nil {
			return info, footerOff, nil, orc.WithLocation(err, footerOff, i, -1, "stripe footer")
		}
	}
	data = raw
	if r.tail.Compression != orc.CompressionNone {
		// A decoder per footer cost more than the footer itself (ZSTD's
		// tables): stripes take turns with a few.
		dec, _ := r.footerDecs.Get().(format.Decompressor)
		if dec == nil {
			if dec, err = format.NewDecompressor(r.tail.Compression); err != nil {
				return info, footerOff, nil, err
			}
		}
		in := format.NewInStream(format.StreamInfo{Name: "stripe footer", FileOffset: footerOff, Stripe: i, Column: -1,
			Length: uint64(len(raw))}, raw, r.tail.Compression, r.tail.BlockSize, dec)
		data, err = format.ReadAll(in, r.cfg.maxStripeFooter)
		r.footerDecs.Put(dec)
		if err != nil {
			return info, footerOff, nil, err
		}
	}
	return info, footerOff, data, nil
}

// checkEncodings checks that stripe i's footer, at footerOff, lists n
// column encodings: one per column (fewer when columns are encrypted).
func (r *Reader) checkEncodings(i int, footerOff int64, n int) error {
	ncols := r.tail.Schema.MaxID() + 1
	if n < ncols && !r.hasEncryption() || n == 0 {
		return r.corrupt(i, -1, footerOff, "stripe footer", "stripe footer has %d column encodings for %d columns", n, ncols)
	}
	return nil
}

// streamPlacer gives a stripe's streams their offsets, in list order (see
// the file comment), checking each against its area and column.
type streamPlacer struct {
	r                *Reader
	stripe, ncols    int
	idxOff, idxEnd   int64
	dataOff, dataEnd int64
}

func (r *Reader) newStreamPlacer(i int, info StripeInfo) streamPlacer {
	footerOff := info.Offset + info.IndexLength + info.DataLength
	return streamPlacer{r: r, stripe: i, ncols: r.tail.Schema.MaxID() + 1,
		idxOff: info.Offset, idxEnd: info.Offset + info.IndexLength,
		dataOff: info.Offset + info.IndexLength, dataEnd: footerOff}
}

// next returns the offset of the next stream, of kind and column col and n
// bytes long.
func (p *streamPlacer) next(kind orcpb.Stream_Kind, column uint32, n uint64) (int64, error) {
	col := int(column)
	var off int64
	if isIndexStream(kind) {
		off = p.idxOff
		if n > uint64(p.idxEnd-p.idxOff) {
			return 0, p.r.corrupt(p.stripe, col, p.idxOff, kind.String(), "stream of %d bytes overruns the index area ending at %d", n, p.idxEnd)
		}
		p.idxOff += int64(n)
	} else {
		off = p.dataOff
		if n > uint64(p.dataEnd-p.dataOff) {
			return 0, p.r.corrupt(p.stripe, col, p.dataOff, kind.String(), "stream of %d bytes overruns the data area ending at %d", n, p.dataEnd)
		}
		p.dataOff += int64(n)
	}
	if col >= p.ncols {
		return 0, p.r.corrupt(p.stripe, col, off, kind.String(), "stream names column %d of %d", col, p.ncols)
	}
	return off, nil
}

func (r *Reader) hasEncryption() bool { return r.tail.Footer.GetEncryption() != nil }

// encoding returns column col's encoding in the stripe.
func (m *stripeMeta) encoding(col int) (orcpb.ColumnEncoding_Kind, colEncoding, error) {
	if col >= len(m.encodings) {
		return 0, colEncoding{}, &orc.CorruptError{Offset: -1, Stripe: m.index, Column: col, Stream: "stripe footer",
			Msg: fmt.Sprintf("no encoding for column %d (%d listed)", col, len(m.encodings))}
	}
	e := m.encodings[col]
	return e.kind, e, nil
}

// ioRange is one ReadAt of a stripe plan.
type ioRange struct {
	offset int64
	length int64
}

// coalesce merges ranges whose gaps are at most gap bytes.
func coalesce(locs []streamLoc, gap int64) []ioRange { return coalesceMax(locs, gap, 0) }

// coalesceMax is coalesce with reads of at most maxLen bytes (0: no limit),
// unless one range alone is longer. Both sort locs in place (a stripe of
// 100,000 columns would copy 3 MB to sort for each of its runs).
func coalesceMax(locs []streamLoc, gap, maxLen int64) []ioRange {
	if len(locs) == 0 {
		return nil
	}
	sorted := locs
	slices.SortFunc(sorted, func(a, b streamLoc) int { return cmp.Compare(a.offset, b.offset) })
	var out []ioRange
	cur := ioRange(sorted[0])
	for _, l := range sorted[1:] {
		if l.length == 0 {
			continue
		}
		end := max(l.offset+l.length, cur.offset+cur.length)
		if l.offset <= cur.offset+cur.length+gap && (maxLen == 0 || end-cur.offset <= maxLen || cur.length == 0) {
			cur.length = end - cur.offset
			continue
		}
		if cur.length > 0 {
			out = append(out, cur)
		}
		cur = ioRange(l)
	}
	if cur.length > 0 {
		out = append(out, cur)
	}
	return out
}

// stripeBytes holds bytes fetched for a stripe's index streams.
type stripeBytes struct {
	ranges []ioRange
	bufs   [][]byte
	reads  int
	read   int64
}

// fetch reads the coalesced ranges covering locs from src into b, in place
// of what it held. When hold is not nil it is first given the bytes to be read, and
// may refuse them (the scan's memory budget).
func fetch(src io.ReaderAt, b *stripeBytes, locs []streamLoc, gap int64, stripe int, hold func(n int64) error) error {
	b.release()
	b.ranges = coalesce(locs, gap)
	if hold != nil {
		var n int64
		for _, rg := range b.ranges {
			n += rg.length
		}
		if err := hold(n); err != nil {
			return err
		}
	}
	if s, ok := src.(*ioSched); ok && len(b.ranges) > 1 {
		// Scheduled together, they are in flight together (those
		// scheduled ahead, scheduleIndexAhead, are found there).
		spans := make([]span, len(b.ranges))
		for i, rg := range b.ranges {
			spans[i] = span{off: rg.offset, n: rg.length}
		}
		s.scheduleNew(stripe, spans)
	}
	for _, rg := range b.ranges {
		buf := getBuf(rg.length)
		b.bufs = append(b.bufs, buf)
		if err := readFull(src, buf, rg.offset); err != nil {
			return orc.WithLocation(err, rg.offset, stripe, -1, "")
		}
		b.reads++
		b.read += rg.length
	}
	return nil
}

// release gives b's buffers back to the pool; b is empty afterwards.
func (b *stripeBytes) release() {
	for i, buf := range b.bufs {
		putBuf(buf)
		b.bufs[i] = nil
	}
	b.bufs, b.ranges = b.bufs[:0], b.ranges[:0]
}

// Fetched stripe bytes are the largest buffers a scan holds (tens of
// megabytes), and a new scan would otherwise take them from fresh memory,
// whose first touch costs a page fault per page: on a virtual machine that
// is several microseconds each, 0.2 s for one 50 MB stripe. Finished scans
// leave their buffers in pools by size class (a power of two), for the next
// scans of the process; the garbage collector empties the pools of what
// stays unused.
var bufPools [48]sync.Pool

// getBuf returns a buffer of length n, from the pool when it has one.
func getBuf(n int64) []byte {
	if n <= 0 {
		return nil
	}
	c := bits.Len64(uint64(n - 1)) // 2^c >= n
	if c < len(bufPools) {
		if p, ok := bufPools[c].Get().(*[]byte); ok {
			return (*p)[:n]
		}
		return make([]byte, n, int64(1)<<c)
	}
	return make([]byte, n)
}

// bufCap returns the capacity of getBuf(n), for charging a buffer before
// taking it.
func bufCap(n int64) int64 {
	if n <= 0 {
		return 0
	}
	if c := bits.Len64(uint64(n - 1)); c < len(bufPools) {
		return int64(1) << c
	}
	return n
}

// putBuf gives a buffer from getBuf back to the pool.
func putBuf(b []byte) {
	if cap(b) == 0 {
		return
	}
	c := bits.Len64(uint64(cap(b))) - 1 // 2^c <= cap
	if c < len(bufPools) && cap(b) == 1<<c {
		b = b[:0]
		bufPools[c].Put(&b)
	}
}

// slice returns the fetched bytes of a stream. Ranges are sorted by offset
// and do not overlap.
func (b *stripeBytes) slice(l streamLoc) []byte {
	if l.length == 0 {
		return nil
	}
	// The ranges starting at or before l, nearest first.
	i := sort.Search(len(b.ranges), func(i int) bool { return b.ranges[i].offset > l.offset })
	for i--; i >= 0; i-- {
		rg := b.ranges[i]
		if start := l.offset - rg.offset; start+l.length <= rg.length {
			return b.bufs[i][start : start+l.length]
		}
	}
	return nil
}
