package format

// The file tail, read backwards from the end of the file:
//
//	... stripes ... | Metadata | Footer | PostScript | psLen (1 byte)
//
// psLen is the last byte of the file, so the PostScript is at most 255 bytes.
// The PostScript is never compressed; it gives the codec, the block size, the
// compressed lengths of the Footer and Metadata, the file version and the
// writer version, and (since 0.12) ends with the magic "ORC". The Footer and
// Metadata sit immediately before it and are compressed with the file codec.
// A file also starts with the 3 bytes "ORC"; Hive 0.11 files may lack the
// PostScript magic, and then the header is checked instead.

import (
	"errors"
	"fmt"
	"io"
	"math"
	"math/bits"
	"sort"
	"strconv"

	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format/orcpb"
)

// Magic is the string at the start of every ORC file and at the end of its
// PostScript.
const Magic = "ORC"

// DefaultTailRead is how many bytes ReadTail reads from the end of the file in
// its first read; a larger tail costs one more read.
const DefaultTailRead = 16 << 10

// DefaultBlockSize is the compression block size assumed when the
// PostScript leaves it out (as Java ORC does).
const DefaultBlockSize = 256 << 10

// MaxBlockSize is the largest compression block size accepted: chunk lengths
// are 23-bit numbers.
const MaxBlockSize = 1<<23 - 1

// Tail is the decoded end of an ORC file.
type Tail struct {
	PostScript *orcpb.PostScript
	// Footer is the footer without its types and column statistics, which
	// hold most of a wide file's footer: Schema is built from the types,
	// and the methods Statistics, StripeStatistics and Types decode what is
	// asked for; FullFooter decodes the footer whole.
	Footer      *orcpb.Footer
	Version     FileVersion
	Compression orc.CompressionKind
	BlockSize   int
	Schema      *orc.Schema
	FileSize    int64
	// PostScriptLen, FooterStart and MetadataStart locate the tail sections.
	PostScriptLen int
	FooterStart   int64
	MetadataStart int64

	ix tailIndex // the footer's types and statistics, the stripe statistics
}

// WriterVersion returns the PostScript's writer version.
func (t *Tail) WriterVersion() WriterVersion {
	return WriterVersion(t.PostScript.GetWriterVersion())
}

// TailOptions bounds what ReadTail accepts.
type TailOptions struct {
	// MaxTailSize caps the compressed size of Footer plus Metadata, and each
	// one's decompressed size. 0 means 256 MiB.
	MaxTailSize int64
}

