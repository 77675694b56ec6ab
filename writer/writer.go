// Package writer writes ORC v1 files (version 0.12) that Apache ORC (Java
// and C++), Hive, Spark and Trino read: stripes cut by estimated size, a row
// index every stride rows with exact stream positions, statistics at row
// group, stripe and file level, and optional bloom filters. By default row
// groups are aligned (WithAlignedRowGroups): every stream ends its runs and
// its compression chunk at each row-index boundary, so each position is a
// chunk or byte offset with nothing to skip (booleans aside), for a few
// tenths of a percent of the file.
//
// Concurrency and ownership: a Writer belongs to one goroutine. With
// WithParallelism it spreads the columns of each Write over more goroutines
// and waits for them before returning, and writes each finished stripe to
// the io.Writer from a goroutine of its own while the next one encodes
// (Close waits for it); the file is the same as a serial write's. Write
// copies what it keeps, so the caller may reuse the Batch at once; the
// schema given to NewWriter is used as given and must not change while
// the Writer is in use (Write, Close and Reset refuse if it has; see
// NewWriter). Close
// writes the file tail and does not close the io.Writer. Reset starts a
// new file on another io.Writer with the buffers and compressors of the
// last, for services that rotate files.
//
// Errors: a batch Write refuses before writing anything (a schema or row
// count that does not match, inconsistent vectors, a value its column
// cannot store) is an ordinary error and leaves the Writer as it was, so
// the caller may fix the batch and go on; the file is the same as one
// written without it. Any other failure (the io.Writer, encoding or
// compression) is sticky: after it every call, Close included, returns
// that same error.
package writer

import (
	"errors"
	"fmt"
	"io"

	"google.golang.org/protobuf/encoding/protowire"
	"google.golang.org/protobuf/proto"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/bloomfilter"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/stats"
)

// Writer encodes batches into an ORC file.
type Writer struct {
	out    io.Writer
	cfg    config
	schema *orc.Schema
	note   *schemaNote // what schema said at NewWriter, when it is the caller's (schemanote.go)
	comp   format.Compressor
	root   columnWriter
	cols   []columnWriter // by column id

	offset       int64 // bytes written so far
	stripes      []*orcpb.StripeInformation
	stripeStats  []byte // the Metadata message so far: each finished stripe's statistics, encoded
	userMeta     []*orcpb.UserMetadataItem
	rows         int64 // rows in finished stripes
	stripeRows   int64 // rows in the current stripe
	groupRows    int   // rows in the current row group
	groupOpen    bool
	scratch      *format.OutStream       // for index streams, stripe footers and the tail
	indexBuf     []byte                  // a column's row index, encoded (writeIndexArea); the footer's parts (writeFooter)
	partLen      int                     // bytes of the message written in parts so far, codec NONE (writePart)
	empty        *format.OutStream       // never written: the position of a stream not made yet (lazySink)
	pool         *format.PagePool        // pages and chunk buffers of written stripes, for the next
	par          *fieldGroups            // WithParallelism, or nil
	pipe         *format.Pipeline        // WithParallelism's deferred compression, or nil
	sink         *stripeSink             // WithParallelism's background stripe writes (sink.go), or nil
	hold         holding                 // held's scratch
	streamList   []stream                // a column's data streams (appendDataStreams), scratch
	spare        *format.OutStream       // a written stream, emptied, for the next column's first (dropWritten)
	lentInts     *format.IntRLEv2Encoder // encodes the values integer columns hold (heldInts)
	posScratch   []uint64                // a row index entry's positions (startGroupSelf)
	rowTable     []rowEntry              // the stripe's row index: by row group, then column id (startRowGroup)
	groups       int                     // row groups in rowTable
	statsScratch []byte                  // a row index entry's statistics (stripeEntryStats)
	textCols     int                     // text and binary columns (bytesWriter)
	closing      bool                    // Close is writing the last stripe: no more rows come
	err          error
	closed       bool
}

// ErrClosed is returned by calls after Close.
var ErrClosed = errors.New("orc: writer is closed")

// NewWriter returns a writer of files with the given schema. It writes the
// 3-byte header at once.
//
// The writer uses schema itself, not a copy, when it is numbered in
// pre-order from 0 (as ParseSchema and Assign number a tree): the schema
// must then not change while the writer is in use: Write refuses with an
// error naming the column if a type or the tree's shape has, and Close
// and Reset also if a struct's field names have. Any other tree
// (a subtree of another schema, one never numbered) is copied and
// numbered.
func NewWriter(w io.Writer, schema *orc.Schema, opts ...Option) (*Writer, error) {
	cfg := defaultConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	if schema == nil {
		return nil, fmt.Errorf("orc: NewWriter: nil schema")
	}
	if err := schema.Validate(); err != nil {
		return nil, err
	}
	note, ok := noteSchema(schema) // schemanote.go
	if !ok {
		schema = schema.Copy()
	}
	if cfg.blockSize == 0 {
		cfg.blockSize = defaultBlockSize(cfg.stripeSize, schema.MaxID()+1)
	}
	wr := &Writer{out: w, cfg: cfg, schema: schema, note: note, pool: format.NewPagePool()}
	if cfg.compression != orc.CompressionNone {
		c, err := format.NewBlockCompressor(cfg.compression, cfg.level, cfg.blockSize)
		if err != nil {
			return nil, err
		}
		wr.comp = c
	}
	wr.scratch = wr.newStream()
	wr.empty = wr.newStream()
	wr.cols = make([]columnWriter, schema.MaxID()+1)
	root, err := wr.newColumnWriter(schema)
	if err != nil {
		return nil, err
	}
	wr.root = root
	noEarlyDirect(root, false)
	if err := wr.setupBlooms(); err != nil {
		return nil, err
	}
	if err := wr.setupParallel(); err != nil {
		return nil, err
	}
	if wr.par != nil {
		for _, c := range wr.cols {
			c.resetStripe() // streams with the groups' compressors
		}
	}
	if err := wr.writeRaw([]byte(format.Magic)); err != nil {
		return nil, err
	}
	return wr, nil
}

func (w *Writer) newStream() *format.OutStream {
	return format.NewPooledOutStream(w.cfg.compression, w.cfg.blockSize, w.comp, w.pool)
}

