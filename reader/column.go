package reader

// Column readers form a tree mirroring the selected part of the schema. Each
// reads its streams for one stripe at a time and decodes values into the
// matching orc.Vector.
//
// Nulls and nesting follow the orc package's vector conventions. A column's
// streams hold values only for rows whose ancestors are not null, so every
// reader takes the parent's null mask: a row null in the parent is null here
// and consumes nothing from this column's streams. Struct fields and union
// variants thus get vectors parallel to their parent; list and map children
// get exactly the elements of non-null rows, with no parent mask.

import (
	"encoding/binary"
	"fmt"
	"slices"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// columnReader decodes one column (and its selected children).
type columnReader interface {
	// startStripe binds the reader to a stripe's streams and encodings.
	startStripe(ctx *stripeCtx) error
	// next decodes n rows into v. parentNulls, when not nil, has n entries
	// and marks rows whose parent is null; those rows read nothing.
	next(v orc.Vector, n int, parentNulls []bool) error
	// skip discards n rows at this column's level (rows whose ancestors are
	// not null).
	skip(n int64) error
	// seek positions the column's streams at a row group, consuming the
	// column's row index positions in order (see seek.go).
	seek(pp *format.PositionProvider) error
	// columnID returns the file column id the reader decodes.
	columnID() int
}

// stripeCtx is what column readers need to start a stripe.
type stripeCtx struct {
	// The file's compression and block size: a stripe's context holds
	// nothing that can read the file.
	compression orc.CompressionKind
	blockSize   int
	meta        *stripeMeta
	sio         *stripeIO // the planned streams' fetches
	dec         format.Decompressor
	zone        *time.Location
	maxValues   int64   // bound on the values any column may produce in the stripe
	maxDict     int64   // WithMaxDictionarySize
	maxNested   int64   // WithMaxNestedValues
	mem         *budget // WithMaxScanMemory, or nil
	// pool lends stream readers that columns done with the stripe gave
	// back (release.go); nil when the scan starts its columns eagerly.
	pool *streamPool
}

func (c *stripeCtx) corrupt(col int, stream string, format string, args ...any) error {
	return &orc.CorruptError{Offset: -1, Stripe: c.meta.index, Column: col, Stream: stream, Msg: fmt.Sprintf(format, args...)}
}

// open points *in at a stream, creating or reusing the InStream: it reads
// from the stream's fetch, starting with the piece the fetch holds. It
// reports whether the stream exists; a required stream that is missing is
// corruption.
func (c *stripeCtx) open(in **format.InStream, col int, kind orcpb.Stream_Kind, required bool) (bool, error) {
	loc, ok := c.meta.stream(col, kind)
	if !ok {
		if required {
			return false, c.corrupt(col, kind.String(), "missing %s stream", kind)
		}
		return false, nil
	}
	f := c.sio.fetch(col, kind)
	if f == nil {
		return false, fmt.Errorf("orc: internal error: stream %s of column %d in stripe %d is not in the scan plan", kind, col, c.meta.index)
	}
	si := format.StreamInfo{Name: kind.String(), FileOffset: loc.offset, Stripe: c.meta.index, Column: col, Length: uint64(loc.length)}
	if *in == nil {
		*in = c.pool.takeIn()
	}
	if *in == nil {
		*in = format.NewInStream(si, nil, c.compression, c.blockSize, c.dec)
	} else {
		(*in).SetDecompressor(c.dec)
		(*in).Reset(si, nil)
	}
	(*in).SetLoader(f)
	f.in = *in
	f.window(f.runStart(0))
	return true, nil
}

// maxBytes bounds the decompressed size of a stream from its stored size.
func (c *stripeCtx) maxBytes(col int, kind orcpb.Stream_Kind) int64 {
	loc, _ := c.meta.stream(col, kind)
	if c.compression == orc.CompressionNone {
		return loc.length
	}
	return (loc.length/3 + 1) * int64(c.blockSize)
}

// isV2 reports whether an encoding uses RLE v2, rejecting kinds the column
// type cannot have.
func isV2(k orcpb.ColumnEncoding_Kind) bool {
	return k == orcpb.ColumnEncoding_DIRECT_V2 || k == orcpb.ColumnEncoding_DICTIONARY_V2
}

// intDecoder returns a decoder of the right RLE version over in, reusing *d
// when it already is one, else one from pool (which may be nil).
func intDecoder(pool *streamPool, d *format.IntDecoder, in *format.InStream, signed, v2 bool) format.IntDecoder {
	switch cur := (*d).(type) {
	case *format.IntRLEv2Decoder:
		if v2 && cur != nil {
			cur.Reset(in)
			return cur
		}
	case *format.IntRLEv1Decoder:
		if !v2 && cur != nil {
			cur.Reset(in)
			return cur
		}
	}
	if *d = pool.takeInt(in, signed, v2); *d != nil {
		return *d
	}
	if v2 {
		*d = format.NewIntRLEv2Decoder(in, signed)
	} else {
		*d = format.NewIntRLEv1Decoder(in, signed)
	}
	return *d
}

// presence is embedded in every column reader: the node and its PRESENT
// stream.
type presence struct {
	node      *orc.Schema
	id        int
	presentIn *format.InStream
	present   *format.BoolRLEDecoder
	stripe    int32 // the stripe it reads, for errors (-1: none yet)
	has       bool  // this stripe has a PRESENT stream for the column
}

func (p *presence) columnID() int { return p.id }

func (p *presence) startPresence(ctx *stripeCtx) error {
	p.stripe = int32(ctx.meta.index)
	ok, err := ctx.open(&p.presentIn, p.id, orcpb.Stream_PRESENT, false)
	if err != nil {
		return err
	}
	p.has = ok
	if ok {
		ctx.pool.bindBool(&p.present, p.presentIn)
	}
	return nil
}

func (p *presence) wrap(err error, stream string) error {
	if err == nil {
		return nil
	}
	return orc.WithLocation(err, -1, int(p.stripe), p.id, stream)
}

// readNulls fills nulls for n rows and returns how many are not null.
func (p *presence) readNulls(nulls *orc.Nulls, n int, parentNulls []bool) (int, error) {
	if !p.has {
		if parentNulls == nil {
			nulls.Nulls = nulls.Nulls[:0]
			return n, nil
		}
		nulls.Nulls = grow(nulls.Nulls, n)
		copy(nulls.Nulls, parentNulls[:n])
		return n - countTrue(parentNulls[:n]), nil
	}
	m := n
	if parentNulls != nil {
		m -= countTrue(parentNulls[:n])
	}
	// The presence bits go to the front of the vector's nulls, which
	// they then become, in place: from the back when the parent's nulls
	// spread them (bit j lands at row i >= j).
	nulls.Nulls = grow(nulls.Nulls, n)
	out := nulls.Nulls[:n]
	k, err := p.present.NextPresent(out[:m])
	if err != nil {
		return 0, p.wrap(err, "PRESENT")
	}
	if parentNulls == nil {
		for i, ok := range out {
			out[i] = !ok
		}
	} else {
		j := m - 1
		for i := n - 1; i >= 0; i-- {
			if parentNulls[i] {
				out[i] = true
				continue
			}
			out[i] = !out[j]
			j--
		}
	}
	if k == n {
		nulls.Nulls = nulls.Nulls[:0]
	}
	return k, nil
}

// startDirect starts the column's PRESENT stream on the stripe and opens
// its stream of kind, for a column that must be DIRECT or DIRECT_V2
// encoded; it reports whether the encoding is v2.
func (p *presence) startDirect(ctx *stripeCtx, in **format.InStream, kind orcpb.Stream_Kind) (v2 bool, err error) {
	if err := p.startPresence(ctx); err != nil {
		return false, err
	}
	enc, _, err := ctx.meta.encoding(p.id)
	if err != nil {
		return false, err
	}
	if enc != orcpb.ColumnEncoding_DIRECT && enc != orcpb.ColumnEncoding_DIRECT_V2 {
		return false, ctx.corrupt(p.id, "stripe footer", "%s column has encoding %s", p.node.Kind, enc)
	}
	if _, err := ctx.open(in, p.id, kind, true); err != nil {
		return false, err
	}
	return isV2(enc), nil
}

// skipData skips n rows of a column whose one DATA stream holds width
// units of decoder d for each value present.
func (p *presence) skipData(d interface{ Skip(int64) error }, n, width int64) error {
	k, err := p.skipNulls(n)
	if err != nil {
		return err
	}
	return p.wrap(d.Skip(k*width), "DATA")
}

// skipNulls reads n presence bits and returns how many rows are not null.
func (p *presence) skipNulls(n int64) (int64, error) {
	if !p.has {
		return n, nil
	}
	k, err := p.present.SkipPresent(n)
	if err != nil {
		return 0, p.wrap(err, "PRESENT")
	}
	return k, nil
}

// countTrue returns how many of bs are true, eight a step.
func countTrue(bs []bool) int {
	b := boolBytes(bs)
	n, i := 0, 0
	for ; i+8 <= len(b); i += 8 {
		// Eight bytes of 0 or 1 summed by one multiply into the top byte
		// (POPCNT is behind a CPU feature test on GOAMD64=v1).
		n += int(binary.LittleEndian.Uint64(b[i:i+8:i+8]) * 0x0101010101010101 >> 56)
	}
	for ; i < len(b); i++ {
		n += int(b[i])
	}
	return n
}

// grow returns s with length n, reusing its array when large enough.
func grow[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:n]
	}
	return append(s[:cap(s)], make([]T, n-cap(s))...)[:n]
}