// ReadTail reads and checks the tail of an ORC file of the given size. A
// zero-length file is an empty ORC file with no rows (the Hive convention).
func ReadTail(r io.ReaderAt, size int64, opts TailOptions) (*Tail, error) {
	maxTail := opts.MaxTailSize
	if maxTail <= 0 {
		maxTail = 256 << 20
	}
	if size == 0 {
		return emptyTail(), nil
	}
	if size < 0 {
		return nil, fmt.Errorf("orc: negative file size %d", size)
	}
	if size <= int64(len(Magic)) {
		return nil, &orc.CorruptError{Offset: 0, Stripe: -1, Column: -1, Stream: "file",
			Msg: fmt.Sprintf("file of %d bytes is too short to be ORC", size)}
	}
	readLen := int64(DefaultTailRead)
	if readLen > size {
		readLen = size
	}
	buf := make([]byte, readLen)
	if err := readAt(r, buf, size-readLen); err != nil {
		return nil, err
	}
	psLen := int(buf[len(buf)-1])
	if psLen == 0 || int64(psLen)+1 > size {
		if !headerIsORC(r) {
			return nil, errNotORC()
		}
		return nil, &orc.CorruptError{Offset: size - 1, Stripe: -1, Column: -1, Stream: "postscript",
			Msg: fmt.Sprintf("postscript length %d does not fit in a file of %d bytes (truncated file?)", psLen, size)}
	}
	psStart := size - 1 - int64(psLen)
	psBytes := buf[len(buf)-1-psLen : len(buf)-1]
	ps := &orcpb.PostScript{}
	if err := proto.Unmarshal(psBytes, ps); err != nil {
		if !headerIsORC(r) {
			return nil, errNotORC()
		}
		return nil, &orc.CorruptError{Offset: psStart, Stripe: -1, Column: -1, Stream: "postscript",
			Msg: "the last bytes are not a postscript: the file is truncated or its tail damaged", Err: err}
	}
	t := &Tail{PostScript: ps, FileSize: size, PostScriptLen: psLen}
	if err := checkMagic(r, ps, size); err != nil {
		return nil, err
	}
	if err := t.checkPostScript(); err != nil {
		return nil, err
	}
	footerLen := ps.GetFooterLength()
	metaLen := ps.GetMetadataLength()
	statsLen := ps.GetStripeStatisticsLength()
	if footerLen == 0 {
		return nil, &orc.CorruptError{Offset: psStart, Stripe: -1, Column: -1, Stream: "postscript", Msg: "footer length is 0"}
	}
	if footerLen > uint64(psStart) || metaLen > uint64(psStart) || statsLen > uint64(psStart) ||
		footerLen+metaLen+statsLen > uint64(psStart)-uint64(len(Magic)) {
		return nil, &orc.CorruptError{Offset: psStart, Stripe: -1, Column: -1, Stream: "postscript",
			Msg: fmt.Sprintf("footer (%d bytes) and metadata (%d bytes) do not fit before the postscript at %d", footerLen, metaLen, psStart)}
	}
	if int64(footerLen+metaLen) > maxTail {
		return nil, fmt.Errorf("%w: tail of %d bytes exceeds the limit of %d bytes", orc.ErrLimit, footerLen+metaLen, maxTail)
	}
	t.FooterStart = psStart - int64(footerLen)
	t.MetadataStart = t.FooterStart - int64(metaLen)
	// Read what the first read did not cover.
	tailStart := t.MetadataStart
	if bufStart := size - readLen; tailStart < bufStart {
		more := make([]byte, bufStart-tailStart)
		if err := readAt(r, more, tailStart); err != nil {
			return nil, err
		}
		buf = append(more, buf...)
	}
	section := func(start int64, n uint64) []byte {
		off := start - (size - int64(len(buf)))
		return buf[off : off+int64(n)]
	}
	dec, err := t.decompressor()
	if err != nil {
		return nil, err
	}
	footerBytes, footerSec, err := t.decompressSection("footer", section(t.FooterStart, footerLen), t.FooterStart, dec, maxTail)
	if err != nil {
		return nil, err
	}
	t.ix.footer = footerSec
	if err := t.splitFooter(footerBytes); err != nil {
		return nil, &orc.CorruptError{Offset: t.FooterStart, Stripe: -1, Column: -1, Stream: "footer",
			Msg: "footer does not parse", Err: err}
	}
	if metaLen > 0 {
		metaBytes, metaSec, err := t.decompressSection("metadata", section(t.MetadataStart, metaLen), t.MetadataStart, dec, maxTail)
		if err != nil {
			return nil, err
		}
		if err := t.indexMetadata(metaBytes, metaSec); err != nil {
			return nil, &orc.CorruptError{Offset: t.MetadataStart, Stripe: -1, Column: -1, Stream: "metadata",
				Msg: "metadata does not parse", Err: err}
		}
	}
	if err := t.checkFooter(); err != nil {
		return nil, err
	}
	t.dropWhole()
	return t, nil
}

func emptyTail() *Tail {
	root := &orc.Schema{Kind: orc.Struct}
	root.Assign()
	return &Tail{
		PostScript:  &orcpb.PostScript{},
		Footer:      &orcpb.Footer{},
		Version:     Version0_12,
		Compression: orc.CompressionNone,
		BlockSize:   DefaultBlockSize,
		Schema:      root,
		ix:          tailIndex{footer: &section{name: "footer", cur: -1}},
	}
}

func readAt(r io.ReaderAt, buf []byte, off int64) error {
	n, err := r.ReadAt(buf, off)
	if n == len(buf) {
		return nil
	}
	if err == nil || errors.Is(err, io.EOF) {
		return &orc.CorruptError{Offset: off + int64(n), Stripe: -1, Column: -1, Stream: "file",
			Msg: fmt.Sprintf("file ends after %d of %d bytes read at %d", n, len(buf), off), Err: err}
	}
	return fmt.Errorf("orc: reading %d bytes at offset %d: %w", len(buf), off, err)
}