func (w *Writer) newColumnWriter(node *orc.Schema) (columnWriter, error) {
	var c columnWriter
	switch node.Kind {
	case orc.Boolean:
		c = w.newBoolWriter(node)
	case orc.Byte:
		c = w.newByteWriter(node)
	case orc.Short, orc.Int, orc.Long, orc.Date:
		c = w.newIntWriter(node)
	case orc.Float, orc.Double:
		c = w.newFloatWriter(node)
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		c = w.newBytesWriter(node)
	case orc.Geometry, orc.Geography:
		c = w.newGeoWriter(node)
	case orc.Decimal:
		c = w.newDecimalWriter(node)
	case orc.Timestamp, orc.TimestampInstant:
		c = w.newTimestampWriter(node)
	case orc.Struct:
		c = &structWriter{colBase: w.newBase(node)}
	case orc.List, orc.Map:
		c = w.newListWriter(node)
	case orc.Union:
		c = w.newUnionWriter(node)
	default:
		return nil, fmt.Errorf("%w: cannot write type %s", orc.ErrUnsupported, node.Kind)
	}
	w.cols[node.ID()] = c
	flat := node.MaxID()-node.ID() == len(node.Children) // every child a leaf
	var kids []columnWriter
	if !flat {
		kids = make([]columnWriter, 0, len(node.Children))
	}
	for _, child := range node.Children {
		k, err := w.newColumnWriter(child)
		if err != nil {
			return nil, err
		}
		if !flat {
			kids = append(kids, k)
		}
	}
	if flat {
		// The children's writers are the columns after c's, in order:
		// a struct of leaves (a wide table's root) shares w.cols rather
		// than keep 16 bytes a column of its own.
		kids = w.cols[node.ID()+1 : node.MaxID()+1 : node.MaxID()+1]
	}
	switch cw := c.(type) {
	case *structWriter:
		cw.fields = kids
	case *listWriter:
		cw.kids = kids
		cw.elem = kids[0]
		if len(kids) > 1 {
			cw.value = kids[1]
		}
	case *unionWriter:
		cw.kids = kids
	}
	return c, nil
}

// noEarlyDirect turns off the early choice of direct encoding (see
// bytesWriter.directAt) for text columns under a list or map, whose first
// row group may hold more values than rows.
func noEarlyDirect(c columnWriter, repeated bool) {
	if bw, ok := c.(*bytesWriter); ok && repeated {
		bw.directAt = 0
	}
	k := c.base().node.Kind
	for _, kid := range c.children() {
		noEarlyDirect(kid, repeated || k == orc.List || k == orc.Map)
	}
}

func (w *Writer) setupBlooms() error {
	if len(w.cfg.bloomColumns) == 0 {
		return nil
	}
	if w.cfg.stride == 0 {
		return fmt.Errorf("orc: bloom filters need a row index (WithRowIndexStride > 0)")
	}
	for _, name := range w.cfg.bloomColumns {
		node := w.schema.Find(name)
		if node == nil {
			return fmt.Errorf("orc: WithBloomFilterColumns: no column %q in %s", name, w.schema)
		}
		if !node.Kind.IsPrimitive() || node.Kind == orc.Boolean {
			return fmt.Errorf("orc: WithBloomFilterColumns: column %q is %s; bloom filters need a primitive type other than boolean", name, node.Kind)
		}
		w.cols[node.ID()].base().rareState().bloom = bloomfilter.New(w.cfg.stride, w.cfg.fpp)
	}
	return nil
}

// Reset discards the writer's state, a file in progress (not closed) and
// a sticky error included, and starts a new file on out with the same
// schema and options, writing its 3-byte header at once. The writer keeps
// its buffers, stream pages and compressors, so that a service rotating
// files allocates them once rather than for every file. The new file is
// byte for byte what a new Writer with the same options would write.
// Bytes of the discarded file not yet written are dropped; nothing more is
// written to the old io.Writer, and it is not closed.
func (w *Writer) Reset(out io.Writer) error {
	if err := w.checkSchema(true); err != nil {
		return err
	}
	if w.sink != nil {
		w.sink.stop()
	}
	w.releaseStreams()
	w.dropRowTable(false)
	if w.spare != nil { // a stripe that failed as it was written
		w.spare.Drop()
		w.spare = nil
	}
	for _, c := range w.cols {
		b := c.base()
		if b.group == nil { // dropped by Close
			b.group = stats.NewAccumulator(b.node)
		} else {
			b.group.Reset()
		}
		b.file = nil
		if b.bloomFilter() != nil {
			b.bloomFilter().Reset()
		}
	}
	if w.par != nil {
		clear(w.par.nanos)
		clear(w.par.prevNanos)
	}
	w.out = out
	w.offset = 0
	w.stripes = nil
	w.stripeStats = w.stripeStats[:0]
	w.userMeta = nil
	w.rows, w.stripeRows, w.groupRows, w.groupOpen = 0, 0, 0, false
	w.err, w.closed, w.closing = nil, false, false
	// A new scratch stream, as a new Writer's: the old one's pages, kept
	// for the tail, would count in the first stripe's size (held).
	w.scratch.Drop()
	w.scratch = w.newStream()
	w.dealFields()
	for _, c := range w.cols {
		if bc, ok := c.(*bytesWriter); ok {
			// As a new Writer's: the last file's dictionary and ids
			// would count in the first stripe's size (estimate counts
			// the arrays a dictionary keeps).
			bc.dict, bc.idBuf = nil, idBuffer{}
		}
		c.resetStripe()
	}
	return w.writeRaw([]byte(format.Magic))
}

func (w *Writer) writeRaw(b []byte) error {
	if w.sink != nil && w.sink.collecting {
		w.sink.copyIn(b)
		w.offset += int64(len(b))
		return nil
	}
	n, err := w.out.Write(b)
	w.offset += int64(n)
	if err == nil && n < len(b) {
		err = io.ErrShortWrite
	}
	if err != nil {
		w.err = fmt.Errorf("orc: writing at offset %d: %w", w.offset, err)
		return w.err
	}
	return nil
}

// Schema returns the writer's schema: the one given to NewWriter, or the
// writer's copy of it when it was not numbered from 0.
func (w *Writer) Schema() *orc.Schema { return w.schema }

