package format

// The footer's types and column statistics, and the metadata section's
// stripe statistics, are kept as the bytes they came in and decoded when
// asked: a file of 100,000 columns has 100,000 of each in the footer and
// 100,000 per stripe in the metadata, and as protobuf messages they took
// 250 bytes a column each (85 MiB for the tail of a 3.5 MB file), where
// their bytes take 10-30 and an index of offsets 4.
//
// ReadTail walks the footer's top-level fields once (splitFooter): the
// types (field 4) are decoded one at a time into the schema and dropped,
// the statistics (field 7) are indexed by the offset of each, and every
// other field is decoded into Tail.Footer. The decompressed footer and
// metadata are then dropped: what is asked for later is cut from their
// stored bytes (tailsection.go). It walks the metadata's
// top-level fields too (indexMetadata), indexing each stripe's
// statistics; a stripe's column offsets are indexed the first time one of
// its columns is asked for. Damage below the top level is found when the
// damaged entry is decoded: Statistics and StripeStatistics return it
// as a CorruptError.

import (
	"fmt"
	"math"
	"sync"
	"sync/atomic"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
)

// Field numbers of the messages walked here (orc.proto).
const (
	footerTypes      = 4 // Footer.types
	footerStatistics = 7 // Footer.statistics
	metadataStripes  = 1 // Metadata.stripe_stats
	stripeColStats   = 1 // StripeStatistics.col_stats
)

// tailIndex is what Tail keeps of the footer's types and statistics and of
// the metadata section.
type tailIndex struct {
	footer *section
	// whole and typeOffs are the decompressed footer and where each type's
	// field starts in it, while ReadTail builds the schema; typeOffs is
	// found again (typesOnce) when Type is called.
	whole     []byte
	typeOffs  []uint32
	numTypes  int
	typesOnce sync.Once
	typesErr  error

	statOffs   []uint32 // where each column's statistics field starts; nil when none
	meta       *section // the metadata; nil when none
	stripeOffs []uint32 // where each stripe's statistics field starts in meta
	stripeCols []atomic.Pointer[[]uint32]
}

// walkFields calls fn with each top-level field of the message b: its
// number, wire type and where it starts. It fails on bytes that are not
// fields.
func walkFields(b []byte, fn func(num protowire.Number, typ protowire.Type, off int, field []byte)) error {
	if len(b) > math.MaxUint32 {
		return fmt.Errorf("%w: a tail section of %d bytes (offsets are 32 bits)", orc.ErrLimit, len(b))
	}
	for off := 0; off < len(b); {
		num, typ, n := protowire.ConsumeTag(b[off:])
		if n < 0 {
			return fmt.Errorf("bad field tag at byte %d: %w", off, protowire.ParseError(n))
		}
		m := protowire.ConsumeFieldValue(num, typ, b[off+n:])
		if m < 0 {
			return fmt.Errorf("bad field %d at byte %d: %w", num, off, protowire.ParseError(m))
		}
		fn(num, typ, off, b[off:off+n+m])
		off += n + m
	}
	return nil
}

// elem returns the payload of the length-delimited field at off in b
// (checked by walkFields).
func elem(b []byte, off uint32) []byte {
	_, _, n := protowire.ConsumeTag(b[off:])
	v, _ := protowire.ConsumeBytes(b[int(off)+n:])
	return v
}

// splitFooter indexes the footer's types and statistics and decodes its
// other fields into t.Footer.
func (t *Tail) splitFooter(b []byte) error {
	var rest []byte
	t.ix.whole = b
	err := walkFields(b, func(num protowire.Number, typ protowire.Type, off int, field []byte) {
		switch {
		case num == footerTypes && typ == protowire.BytesType:
			t.ix.typeOffs = append(t.ix.typeOffs, uint32(off))
		case num == footerStatistics && typ == protowire.BytesType:
			t.ix.statOffs = append(t.ix.statOffs, uint32(off))
		default:
			rest = append(rest, field...)
		}
	})
	if err != nil {
		return err
	}
	t.ix.numTypes = len(t.ix.typeOffs)
	t.ix.statOffs = trim(t.ix.statOffs)
	t.Footer = &orcpb.Footer{}
	return proto.Unmarshal(rest, t.Footer)
}