func checkMagic(r io.ReaderAt, ps *orcpb.PostScript, size int64) error {
	if ps.GetMagic() == Magic {
		return nil
	}
	if ps.Magic != nil {
		if !headerIsORC(r) {
			return errNotORC()
		}
		return &orc.CorruptError{Offset: size - 1, Stripe: -1, Column: -1, Stream: "postscript",
			Msg: fmt.Sprintf("postscript magic is %q, not %q", ps.GetMagic(), Magic)}
	}
	// Hive 0.11 files may have no magic in the PostScript: check the header.
	var head [3]byte
	if err := readAt(r, head[:], 0); err != nil {
		return err
	}
	if string(head[:]) != Magic {
		return errNotORC()
	}
	return nil
}

// headerIsORC reports whether the file starts with the ORC magic.
func headerIsORC(r io.ReaderAt) bool {
	var head [3]byte
	return readAt(r, head[:], 0) == nil && string(head[:]) == Magic
}

// errNotORC is the error for a file that is not ORC at all (checked when
// its tail does not parse, so a damaged ORC file is told apart).
func errNotORC() error {
	return &orc.CorruptError{Offset: 0, Stripe: -1, Column: -1, Stream: "header",
		Msg: fmt.Sprintf("not an ORC file (no %q magic at its start)", Magic)}
}

func (t *Tail) checkPostScript() error {
	ps := t.PostScript
	v, ok := FileVersionOf(ps.GetVersion())
	if !ok {
		return &orc.CorruptError{Offset: t.FileSize - 1, Stripe: -1, Column: -1, Stream: "postscript",
			Msg: fmt.Sprintf("version has %d numbers, want 2", len(ps.GetVersion()))}
	}
	t.Version = v
	// A postscript without the magic can only be a Hive 0.11 file; any
	// value that such a file cannot hold means the bytes are not a
	// postscript at all (a truncated or damaged file), not a newer format.
	hasMagic := ps.GetMagic() == Magic
	notPostscript := func(what string) error {
		return &orc.CorruptError{Offset: t.FileSize - 1 - int64(t.PostScriptLen), Stripe: -1, Column: -1, Stream: "postscript",
			Msg: fmt.Sprintf("postscript without magic has %s", what)}
	}
	switch t.Version {
	case Version0_11, Version0_12, VersionUnstablePre2:
	default:
		if !hasMagic {
			return notPostscript(fmt.Sprintf("version %s", t.Version))
		}
		return fmt.Errorf("%w: file version %s was written by a future ORC version (orcgo reads 0.11, 0.12 and UNSTABLE-PRE-2.0)",
			orc.ErrUnsupported, t.Version)
	}
	t.Compression = orc.CompressionKind(ps.GetCompression())
	switch t.Compression {
	case orc.CompressionNone, orc.CompressionZlib, orc.CompressionSnappy, orc.CompressionLZO,
		orc.CompressionLZ4, orc.CompressionZstd:
	default:
		if !hasMagic {
			return notPostscript(fmt.Sprintf("compression %s", t.Compression))
		}
		return fmt.Errorf("%w: compression %s", orc.ErrUnsupported, t.Compression)
	}
	t.BlockSize = DefaultBlockSize
	if ps.CompressionBlockSize != nil {
		bs := ps.GetCompressionBlockSize()
		if bs == 0 || bs > MaxBlockSize {
			return &orc.CorruptError{Offset: t.FileSize - 1, Stripe: -1, Column: -1, Stream: "postscript",
				Msg: fmt.Sprintf("compression block size %d out of range 1..%d", bs, MaxBlockSize)}
		}
		t.BlockSize = int(bs)
	}
	return nil
}

func (t *Tail) decompressor() (Decompressor, error) {
	if t.Compression == orc.CompressionNone {
		return nil, nil
	}
	return NewDecompressor(t.Compression)
}

// ReadAll returns every byte of a ChunkSource, failing once more than limit
// bytes have come out.
func ReadAll(src ChunkSource, limit int64) ([]byte, error) {
	return AppendAll(nil, src, limit)
}