// AddUserMetadata records a key and value in the file footer. Keys may
// repeat; readers see them in the order added.
func (w *Writer) AddUserMetadata(key string, value []byte) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return ErrClosed
	}
	w.userMeta = append(w.userMeta, &orcpb.UserMetadataItem{Name: proto.String(key), Value: append([]byte(nil), value...)})
	return nil
}

// Write appends the rows of b. Before writing anything it checks, and
// refuses with an error naming the column (and row) without changing the
// writer:
//   - b.Schema is set and equals the writer's (same type string);
//   - every vector holds exactly b.NumRows rows (list and map children
//     exactly as many as the last offset), and a null mask is empty or
//     exactly that long;
//   - offsets and union tags are consistent, and each stored value fits
//     its column: booleans 0 or 1, integers and dates their type's range, decimals their
//     precision, timestamp nanoseconds 0..999,999,999 and seconds
//     MinTimestampSeconds..MaxTimestampSeconds, and string, varchar and
//     char values valid UTF-8 (unless WithAllowInvalidUTF8).
//
// Values in null rows, under null parents or in other union variants are
// not stored and not checked.
func (w *Writer) Write(b *orc.Batch) error {
	if w.err != nil {
		return w.err
	}
	if w.closed {
		return ErrClosed
	}
	if w.sink != nil {
		if err := w.sink.failed(); err != nil {
			w.err = err
			return err
		}
	}
	if err := w.checkSchema(false); err != nil {
		return err
	}
	if err := w.checkBatch(b); err != nil {
		return invalidBatch{err}
	}
	for start := 0; start < b.NumRows; {
		end := b.NumRows
		if w.cfg.stride > 0 && end-start > w.cfg.stride-w.groupRows {
			end = start + w.cfg.stride - w.groupRows
		}
		if lim := w.cfg.stripeRows; lim > 0 && int64(end-start) > lim-w.stripeRows {
			end = start + int(lim-w.stripeRows)
		}
		n := end - start
		starting := w.cfg.stride > 0 && !w.groupOpen
		ending := w.cfg.stride > 0 && w.groupRows+n == w.cfg.stride
		var err error
		if w.par != nil {
			// Each field's goroutine starts and ends its row groups too,
			// which is where the chunks are compressed.
			err = w.writeParallel(b.Cols, start, end, starting, ending)
		} else {
			err = w.writeSerial(b, start, end, starting, ending)
		}
		if err != nil {
			w.err = err
			return err
		}
		start = end
		w.stripeRows += int64(n)
		w.groupRows += n
		if starting {
			w.groupOpen = true
		}
		if ending {
			w.groupOpen = false
			w.groupRows = 0
			w.redeal()
		}
		full, held, err := w.stripeFull()
		if err == nil && !full && w.sink != nil {
			err = w.boundSink(held)
		}
		if err != nil {
			w.err = err
			return err
		}
		if full {
			if err := w.flushStripe(true); err != nil {
				w.err = err
				return err
			}
		}
	}
	return nil
}

// writeSerial writes rows [start, end) of b on the calling goroutine,
// first starting a row group, and then ending it, as told.
func (w *Writer) writeSerial(b *orc.Batch, start, end int, starting, ending bool) error {
	if starting {
		w.startRowGroup()
		if err := startGroup(w.root); err != nil {
			return err
		}
	}
	var err error
	if sw, ok := w.root.(*structWriter); ok {
		err = sw.writeRoot(b.Cols, start, end)
	} else {
		err = w.root.write(b.Cols[0], start, end, nil)
	}
	if err != nil {
		return err
	}
	if ending {
		return endGroup(w.root)
	}
	return nil
}

// groupEnder is implemented by writers that act when a row group ends.
type groupEnder interface{ groupEnd() error }

// endGroup closes the row group of c and its descendants: statistics and
// bloom filters, then what the writers do at a group's end.
func endGroup(c columnWriter) error {
	finishGroup(c)
	return groupEnds(c)
}

func groupEnds(c columnWriter) error {
	if g, ok := c.(groupEnder); ok {
		if err := g.groupEnd(); err != nil {
			return err
		}
	}
	for _, k := range c.children() {
		if err := groupEnds(k); err != nil {
			return err
		}
	}
	return nil
}

// finishStripes flushes the encoders of c and its descendants into their
// streams; with onlyIndexed, only those of the columns whose row index it
// completes (finishesIndex).
func finishStripes(c columnWriter, onlyIndexed bool) error {
	if !onlyIndexed || finishesIndex(c) {
		if err := c.finishStripe(); err != nil {
			return err
		}
	}
	for _, k := range c.children() {
		if err := finishStripes(k, onlyIndexed); err != nil {
			return err
		}
	}
	return nil
}

// finishesIndex reports whether finishing c's stripe completes its row
// index: a text column decides then between dictionary and direct
// encoding, and with it its positions. Other columns' positions are all
// taken when their row groups start, and a serial writer finishes each of
// them only as it writes its streams (writeDataArea): a stripe of many
// columns then does not hold every column's last chunk at once.
func finishesIndex(c columnWriter) bool {
	_, ok := c.(*bytesWriter)
	return ok
}

// stripeFull reports whether the stripe should be cut: at the row limit,
// or when what the writer holds for it reaches the stripe size. The chunk
// buffers count towards the size, but the stripe's data is given at least
// half of it, so that a configuration whose buffers alone come near the
// stripe size (very many columns and a large WithCompressionBlockSize)
// still writes stripes of a useful size.
//
// It also returns what the writer holds for the stripe.
func (w *Writer) stripeFull() (bool, int64, error) {
	h := w.held() // every time: it settles the streams (OutStream.Settle)
	if h.err != nil {
		return false, 0, h.err
	}
	if w.cfg.stripeRows > 0 && w.stripeRows >= w.cfg.stripeRows {
		return true, h.data + h.buffers, nil
	}
	return h.data+h.buffers >= w.cfg.stripeSize && h.data >= w.cfg.stripeSize/2, h.data + h.buffers, nil
}

// boundSink waits for the stripe being written in the background when the
// memory of its pages not yet written, held (what the open stripe holds)
// and the pool's free pages pass sinkBound: every page the writer has is
// one of these.
func (w *Writer) boundSink(held int64) error {
	busy, left := w.sink.busy()
	if !busy || left+held+w.pool.FreePages() <= w.sinkBound() {
		return nil
	}
	return w.sink.wait()
}