// trim returns offs in a slice of its length (appending left up to twice
// the room).
func trim(offs []uint32) []uint32 {
	if cap(offs) == len(offs) {
		return offs
	}
	return append([]uint32(nil), offs...)
}

// dropWhole lets the decompressed footer go once the schema is built.
func (t *Tail) dropWhole() {
	t.ix.whole, t.ix.typeOffs = nil, nil
}

// indexMetadata indexes the metadata section's stripe statistics.
func (t *Tail) indexMetadata(b []byte, sec *section) error {
	var offs []uint32
	err := walkFields(b, func(num protowire.Number, typ protowire.Type, off int, field []byte) {
		if num == metadataStripes && typ == protowire.BytesType {
			offs = append(offs, uint32(off))
		}
	})
	if err != nil {
		return err
	}
	t.ix.meta, t.ix.stripeOffs = sec, trim(offs)
	t.ix.stripeCols = make([]atomic.Pointer[[]uint32], len(offs))
	return nil
}

// NumTypes returns how many types the footer lists (the schema's columns).
func (t *Tail) NumTypes() int { return t.ix.numTypes }

// Types decodes the footer's types, in column id order.
func (t *Tail) Types() ([]*orcpb.Type, error) {
	out := make([]*orcpb.Type, t.ix.numTypes)
	for i := range out {
		pt, err := t.Type(i)
		if err != nil {
			return nil, err
		}
		out[i] = pt
	}
	return out, nil
}

// Type decodes type i (column id i): nil when there is none.
func (t *Tail) Type(i int) (*orcpb.Type, error) {
	if i < 0 || i >= t.ix.numTypes {
		return nil, nil
	}
	t.ix.typesOnce.Do(func() {
		if t.ix.typeOffs != nil {
			return
		}
		// Found again: the decompressed footer is not kept.
		b, err := t.ix.footer.all()
		if err != nil {
			t.ix.typesErr = err
			return
		}
		var offs []uint32
		err = walkFields(b, func(num protowire.Number, typ protowire.Type, off int, _ []byte) {
			if num == footerTypes && typ == protowire.BytesType {
				offs = append(offs, uint32(off))
			}
		})
		if err == nil && len(offs) != t.ix.numTypes {
			err = fmt.Errorf("%d types, %d when the tail was read", len(offs), t.ix.numTypes)
		}
		if err != nil {
			t.ix.typesErr = &orc.CorruptError{Offset: t.FooterStart, Stripe: -1, Column: -1, Stream: "footer",
				Msg: "footer does not parse again", Err: err}
			return
		}
		t.ix.typeOffs = trim(offs)
	})
	if t.ix.typesErr != nil {
		return nil, t.ix.typesErr
	}
	return footerElem(t, t.ix.typeOffs[i], &orcpb.Type{}, i, "type %d does not parse")
}

// footerElem decodes into m the footer's element at off, which belongs to
// column col; a CorruptError when it does not parse, its message msgf
// with the column.
func footerElem[M proto.Message](t *Tail, off uint32, m M, col int, msgf string) (M, error) {
	b, _, err := t.ix.footer.elem(off)
	if err == nil {
		err = proto.Unmarshal(b, m)
	}
	if err != nil {
		var none M
		return none, &orc.CorruptError{Offset: t.FooterStart, Stripe: -1, Column: col, Stream: "footer",
			Msg: fmt.Sprintf(msgf, col), Err: err}
	}
	return m, nil
}

// NumStatistics returns how many column statistics the footer has: one per
// column, or 0 when it has none (or a count that is not one per column,
// which readers take as none).
func (t *Tail) NumStatistics() int { return len(t.ix.statOffs) }

// Statistics decodes the file statistics of column id: nil when the footer
// has none, a CorruptError when its bytes do not parse.
func (t *Tail) Statistics(id int) (*orcpb.ColumnStatistics, error) {
	if id < 0 || id >= len(t.ix.statOffs) {
		return nil, nil
	}
	return footerElem(t, t.ix.statOffs[id], &orcpb.ColumnStatistics{}, id, "the statistics of column %d do not parse")
}

