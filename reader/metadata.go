package reader

import (
	"errors"
	"iter"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
)

// StreamDetail describes one stream of a stripe.
type StreamDetail struct {
	Kind   string // PRESENT, DATA, LENGTH, ROW_INDEX, ...
	Column int
	Offset int64 // absolute file offset
	Length int64
}

// EncodingDetail is a column's encoding in a stripe.
type EncodingDetail struct {
	Kind           string // DIRECT, DICTIONARY, DIRECT_V2, DICTIONARY_V2
	DictionarySize int
	BloomEncoding  int
}

// StripeDetail is a stripe's footer in readable form.
type StripeDetail struct {
	StripeInfo
	Streams        []StreamDetail
	Encodings      []EncodingDetail // by column id
	WriterTimezone string
}

// StripeDetail reads stripe i's footer, its streams and encodings listed
// (ReadStripeFooter walks them without holding them).
func (r *Reader) StripeDetail(i int) (*StripeDetail, error) {
	f, err := r.ReadStripeFooter(i)
	if err != nil {
		return nil, err
	}
	d := &StripeDetail{StripeInfo: f.StripeInfo, WriterTimezone: f.WriterTimezone,
		Streams: make([]StreamDetail, 0, f.nstreams), Encodings: make([]EncodingDetail, 0, f.nencodings)}
	for st := range f.Streams() {
		d.Streams = append(d.Streams, st)
	}
	for e := range f.Encodings() {
		d.Encodings = append(d.Encodings, e)
	}
	return d, nil
}

// StripeFooter is a stripe's footer, read and checked, whose streams and
// encodings are decoded each time they are walked: a stripe of 100,000
// columns has 200,000 streams and 100,000 encodings, which StripeDetail
// lists at 40 and 32 bytes each, where the footer's bytes take 5 and 4.
type StripeFooter struct {
	StripeInfo
	WriterTimezone string

	r                    *Reader
	data                 []byte // the decompressed footer
	nstreams, nencodings int
}

// ReadStripeFooter reads stripe i's footer and checks it as a scan does:
// every entry parses, every stream lies in its area and names a column,
// every column has an encoding.
func (r *Reader) ReadStripeFooter(i int) (*StripeFooter, error) {
	if i < 0 || i >= len(r.tail.Footer.GetStripes()) {
		return nil, errStripeRange(i, len(r.tail.Footer.GetStripes()))
	}
	info, footerOff, data, err := r.stripeFooterBytes(r.r, i)
	if err != nil {
		return nil, err
	}
	f := &StripeFooter{StripeInfo: info, r: r, data: data}
	place := r.newStreamPlacer(i, info)
	var st orcpb.Stream
	var ce orcpb.ColumnEncoding
	err = walkMessage(data, func(num protowire.Number, typ protowire.Type, v []byte) error {
		if typ != protowire.BytesType {
			return nil
		}
		switch num {
		case stripeFooterStreams:
			if err := proto.Unmarshal(v, &st); err != nil {
				return err
			}
			if _, err := place.next(st.GetKind(), st.GetColumn(), st.GetLength()); err != nil {
				return err
			}
			f.nstreams++
		case stripeFooterColumns:
			if err := proto.Unmarshal(v, &ce); err != nil {
				return err
			}
			f.nencodings++
		case stripeFooterZone:
			f.WriterTimezone = string(v)
		}
		return nil
	})
	if err != nil {
		var ce *orc.CorruptError
		if errors.As(err, &ce) {
			return nil, err
		}
		return nil, &orc.CorruptError{Offset: footerOff, Stripe: i, Column: -1, Stream: "stripe footer", Msg: "stripe footer does not parse", Err: err}
	}
	if err := r.checkEncodings(i, footerOff, f.nencodings); err != nil {
		return nil, err
	}
	return f, nil
}

// NumStreams returns how many streams the footer lists.
func (f *StripeFooter) NumStreams() int { return f.nstreams }

// NumEncodings returns how many column encodings the footer lists.
func (f *StripeFooter) NumEncodings() int { return f.nencodings }

// Streams yields the footer's streams in footer order, located.
func (f *StripeFooter) Streams() iter.Seq[StreamDetail] {
	return func(yield func(StreamDetail) bool) {
		place := f.r.newStreamPlacer(f.Index, f.StripeInfo)
		var st orcpb.Stream
		walkMessage(f.data, func(num protowire.Number, typ protowire.Type, v []byte) error {
			if num != stripeFooterStreams || typ != protowire.BytesType {
				return nil
			}
			if err := proto.Unmarshal(v, &st); err != nil {
				return err // checked by ReadStripeFooter
			}
			off, err := place.next(st.GetKind(), st.GetColumn(), st.GetLength())
			if err != nil {
				return err
			}
			if !yield(StreamDetail{Kind: st.GetKind().String(), Column: int(st.GetColumn()), Offset: off, Length: int64(st.GetLength())}) {
				return errStop
			}
			return nil
		})
	}
}

// Encodings yields the footer's column encodings, by column id.
func (f *StripeFooter) Encodings() iter.Seq[EncodingDetail] {
	return func(yield func(EncodingDetail) bool) {
		var ce orcpb.ColumnEncoding
		walkMessage(f.data, func(num protowire.Number, typ protowire.Type, v []byte) error {
			if num != stripeFooterColumns || typ != protowire.BytesType {
				return nil
			}
			if err := proto.Unmarshal(v, &ce); err != nil {
				return err
			}
			if !yield(EncodingDetail{Kind: ce.GetKind().String(), DictionarySize: int(ce.GetDictionarySize()), BloomEncoding: int(ce.GetBloomEncoding())}) {
				return errStop
			}
			return nil
		})
	}
}

// errStop ends a walk early.
var errStop = errors.New("stop")

// Field numbers of StripeFooter (orc.proto).
const (
	stripeFooterStreams = 1
	stripeFooterColumns = 2
	stripeFooterZone    = 3
	// stripeFooterEncryption is the encrypted columns' variants.
	stripeFooterEncryption = 4
)

// walkMessage calls fn with each top-level field of the message b: its
// number, wire type and, for a length-delimited field, its payload.
func walkMessage(b []byte, fn func(num protowire.Number, typ protowire.Type, v []byte) error) error {
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		var v []byte
		if typ == protowire.BytesType {
			v, n = protowire.ConsumeBytes(b)
		} else {
			n = protowire.ConsumeFieldValue(num, typ, b)
		}
		if n < 0 {
			return protowire.ParseError(n)
		}
		b = b[n:]
		if err := fn(num, typ, v); err != nil {
			return err
		}
	}
	return nil
}