// holding is what the writer holds for the open stripe.
type holding struct {
	compressed bool
	block      int64 // compression block size

	data    int64 // stored chunks (as allocated), dictionaries, values in encoders
	buffers int64 // chunk buffers of the compressed streams
	err     error // the first stream's error
}

// held returns what the writer holds for the open stripe: the columns'
// streams and what the columns hold outside them, and the scratch stream.
func (w *Writer) held() holding {
	h := &w.hold // not a local: passed to the columns, it would escape
	*h = holding{compressed: w.cfg.compression != orc.CompressionNone, block: int64(w.cfg.blockSize)}
	h.addStream(w.scratch)
	for _, c := range w.cols {
		c.estimate(h)
	}
	return *h
}

// addStream adds what s holds: the pages of its stored chunks as
// allocated (the last one partly empty) and, when it is
// compressed and in use, up to two blocks of buffers: the uncompressed
// chunk being filled, allocated at the stream's first write, and the
// compressor's output, allocated at its first chunk.
//
// Columns take new streams for every stripe rather than Reset the old
// ones, which would keep each stream's largest buffers for good: what a
// stripe holds then starts from zero, and the dictionaries built in a
// stripe's first row group do not come on top of the previous stripe's
// buffers. The written stripe's streams give their pages and chunk buffers
// to the writer's pool (releaseStreams), which the new streams draw from:
// the memory is reused rather than allocated anew for every stripe, and
// the pool holds no more than one stripe's pages (it is trimmed at every
// stripe's end).
func (h *holding) addStream(s *format.OutStream) {
	stored, err := s.Settle()
	if err != nil && h.err == nil {
		h.err = err
	}
	h.data += stored
	if !h.compressed {
		return
	}
	switch {
	case stored > 0:
		h.buffers += 2 * h.block
	case s.Size() > 0:
		h.buffers += h.block
	}
}

// metadataStripeStats is the field number of Metadata.stripe_stats.
const metadataStripeStats protowire.Number = 1

// stripeStatsColStats is the field number of StripeStatistics.col_stats,
// footerTypes that of Footer.types and footerStatistics that of
// Footer.statistics.
const (
	stripeStatsColStats protowire.Number = 1
	footerTypes         protowire.Number = 4
	footerStatistics    protowire.Number = 7
)

// appendStats appends a's statistics to dst as field num of the message
// dst encodes (a repeated ColumnStatistics), as proto.Marshal writes an
// element of it. One column's statistics are encoded at a time, into dst
// itself (for a file of 100,000 columns, making all the messages before
// encoding held 80 MB, and making each one made 1.2 KB of garbage a
// column).
func appendStats(dst []byte, num protowire.Number, a *stats.Accumulator) ([]byte, error) {
	dst, at := beginMessage(dst, num)
	dst, err := a.AppendProto(dst)
	if err != nil {
		return nil, err
	}
	return endMessage(dst, at), nil
}

// beginMessage appends to dst the tag of field num, a message, and a byte
// for its length, and returns where the message starts: append the
// message, then endMessage puts its length.
func beginMessage(dst []byte, num protowire.Number) ([]byte, int) {
	dst = protowire.AppendTag(dst, num, protowire.BytesType)
	return append(dst, 0), len(dst) + 1
}

// endMessage puts the length of the message appended to dst from at on
// before it (beginMessage), moving the message up when the length takes
// more than the byte kept for it.
func endMessage(dst []byte, at int) []byte {
	n := len(dst) - at
	if n < 0x80 {
		dst[at-1] = byte(n)
		return dst
	}
	size := protowire.SizeVarint(uint64(n))
	dst = append(dst, make([]byte, size-1)...)
	copy(dst[at-1+size:], dst[at:at+n])
	protowire.AppendVarint(dst[:at-1], uint64(n))
	return dst
}

// appendType appends n's type to dst as a Footer.types element, as
// appendMessage(dst, footerTypes, format.TypeOf(n)) does. A leaf with no
// more than its kind (no attributes, not a char, varchar, decimal or
// geospatial type) is encoded without making the message: a wide file's
// footer made 160 bytes of garbage a column. So is a compound type
// without attributes (appendCompound).
func appendType(dst []byte, n *orc.Schema) ([]byte, error) {
	return appendTypeParts(dst, n, nil)
}

// appendTypeParts is appendType, calling part, when not nil, between
// pieces of a compound type, with dst so far: part may write it and
// return it emptied.
func appendTypeParts(dst []byte, n *orc.Schema, part func([]byte) ([]byte, error)) ([]byte, error) {
	switch n.Kind {
	case orc.Char, orc.Varchar, orc.Decimal, orc.Geometry, orc.Geography:
	default:
		if len(n.Attributes) > 0 {
			break
		}
		if len(n.Children) > 0 {
			return appendCompound(dst, n, part)
		}
		dst, at := beginMessage(dst, footerTypes)
		dst = protowire.AppendTag(dst, typeKind, protowire.VarintType)
		dst = protowire.AppendVarint(dst, uint64(n.Kind))
		return endMessage(dst, at), nil
	}
	return appendMessage(dst, footerTypes, format.TypeOf(n))
}