// HasStripeStatistics reports whether the file has a metadata section with
// one entry of statistics per stripe.
func (t *Tail) HasStripeStatistics() bool { return t.ix.meta != nil }

// StripeStatistics decodes stripe's statistics of column id from the
// metadata section: nil when there are none, a CorruptError when the bytes
// do not parse.
func (t *Tail) StripeStatistics(stripe, id int) (*orcpb.ColumnStatistics, error) {
	if stripe < 0 || stripe >= len(t.ix.stripeOffs) || id < 0 {
		return nil, nil
	}
	offs, err := t.stripeColumns(stripe)
	if err != nil || id >= len(offs) {
		return nil, err
	}
	b, _, err := t.ix.meta.elem(offs[id])
	cs := &orcpb.ColumnStatistics{}
	if err == nil {
		err = proto.Unmarshal(b, cs)
	}
	if err != nil {
		return nil, &orc.CorruptError{Offset: t.MetadataStart, Stripe: stripe, Column: id, Stream: "metadata",
			Msg: fmt.Sprintf("the statistics of stripe %d, column %d do not parse", stripe, id), Err: err}
	}
	return cs, nil
}

// NumStripeStatistics returns how many columns stripe's statistics list.
func (t *Tail) NumStripeStatistics(stripe int) (int, error) {
	if stripe < 0 || stripe >= len(t.ix.stripeOffs) {
		return 0, nil
	}
	offs, err := t.stripeColumns(stripe)
	return len(offs), err
}

// stripeColumns returns where each column's statistics of stripe start in
// the metadata, indexing them the first time.
func (t *Tail) stripeColumns(stripe int) ([]uint32, error) {
	if p := t.ix.stripeCols[stripe].Load(); p != nil {
		return *p, nil
	}
	// Walked twice, to count the columns and then to note where each
	// starts, into a slice of their number.
	start, n, err := t.ix.meta.payload(t.ix.stripeOffs[stripe])
	count := 0
	if err == nil {
		err = t.ix.meta.walk(start, n, func(num protowire.Number, typ protowire.Type, _ int) {
			if num == stripeColStats && typ == protowire.BytesType {
				count++
			}
		})
	}
	offs := make([]uint32, 0, count)
	if err == nil {
		err = t.ix.meta.walk(start, n, func(num protowire.Number, typ protowire.Type, off int) {
			if num == stripeColStats && typ == protowire.BytesType && len(offs) < count {
				offs = append(offs, uint32(off))
			}
		})
	}
	if err != nil {
		return nil, &orc.CorruptError{Offset: t.MetadataStart, Stripe: stripe, Column: -1, Stream: "metadata",
			Msg: fmt.Sprintf("the statistics of stripe %d do not parse", stripe), Err: err}
	}
	t.ix.stripeCols[stripe].Store(&offs)
	return offs, nil
}

// FullFooter decodes the whole footer as written, types and statistics
// included, into a new message (for tools that rewrite a tail).
func (t *Tail) FullFooter() (*orcpb.Footer, error) {
	b, err := t.ix.footer.all()
	return unmarshalSection(b, err, &orcpb.Footer{}, t.FooterStart, "footer")
}

// unmarshalSection decodes a whole section of the tail, read as b (or not
// read, err), into m; either failure is a CorruptError at off saying that
// the section (stream) does not parse.
func unmarshalSection[M proto.Message](b []byte, err error, m M, off int64, stream string) (M, error) {
	if err == nil {
		err = proto.Unmarshal(b, m)
	}
	if err != nil {
		var none M
		return none, &orc.CorruptError{Offset: off, Stripe: -1, Column: -1, Stream: stream, Msg: stream + " does not parse", Err: err}
	}
	return m, nil
}

// DecodeMetadata decodes the whole metadata section into a new message;
// nil when the file has none (or one whose stripe count is not the
// footer's, which readers take as none).
func (t *Tail) DecodeMetadata() (*orcpb.Metadata, error) {
	if t.ix.meta == nil {
		return nil, nil
	}
	b, err := t.ix.meta.all()
	return unmarshalSection(b, err, &orcpb.Metadata{}, t.MetadataStart, "metadata")
}