// spread moves the first k values of vals (length n) to the rows that are
// not null, from the back so nothing is overwritten early.
func spread[T any](vals []T, k int, nulls []bool) {
	var zero T
	j := k - 1
	for i := len(vals) - 1; i >= 0 && j < i; i-- {
		if nulls[i] {
			vals[i] = zero
		} else {
			vals[i] = vals[j]
			j--
		}
	}
}

// newColumnReader builds the reader tree for node, keeping only selected
// columns, and returns the projected schema node. A scan of every column
// of the file gets the file's schema itself as its projection (not a copy
// of 100,000 nodes for a file of 100,000 columns); callers must not modify
// it, and numbering it again (Assign) writes nothing.
func (r *Reader) newColumnReader(node *orc.Schema, selected []bool) (columnReader, *orc.Schema, error) {
	share := node == r.tail.Schema && !slices.Contains(selected, false)
	return r.columnReaderTree(node, selected, share)
}

// columnReaderTree is newColumnReader; with share, every column under node
// is selected and node is its own projection.
func (r *Reader) columnReaderTree(node *orc.Schema, selected []bool, share bool) (columnReader, *orc.Schema, error) {
	p := presence{node: node, id: node.ID(), stripe: -1}
	proj := node
	if !share {
		proj = &orc.Schema{Kind: node.Kind, Precision: node.Precision, Scale: node.Scale,
			MaxLength: node.MaxLength, Attributes: node.Attributes, CRS: node.CRS, Edges: node.Edges}
	}
	switch node.Kind {
	case orc.Boolean:
		return &boolReader{presence: p}, proj, nil
	case orc.Byte:
		return &byteReader{presence: p}, proj, nil
	case orc.Short, orc.Int, orc.Long, orc.Date:
		return &intReader{presence: p}, proj, nil
	case orc.Float, orc.Double:
		return &floatReader{presence: p, is32: node.Kind == orc.Float}, proj, nil
	case orc.String, orc.Varchar, orc.Char, orc.Binary, orc.Geometry, orc.Geography:
		return &bytesReader{presence: p}, proj, nil
	case orc.Decimal:
		return &decimalReader{presence: p, decimal64: r.tail.Version == format.VersionUnstablePre2 && node.Precision <= 18}, proj, nil
	case orc.Timestamp, orc.TimestampInstant:
		return &timestampReader{presence: p, instant: node.Kind == orc.TimestampInstant}, proj, nil
	case orc.Struct:
		sr := &structReader{presence: p, fields: make([]columnReader, 0, len(node.Children))}
		for i, c := range node.Children {
			if !selected[c.ID()] {
				continue
			}
			cr, cp, err := r.columnReaderTree(c, selected, share)
			if err != nil {
				return nil, nil, err
			}
			sr.fields = append(sr.fields, cr)
			if !share {
				proj.Children = append(proj.Children, cp)
				proj.FieldNames = append(proj.FieldNames, node.FieldNames[i])
			}
		}
		return sr, proj, nil
	case orc.List, orc.Map, orc.Union:
		var kids []columnReader
		for _, c := range node.Children {
			cr, cp, err := r.columnReaderTree(c, selected, share)
			if err != nil {
				return nil, nil, err
			}
			kids = append(kids, cr)
			if !share {
				proj.Children = append(proj.Children, cp)
			}
		}
		switch node.Kind {
		case orc.List:
			return &listReader{lengthsBase: lengthsBase{presence: p}, elem: kids[0]}, proj, nil
		case orc.Map:
			return &mapReader{lengthsBase: lengthsBase{presence: p}, keys: kids[0], values: kids[1]}, proj, nil
		default:
			return &unionReader{presence: p, kids: kids}, proj, nil
		}
	}
	return nil, nil, fmt.Errorf("%w: column %d has type %s", orc.ErrUnsupported, node.ID(), node.Kind)
}