// appendCompound appends the type of n, a struct, list, map or union with
// children and no attributes, as proto.Marshal encodes its message: its
// kind, its children's ids (packed) and a struct's field names. The
// message's size is summed first, so that it goes out in pieces (part):
// the root of a file of 100,000 columns took a message of 400 KB and an
// encoding of 1.3 MB at Close.
func appendCompound(dst []byte, n *orc.Schema, part func([]byte) ([]byte, error)) ([]byte, error) {
	ids := 0
	for _, c := range n.Children {
		ids += protowire.SizeVarint(uint64(uint32(c.ID())))
	}
	size := 1 + protowire.SizeVarint(uint64(n.Kind)) + 1 + protowire.SizeBytes(ids)
	if n.Kind == orc.Struct {
		for _, name := range n.FieldNames {
			size += 1 + protowire.SizeBytes(len(name))
		}
	}
	dst = protowire.AppendTag(dst, footerTypes, protowire.BytesType)
	dst = protowire.AppendVarint(dst, uint64(size))
	dst = protowire.AppendTag(dst, typeKind, protowire.VarintType)
	dst = protowire.AppendVarint(dst, uint64(n.Kind))
	dst = protowire.AppendTag(dst, typeSubtypes, protowire.BytesType)
	dst = protowire.AppendVarint(dst, uint64(ids))
	var err error
	for i, c := range n.Children {
		dst = protowire.AppendVarint(dst, uint64(uint32(c.ID())))
		if part != nil && i%1024 == 1023 {
			if dst, err = part(dst); err != nil {
				return nil, err
			}
		}
	}
	if n.Kind != orc.Struct {
		return dst, nil
	}
	for i, name := range n.FieldNames {
		dst = protowire.AppendTag(dst, typeFieldNames, protowire.BytesType)
		dst = protowire.AppendString(dst, name)
		if part != nil && i%1024 == 1023 {
			if dst, err = part(dst); err != nil {
				return nil, err
			}
		}
	}
	return dst, nil
}

// The field numbers of Type.kind, Type.subtypes and Type.field_names.
const (
	typeKind       protowire.Number = 1
	typeSubtypes   protowire.Number = 2
	typeFieldNames protowire.Number = 3
)

// appendMessage appends m to dst as field num of the message dst encodes,
// as proto.Marshal writes an element of a repeated message field.
func appendMessage(dst []byte, num protowire.Number, m proto.Message) ([]byte, error) {
	dst = protowire.AppendTag(dst, num, protowire.BytesType)
	dst = protowire.AppendVarint(dst, uint64(proto.Size(m)))
	return proto.MarshalOptions{}.MarshalAppend(dst, m)
}

// writeMessage writes a protobuf message encoded and compressed with the
// file codec, and returns the bytes it took.
func (w *Writer) writeMessage(m proto.Message) (int, error) {
	raw, err := proto.Marshal(m)
	if err != nil {
		return 0, err
	}
	return w.writeCompressed(raw)
}

// writeCompressed writes the parts of raw, one after the other,
// compressed with the file codec (raw itself for codec NONE) and returns
// the bytes it took. The compressed chunks go to the file from the
// scratch stream's pages, which the writer keeps. (A message given in
// parts is not copied into one: a stripe footer of 100,000 columns took
// 2.4 MB more.)
func (w *Writer) writeCompressed(raw ...[]byte) (int, error) {
	w.startCompressed()
	for _, p := range raw {
		if err := w.writePart(p); err != nil {
			return 0, err
		}
	}
	return w.endCompressed()
}

// startCompressed starts a message written in parts (writePart),
// compressed with the file codec as one, which endCompressed ends.
func (w *Writer) startCompressed() {
	w.partLen = 0
	if w.cfg.compression != orc.CompressionNone {
		w.scratch.Reset()
	}
}

// writePart writes the next part of the message startCompressed started.
// p may be reused once it returns.
func (w *Writer) writePart(p []byte) error {
	if w.cfg.compression == orc.CompressionNone {
		w.partLen += len(p)
		return w.writeRaw(p)
	}
	_, err := w.scratch.Write(p)
	return err
}

// endCompressed ends the message startCompressed started and returns the
// bytes it took.
func (w *Writer) endCompressed() (int, error) {
	if w.cfg.compression == orc.CompressionNone {
		return w.partLen, nil
	}
	return w.flushOut(w.scratch)
}

// flushOut ends out's last chunk, writes its bytes to the file, and
// returns how many they are.
func (w *Writer) flushOut(out *format.OutStream) (int, error) {
	if err := out.Flush(); err != nil {
		return 0, err
	}
	n := int(out.Size())
	if _, err := out.WriteTo(countingWriter{w}); err != nil {
		return 0, w.err
	}
	return n, nil
}

// flushStripe writes the current stripe: index streams, data streams,
// stripe footer. With next, the columns get streams for the next stripe;
// Close has none to write (Reset gives them streams), and a file of many
// columns would make them for nothing: 1.2 KB a column of int.
func (w *Writer) flushStripe(next bool) error {
	if w.stripeRows == 0 {
		return nil
	}
	w.closing = !next
	if err := w.finishColumns(); err != nil {
		return err
	}
	if !next {
		w.dropGroupStats()
	}
	if err := w.settlePipeline(); err != nil {
		return err
	}
	w.groupOpen, w.groupRows = false, 0
	if w.sink != nil {
		// The stripe's bytes are gathered, not written, and go to the
		// io.Writer in the background once the footer is added.
		w.sink.begin(w.out, w.offset)
		defer func() {
			if w.sink.collecting {
				w.sink.abandon()
			}
		}()
	}
	start := w.offset
	footer := w.newStripeFooter()
	indexLen, err := w.writeIndexArea(footer, !next)
	if err != nil {
		return err
	}
	if w.pipe == nil { // settlePipeline trimmed
		// Before writeDataArea gives each column's pages to the pool.
		w.trimPool()
	}
	dataLen, err := w.writeDataArea(footer)
	if err != nil {
		return err
	}
	tz := ""
	if w.hasTimestamps() {
		tz = w.cfg.zone.String()
	}
	flen, err := w.writeStripeFooter(footer, w.hasTimestamps(), tz)
	if err != nil {
		return err
	}
	if w.sink != nil {
		// One stripe in flight: the last must be out before this one goes.
		if err := w.sink.wait(); err != nil {
			return err
		}
		w.sink.launch()
	}
	w.stripes = append(w.stripes, &orcpb.StripeInformation{
		Offset: proto.Uint64(uint64(start)), IndexLength: proto.Uint64(indexLen), DataLength: proto.Uint64(dataLen),
		FooterLength: proto.Uint64(uint64(flen)), NumberOfRows: proto.Uint64(uint64(w.stripeRows)),
	})
	w.rows += w.stripeRows
	w.stripeRows = 0
	w.releaseStreams()
	if w.sink != nil {
		w.fitReserve()
	}
	if next {
		w.dealFields()
		for _, c := range w.cols {
			c.resetStripe()
		}
	}
	return nil
}

// dropGroupStats lets go of the columns' row group statistics, merged into
// the stripe's: Close, which writes no more rows, does not hold them while
// it writes the last stripe and the tail (Reset makes them again).
func (w *Writer) dropGroupStats() {
	for _, c := range w.cols {
		c.base().group = nil
	}
}