// AppendAll is ReadAll appending to dst, so that a caller reading many
// sections can reuse one buffer. On error it returns dst[:0] and the error.
//
// The chunks that do not fit in dst's capacity are copied aside and joined
// at the end in a buffer of the section's size: a footer of 100,000
// columns decompresses to megabytes, which growing a buffer by appending
// would allocate about four times over and return with up to half of it
// unused.
//
// A compressed InStream holding its whole stream is decompressed twice
// instead: once to count the bytes, then into dst grown to exactly that
// (a stripe footer of 100,000 columns decompressed to 1.4 MB and left as
// much behind).
func AppendAll(dst []byte, src ChunkSource, limit int64) ([]byte, error) {
	if in, ok := src.(*InStream); ok && in.comp != orc.CompressionNone && in.loader == nil &&
		in.pending == nil && in.skip == 0 {
		n, err := in.countRest(limit)
		if err != nil {
			return dst[:0], err
		}
		if cap(dst)-len(dst) < n {
			dst = append(make([]byte, 0, len(dst)+n), dst...)
		}
	}
	base := len(dst)
	var aside [][]byte // chunks past dst's capacity
	n := 0             // bytes read
	for {
		b, err := src.NextChunk()
		if err == io.EOF {
			break
		}
		if err != nil {
			return dst[:0], err
		}
		if int64(n+len(b)) > limit {
			return dst[:0], fmt.Errorf("%w: section decompresses to more than %d bytes", orc.ErrLimit, limit)
		}
		n += len(b)
		if aside == nil && (len(dst)+len(b) <= cap(dst) || len(dst) == 0) {
			dst = append(dst, b...)
			continue
		}
		aside = append(aside, append([]byte(nil), b...))
	}
	if aside != nil {
		out := make([]byte, len(dst), base+n)
		copy(out, dst)
		for _, b := range aside {
			out = append(out, b...)
		}
		dst = out
	}
	return dst, nil
}

func (t *Tail) checkFooter() error {
	f := t.Footer
	corrupt := func(format string, args ...any) error {
		return &orc.CorruptError{Offset: t.FooterStart, Stripe: -1, Column: -1, Stream: "footer", Msg: fmt.Sprintf(format, args...)}
	}
	if t.NumTypes() == 0 {
		return corrupt("footer has no types")
	}
	// Where recorded, the header and the stripes end exactly where the
	// (encrypted stripe statistics and) metadata begin: a tail read from a
	// damaged or truncated file rarely lines up.
	// Some writers record it a few bytes off, so the check is strict only
	// for postscripts without magic, where garbage is likelier.
	statsLen := int64(t.PostScript.GetStripeStatisticsLength())
	if t.PostScript.GetMagic() != Magic && f.ContentLength != nil && int64(f.GetContentLength()) != t.MetadataStart-statsLen {
		return corrupt("content length %d does not reach the metadata at %d", f.GetContentLength(), t.MetadataStart-statsLen)
	}
	if f.HeaderLength != nil && f.GetHeaderLength() != uint64(len(Magic)) {
		return corrupt("header length %d, want %d", f.GetHeaderLength(), len(Magic))
	}
	schema, err := schemaFromTypes(t.NumTypes(), t.footerTypes())
	if err != nil {
		return orc.WithLocation(err, t.FooterStart, -1, -1, "footer")
	}
	t.Schema = schema
	var rows uint64
	for i, s := range f.GetStripes() {
		// Each length and their sum must lie in the data area; summed
		// without a check, lengths near 2^64 wrap around into it.
		end, ok := addLengths(s.GetOffset(), s.GetIndexLength(), s.GetDataLength(), s.GetFooterLength())
		if s.GetOffset() < uint64(len(Magic)) || !ok || end > uint64(t.MetadataStart) {
			return corrupt("stripe %d at offset %d (index %d, data %d, footer %d bytes) lies outside the data area [3, %d)",
				i, s.GetOffset(), s.GetIndexLength(), s.GetDataLength(), s.GetFooterLength(), t.MetadataStart)
		}
		if s.GetFooterLength() == 0 {
			return corrupt("stripe %d has an empty stripe footer", i)
		}
		if rows, ok = addLengths(rows, s.GetNumberOfRows()); !ok || rows > math.MaxInt64 {
			return corrupt("stripe %d: the stripes' row counts overflow", i)
		}
	}
	if f.NumberOfRows != nil && rows != f.GetNumberOfRows() && len(f.GetStripes()) > 0 {
		return corrupt("stripes hold %d rows but the footer says %d", rows, f.GetNumberOfRows())
	}
	if n := len(t.ix.statOffs); n != 0 && n != schema.MaxID()+1 {
		// Tolerated by Apache readers only as "no statistics"; so do we.
		t.ix.statOffs = nil
	}
	if t.ix.meta != nil && len(t.ix.stripeOffs) != len(f.GetStripes()) {
		// Stripe statistics that do not line up with the stripes cannot be
		// trusted for pruning; drop them rather than refuse the file.
		t.ix.meta, t.ix.stripeOffs, t.ix.stripeCols = nil, nil, nil
	}
	return nil
}