// finishColumns ends the stripe's last row group in every column writer,
// and the stripe in those whose row index it completes (finishesIndex);
// a parallel writer's, which compress on their goroutines, in all.
func (w *Writer) finishColumns() error {
	if w.par != nil {
		return w.finishParallel()
	}
	if w.groupOpen {
		if err := endGroup(w.root); err != nil {
			return err
		}
	} else if w.cfg.stride == 0 {
		finishGroup(w.root) // merge the (single, unindexed) group into the stripe
	}
	return finishStripes(w.root, true)
}

// writeIndexArea writes the stripe's index area, each column's row index
// and then its bloom filters, adding their streams to footer; it returns
// the area's length. Each row index is dropped once written, and then
// the table of them (dropRowTable), with its room too when the stripe is
// the last.
func (w *Writer) writeIndexArea(footer *stripeFooter, last bool) (uint64, error) {
	var indexLen uint64
	if w.cfg.stride == 0 {
		return 0, nil
	}
	for id, c := range w.cols {
		b := c.base()
		w.indexBuf = b.appendRowIndex(w.indexBuf[:0])
		n, err := w.writeCompressed(w.indexBuf)
		if err != nil {
			return 0, err
		}
		b.dropEntries(last)
		for k := range b.numEntries() {
			b.entry(k).stats = nil // written
		}
		footer.addStream(orcpb.Stream_ROW_INDEX, id, n)
		indexLen += uint64(n)
		if b.bloomFilter() != nil {
			n, err := w.writeMessage(&orcpb.BloomFilterIndex{BloomFilter: b.rareState().blooms})
			if err != nil {
				return 0, err
			}
			footer.addStream(orcpb.Stream_BLOOM_FILTER_UTF8, id, n)
			indexLen += uint64(n)
		}
	}
	w.dropRowTable(last)
	return indexLen, nil
}

// writeDataArea writes the stripe's data streams, adding them and the
// columns' encodings to footer, appends the stripe's StripeStatistics
// message to w.stripeStats a column at a time (appendStats), and merges
// each column's stripe statistics into its file statistics. It returns
// the area's length.
func (w *Writer) writeDataArea(footer *stripeFooter) (uint64, error) {
	var dataLen uint64
	// A Metadata message is its repeated field's elements back to back,
	// each with its tag and length, so appending them gives the bytes
	// proto.Marshal would. Kept encoded: as messages, 200 columns'
	// statistics take some 65 KB a stripe, which over hundreds of stripes
	// would outgrow a stripe's buffers; encoded they take a few KB.
	if cap(w.stripeStats) == 0 {
		w.stripeStats = make([]byte, 0, len(w.cols)*32) // an integer's statistics take 30 bytes at most
	}
	var at int
	w.stripeStats, at = beginMessage(w.stripeStats, metadataStripeStats)
	for id, c := range w.cols {
		if w.par == nil && !finishesIndex(c) { // see finishColumns
			if err := c.finishStripe(); err != nil {
				return 0, err
			}
		}
		colBytes, err := w.writeColumnStreams(c, id, footer)
		if err != nil {
			return 0, err
		}
		dataLen += colBytes
		enc := c.encoding()
		b := c.base()
		if b.bloomFilter() != nil {
			enc = proto.CloneOf(enc) // direct() and directV2() are shared
			enc.BloomEncoding = proto.Uint32(1)
		}
		if err := footer.addEncoding(enc); err != nil {
			return 0, err
		}
		b.stripeStats().SetBytesOnDisk(colBytes)
		if w.stripeStats, err = appendStats(w.stripeStats, stripeStatsColStats, b.stripe); err != nil {
			return 0, err
		}
		b.addStripeStats()
	}
	w.stripeStats = endMessage(w.stripeStats, at)
	if w.spare != nil {
		w.spare.Drop()
		w.spare = nil
	}
	return dataLen, nil
}

// writeColumnStreams writes column id's data streams, adding them to
// footer, and returns their length.
func (w *Writer) writeColumnStreams(c columnWriter, id int, footer *stripeFooter) (uint64, error) {
	var colBytes uint64
	w.streamList = c.appendDataStreams(w.streamList[:0])
	for _, s := range w.streamList {
		if s.out == nil { // no byte (lazySink)
			footer.addStream(s.kind, id, 0)
			continue
		}
		n := s.out.Size()
		if w.sink != nil {
			if err := w.sink.detach(s.out); err != nil {
				return 0, err
			}
			w.offset += n
		} else {
			if _, err := s.out.WriteTo(countingWriter{w}); err != nil {
				return 0, w.err
			}
			w.dropWritten(c.base(), s.out)
		}
		footer.addStream(s.kind, id, int(n))
		colBytes += uint64(n)
	}
	clear(w.streamList)
	c.base().forgetStreams()
	return colBytes, nil
}

// dropWritten lets go of a written stream of b. Its pages go to the pool
// now, not after the stripe: a stripe of many columns holding a few bytes
// each does not hold them all at once. A serial writer keeps the stream
// of a column whose one stream is made at its first byte (lazySink),
// emptied with its buffers, as the next such column's (spare), until the
// stripe is written: a file of many columns made a stream, its bookkeeping,
// a chunk buffer and a page for each at Close, some 370 bytes of garbage a
// column while the writer held the most.
func (w *Writer) dropWritten(b *colBase, out *format.OutStream) {
	if w.par != nil || w.pipe != nil || !b.lazyStreams() {
		out.Drop()
		return
	}
	if w.spare != nil {
		w.spare.Drop()
	}
	out.Reset()
	w.spare = out
}

// settlePipeline stores the chunks the pipeline compressed for the
// stripe and puts the real offsets into the row index positions.
func (w *Writer) settlePipeline() error {
	if w.pipe == nil {
		return nil
	}
	if err := w.pipe.Finish(); err != nil {
		return err
	}
	// Let the pages and buffers the stripe did not use go before it is
	// written (releaseStreams would, after); the chunk buffers the
	// pipeline's chunks went round in stay for the next stripe.
	w.trimPool()
	for _, c := range w.cols {
		b := c.base()
		for k := range b.numEntries() {
			if err := w.pipe.Resolve(b.entryPos(b.entry(k))); err != nil {
				return err
			}
		}
	}
	return nil
}

// releaseStreams gives the pages and buffers of the stripe's streams to
// the pool (those writeDataArea has not given already), and drops them:
// each stripe has streams of its own (see holding.addStream).
func (w *Writer) releaseStreams() {
	for _, c := range w.cols {
		b := c.base()
		if out := b.presentStreamOut(); out != nil {
			out.Drop()
		}
		w.streamList = c.appendDataStreams(w.streamList[:0])
		for _, s := range w.streamList {
			if s.out != nil {
				s.out.Drop()
			}
		}
		clear(w.streamList)
	}
	if w.pipe != nil {
		w.pipe.Forget()
	}
}

// trimPool drops what the pool held unused through the stripe. With stripes
// written in the background it keeps up to a quarter of a stripe of small
// pages: what the next stripe's streams take while this one is written,
// before its pages come back. Dropped at every stripe's end, they were
// allocated again at every stripe's start: 15-20 MiB of a 64 MiB stripe of
// the bench's lineitem on two goroutines (fitReserve then keeps fewer when
// the stripe leaves less room).
func (w *Writer) trimPool() {
	if w.sink != nil {
		w.pool.TrimTo(w.cfg.stripeSize / 4)
		return
	}
	w.pool.Trim()
}

// fitReserve trims the free pages the pool keeps for the next stripe, once
// the last has gone to the sink, to half the room that stripe's pages leave
// of sinkBound: the next stripe starts in the kept pages, and has the other
// half to grow into, before it waits for the last. (Kept to a quarter
// stripe regardless, they could fill the room by themselves, and a slow
// io.Writer would then make the next stripe wait from its first batch.)
func (w *Writer) fitReserve() {
	busy, left := w.sink.busy()
	if !busy {
		return
	}
	w.pool.TrimPagesTo(max(0, (w.sinkBound()-left)/2))
}

// sinkBound is what the pages of a stripe being written in the
// background, what the open stripe holds and the pool's free pages may
// come to together: 1.25 x the stripe size. The chunk buffers the pool
// keeps between stripes are not counted, as the stripe size does not
// count them (see WithParallelism).
func (w *Writer) sinkBound() int64 { return w.cfg.stripeSize + w.cfg.stripeSize/4 }

func (w *Writer) hasTimestamps() bool {
	has := false
	w.schema.Walk(func(n *orc.Schema) { has = has || n.Kind == orc.Timestamp || n.Kind == orc.TimestampInstant })
	return has
}

// countingWriter passes stream bytes to the file, counting them.
type countingWriter struct{ w *Writer }