// Hive11DecimalScale is the scale given to Hive 0.11 decimals, which record
// neither precision nor scale in the type.
const Hive11DecimalScale = 6

// maxTypes bounds the size of a type tree read from a file.
const maxTypes = 1 << 20

// SchemaFromTypes builds the type tree from the footer's pre-order list of
// types, checking that it is a well-formed tree numbered in pre-order.
func SchemaFromTypes(types []*orcpb.Type) (*orc.Schema, error) {
	return schemaFromTypes(len(types), protoTypes(types))
}

// schemaFromTypes builds the type tree of n types, asking typeAt for each
// once, in order.
func schemaFromTypes(n int, typeAt typeSource) (*orc.Schema, error) {
	if n > maxTypes {
		return nil, orc.Corruptf("%d types exceed the limit of %d", n, maxTypes)
	}
	next := 0
	// stack holds the subtypes of the types on the path being built: each
	// level's are appended when it is read and dropped when it is done.
	var stack []uint32
	var pt typeInfo // the type just read (one for all: it escapes)
	var build func(depth int) (*orc.Schema, error)
	build = func(depth int) (*orc.Schema, error) {
		if depth > 1000 {
			return nil, orc.Corruptf("type tree deeper than 1000")
		}
		id := next
		if id >= n {
			return nil, orc.Corruptf("type %d referenced but only %d types exist", id, n)
		}
		next++
		base := len(stack)
		if err := typeAt(id, &pt, stack); err != nil {
			return nil, err
		}
		stack = pt.subs
		sub, names := pt.subs[base:], pt.names
		defer func() { stack = stack[:base] }()
		k := pt.kind
		if k < 0 || k > int32(orcpb.Type_GEOGRAPHY) {
			return nil, fmt.Errorf("%w: column %d has type kind %s", orc.ErrUnsupported, id, orcpb.Type_Kind(k))
		}
		s := &orc.Schema{Kind: orc.Kind(k), MaxLength: int(pt.maxLen),
			Precision: int(pt.prec), Scale: int(pt.scale), Attributes: pt.attrs}
		switch {
		case s.Kind == orc.Char && s.MaxLength > orc.MaxCharLength:
			return nil, orc.Corruptf("column %d is char(%d): the length is more than %d", id, s.MaxLength, orc.MaxCharLength)
		case s.Kind == orc.Varchar && s.MaxLength > orc.MaxVarcharLength:
			return nil, orc.Corruptf("column %d is varchar(%d): the length is more than %d", id, s.MaxLength, orc.MaxVarcharLength)
		}
		if s.Kind.IsGeospatial() {
			// An absent CRS means the format's default, as Apache ORC Java
			// reads it; an algorithm matters for geography only.
			s.CRS = pt.crs
			if !pt.hasCRS {
				s.CRS = orc.DefaultCRS
			}
			if s.Kind == orc.Geography {
				a := pt.algo
				if a < 0 || a > int32(orcpb.Type_KARNEY) {
					return nil, fmt.Errorf("%w: column %d is geography with edge interpolation algorithm %d", orc.ErrUnsupported, id, a)
				}
				s.Edges = orc.EdgeAlgorithm(a)
			}
		}
		switch s.Kind {
		case orc.List:
			if len(sub) != 1 {
				return nil, orc.Corruptf("list type %d has %d children", id, len(sub))
			}
		case orc.Map:
			if len(sub) != 2 {
				return nil, orc.Corruptf("map type %d has %d children", id, len(sub))
			}
		case orc.Union:
			if len(sub) == 0 || len(sub) > 256 {
				return nil, orc.Corruptf("union type %d has %d children", id, len(sub))
			}
		case orc.Struct:
		default:
			if len(sub) != 0 {
				return nil, orc.Corruptf("%s type %d has children", s.Kind, id)
			}
		}
		if s.Kind == orc.Decimal {
			if s.Precision == 0 {
				// Hive 0.11 decimals carry no precision or scale: each value
				// has its own. Read them as decimal(38,6), truncating extra
				// digits, as Apache ORC C++ does by default.
				s.Precision, s.Scale = 38, Hive11DecimalScale
			}
			if s.Precision < 1 || s.Precision > 38 || s.Scale > s.Precision {
				return nil, orc.Corruptf("decimal type %d has precision %d and scale %d", id, s.Precision, s.Scale)
			}
		}
		if k := min(len(sub), n-next); k > 0 { // no more children than types left
			s.Children = make([]*orc.Schema, 0, k)
			if s.Kind == orc.Struct {
				s.FieldNames = make([]string, 0, k)
			}
		}
		for i, c := range sub {
			if int(c) != next {
				return nil, orc.Corruptf("type %d child %d is type %d, want %d (types must be in pre-order)", id, i, c, next)
			}
			child, err := build(depth + 1)
			if err != nil {
				return nil, err
			}
			s.Children = append(s.Children, child)
			if s.Kind == orc.Struct {
				if i < len(names) {
					s.FieldNames = append(s.FieldNames, names[i])
				} else {
					s.FieldNames = append(s.FieldNames, "_col"+strconv.Itoa(i))
				}
			}
		}
		return s, nil
	}
	root, err := build(0)
	if err != nil {
		return nil, err
	}
	if next != n {
		return nil, orc.Corruptf("%d types listed but the tree holds %d", n, next)
	}
	root.Assign()
	return root, nil
}