func (c countingWriter) Write(p []byte) (int, error) {
	if err := c.w.writeRaw(p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// stripeFooter is a StripeFooter message encoded as it is built, a
// stream and a column's encoding at a time, with the bytes proto.Marshal
// gives the message (its fields in number order): as messages, a stripe's
// streams and encodings took 200 bytes a column in files of many.
//
// With a codec, the streams go to out, compressed, in parts of footerPart
// bytes as they are added (the footer is written after the data, which
// adds most of them): a stripe of 100,000 columns held 2.4 MB of them,
// their chunks take a fraction of that.
type stripeFooter struct {
	streams, columns []byte            // fields 1 and 2 (streams: those not in out yet)
	out              *format.OutStream // with a codec: the streams so far, compressed
}

// The field numbers of StripeFooter and Stream.
const (
	stripeFooterStreams  protowire.Number = 1
	stripeFooterColumns  protowire.Number = 2
	stripeFooterTimezone protowire.Number = 3
	streamKind           protowire.Number = 1
	streamColumn         protowire.Number = 2
	streamLength         protowire.Number = 3
)

// newStripeFooter returns a stripeFooter with room for a data stream (and
// with an index, a row index stream) and an encoding of each of cols
// columns, as most columns of a wide file have: grown from a few bytes, a
// footer of 100,000 columns made five times its size of garbage.
func (w *Writer) newStripeFooter() *stripeFooter {
	cols := len(w.cols)
	perCol := streamBytes
	if w.cfg.stride > 0 {
		perCol *= 2
	}
	f := &stripeFooter{columns: make([]byte, 0, cols*encodingBytes)}
	if w.cfg.compression == orc.CompressionNone {
		f.streams = make([]byte, 0, cols*perCol)
		return f
	}
	f.out = w.newStream()
	f.streams = make([]byte, 0, min(cols*perCol, footerPart+2*streamBytes))
	return f
}

// writeStripeFooter writes f, with the writer's time zone when hasTZ, and
// returns the bytes it took.
func (w *Writer) writeStripeFooter(f *stripeFooter, hasTZ bool, tz string) (int, error) {
	streams, columns := f.parts(hasTZ, tz)
	if f.out == nil {
		return w.writeCompressed(streams, columns)
	}
	defer f.out.Drop()
	f.out.Write(streams) // an error stays in out: Flush returns it
	f.out.Write(columns)
	return w.flushOut(f.out)
}

// streamBytes is what a stream of a column id under 2^21 and a length
// under 2^21 takes in a StripeFooter; encodingBytes what a DIRECT_V2
// encoding does.
const (
	streamBytes   = 2 + 2 + 4 + 4
	encodingBytes = 4
)

// addStream adds a stream of n bytes of column col.
func (f *stripeFooter) addStream(kind orcpb.Stream_Kind, col, n int) {
	var buf [32]byte
	m := protowire.AppendTag(buf[:0], streamKind, protowire.VarintType)
	m = protowire.AppendVarint(m, uint64(kind))
	m = protowire.AppendTag(m, streamColumn, protowire.VarintType)
	m = protowire.AppendVarint(m, uint64(uint32(col)))
	m = protowire.AppendTag(m, streamLength, protowire.VarintType)
	m = protowire.AppendVarint(m, uint64(n))
	f.streams = protowire.AppendTag(f.streams, stripeFooterStreams, protowire.BytesType)
	f.streams = protowire.AppendBytes(f.streams, m)
	if f.out != nil && len(f.streams) >= footerPart {
		f.out.Write(f.streams) // an error stays in out: Flush returns it
		f.streams = f.streams[:0]
	}
}

// addEncoding adds the next column's encoding.
func (f *stripeFooter) addEncoding(enc *orcpb.ColumnEncoding) error {
	f.columns = protowire.AppendTag(f.columns, stripeFooterColumns, protowire.BytesType)
	f.columns = protowire.AppendVarint(f.columns, uint64(proto.Size(enc)))
	var err error
	f.columns, err = proto.MarshalOptions{}.MarshalAppend(f.columns, enc)
	return err
}

// parts returns the message in two parts to write one after the other,
// with the writer's time zone when hasTZ.
func (f *stripeFooter) parts(hasTZ bool, tz string) ([]byte, []byte) {
	if hasTZ {
		f.columns = protowire.AppendTag(f.columns, stripeFooterTimezone, protowire.BytesType)
		f.columns = protowire.AppendString(f.columns, tz)
	}
	return f.streams, f.columns
}

// Close writes the last stripe and the file tail: metadata (stripe
// statistics), footer, postscript and its length. It does not close the
// underlying writer. Calling Close again returns nil.
func (w *Writer) Close() error {
	if w.err != nil {
		if w.sink != nil {
			w.sink.wait() // the stripe in flight, if any: its error comes after w.err
		}
		return w.err
	}
	if w.closed {
		return nil
	}
	if err := w.checkSchema(true); err != nil {
		return err
	}
	if err := w.flushStripe(false); err != nil {
		w.err = err
		return err
	}
	if w.sink != nil {
		if err := w.sink.wait(); err != nil {
			w.err = err
			return err
		}
	}
	if err := w.writeTail(); err != nil {
		w.err = err
		return err
	}
	w.closed = true
	return nil
}

// Statistics returns the file-level statistics of column id, as the
// footer holds them, once Close has returned nil; ok is false before then
// and for an id out of range. String bounds are whole, not cut to the
// footer's 1,024 bytes.
func (w *Writer) Statistics(id int) (c stats.Column, ok bool) {
	if !w.closed || id < 0 || id >= len(w.cols) {
		return stats.Column{}, false
	}
	return w.cols[id].base().fileStats().Column(), true
}

func (w *Writer) writeTail() error {
	metaLen, err := w.writeCompressed(w.stripeStats)
	if err != nil {
		return err
	}
	flen, err := w.writeFooter(metaLen)
	if err != nil {
		return err
	}
	ps := &orcpb.PostScript{
		FooterLength:   proto.Uint64(uint64(flen)),
		Compression:    orcpb.CompressionKind(w.cfg.compression).Enum(),
		Version:        format.Version0_12.Numbers(),
		MetadataLength: proto.Uint64(uint64(metaLen)),
		WriterVersion:  proto.Uint32(uint32(WriterVersion)),
		Magic:          proto.String(format.Magic),
	}
	if w.cfg.compression != orc.CompressionNone {
		ps.CompressionBlockSize = proto.Uint64(uint64(w.cfg.blockSize))
	}
	pdata, err := proto.Marshal(ps)
	if err != nil {
		return err
	}
	if len(pdata) > 255 {
		return fmt.Errorf("orc: postscript of %d bytes exceeds 255", len(pdata))
	}
	return w.writeRaw(append(pdata, byte(len(pdata))))
}

// writeFooter writes the file footer and returns the bytes it took. It is
// encoded in parts, its fields in number order as proto.Marshal writes
// them: those before the types, the types a column at a time, those
// between, the statistics a column at a time, and those after; and
// written in parts of footerPart bytes or so (writePart), not made whole:
// a footer of 100,000 integer columns took 4.7 MB.
func (w *Writer) writeFooter(metaLen int) (int, error) {
	w.startCompressed()
	buf, err := proto.MarshalOptions{}.MarshalAppend(w.indexBuf[:0], &orcpb.Footer{
		HeaderLength:  proto.Uint64(uint64(len(format.Magic))),
		ContentLength: proto.Uint64(uint64(w.offset - int64(metaLen))),
		Stripes:       w.stripes,
	})
	if err != nil {
		return 0, err
	}
	part := func(b []byte) ([]byte, error) { return w.footerPart(b, false) }
	for _, c := range w.cols {
		if buf, err = appendTypeParts(buf, c.base().node, part); err != nil {
			return 0, err
		}
		if buf, err = w.footerPart(buf, false); err != nil {
			return 0, err
		}
	}
	buf, err = proto.MarshalOptions{}.MarshalAppend(buf, &orcpb.Footer{
		Metadata:     w.userMeta,
		NumberOfRows: proto.Uint64(uint64(w.rows)),
	})
	if err != nil {
		return 0, err
	}
	for _, c := range w.cols {
		if buf, err = appendStats(buf, footerStatistics, c.base().fileStats()); err != nil {
			return 0, err
		}
		if buf, err = w.footerPart(buf, false); err != nil {
			return 0, err
		}
	}
	buf, err = proto.MarshalOptions{}.MarshalAppend(buf, &orcpb.Footer{
		RowIndexStride:  proto.Uint32(uint32(w.cfg.stride)),
		Writer:          proto.Uint32(format.WriterOrcgo),
		Calendar:        orcpb.CalendarKind_PROLEPTIC_GREGORIAN.Enum(),
		SoftwareVersion: proto.String(w.cfg.softwareVer),
	})
	if err != nil {
		return 0, err
	}
	if buf, err = w.footerPart(buf, true); err != nil {
		return 0, err
	}
	w.indexBuf = buf
	return w.endCompressed()
}

// footerPart writes buf (writePart) once it holds footerPart bytes, or
// when last, and returns it emptied if it wrote it.
func (w *Writer) footerPart(buf []byte, last bool) ([]byte, error) {
	if len(buf) < footerPart && !last {
		return buf, nil
	}
	if err := w.writePart(buf); err != nil {
		return nil, err
	}
	return buf[:0], nil
}

// footerPart is the size of the parts writeFooter writes.
const footerPart = 64 << 10

// WriterVersion is the writer version orcgo records: it honours every fix up
// to ORC-203 (UTF-8 string statistics, real column names, correct decimal
// PRESENT streams, BLOOM_FILTER_UTF8, UTC timestamp statistics, correct
// decimal statistics, long strings truncated to bounds). It claims no
// column encryption because it writes none.
const WriterVersion = format.WriterORC203