// TypesFromSchema flattens a type tree into the footer's pre-order list.
func TypesFromSchema(s *orc.Schema) []*orcpb.Type {
	var out []*orcpb.Type
	s.Walk(func(n *orc.Schema) {
		t := TypeOf(n)
		if t.FieldNames != nil {
			t.FieldNames = append([]string(nil), t.FieldNames...)
		}
		out = append(out, t)
	})
	return out
}

// TypeOf returns the footer's Type of the node n alone: its kind,
// parameters and attributes, and its children's column ids. The message
// shares n's field names: it is for encoding, not for keeping. A writer
// of a wide schema encodes the types a node at a time with it (the whole
// list of 100,000 took 12 MB).
func TypeOf(n *orc.Schema) *orcpb.Type {
	t := &orcpb.Type{Kind: orcpb.Type_Kind(n.Kind).Enum()}
	if len(n.Children) > 0 {
		t.Subtypes = make([]uint32, len(n.Children))
		for i, c := range n.Children {
			t.Subtypes[i] = uint32(c.ID())
		}
	}
	if n.Kind == orc.Struct {
		t.FieldNames = n.FieldNames
	}
	switch n.Kind {
	case orc.Char, orc.Varchar:
		t.MaximumLength = proto.Uint32(uint32(n.MaxLength))
	case orc.Decimal:
		t.Precision = proto.Uint32(uint32(n.Precision))
		t.Scale = proto.Uint32(uint32(n.Scale))
	case orc.Geometry, orc.Geography:
		// The CRS is always written, as Apache ORC Java does, so that
		// readers that do not fill in the default (C++) see it.
		crs := n.CRS
		if crs == "" {
			crs = orc.DefaultCRS
		}
		t.Crs = proto.String(crs)
		if n.Kind == orc.Geography {
			t.Algorithm = orcpb.Type_EdgeInterpolationAlgorithm(n.Edges).Enum()
		}
	}
	if len(n.Attributes) > 0 {
		keys := make([]string, 0, len(n.Attributes))
		for k := range n.Attributes {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			t.Attributes = append(t.Attributes, &orcpb.StringPair{Key: proto.String(k), Value: proto.String(n.Attributes[k])})
		}
	}
	return t
}

// addLengths adds sizes or counts read from a file, reporting false when
// the sum does not fit in 63 bits (every length a reader converts to int64
// then stays positive).
func addLengths(xs ...uint64) (uint64, bool) {
	var sum uint64
	for _, x := range xs {
		var carry uint64
		sum, carry = bits.Add64(sum, x, 0)
		if carry != 0 || sum > math.MaxInt64 {
			return 0, false
		}
	}
	return sum, true
}
