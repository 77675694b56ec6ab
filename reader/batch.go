package reader

import (
	"fmt"
	"io"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
)

// ScanStats counts the work a BatchReader did.
type ScanStats struct {
	StripesRead int   // stripes whose data was read
	ReadCalls   int   // ReadAt calls for stripe data (footers excluded)
	BytesRead   int64 // bytes fetched by those calls
	RowsDecoded int64 // rows decoded into batches
}

// BatchReader decodes the rows of a file, batch by batch, into reusable
// typed vectors. It belongs to one goroutine.
type BatchReader struct {
	r        *Reader
	cfg      scanConfig
	selected []bool // per file column id
	root     columnReader
	schema   *orc.Schema // projected schema of the batches
	dec      format.Decompressor

	stripe    int   // next stripe to start
	remaining int64 // rows left in the current stripe
	bytes     stripeBytes
	ctx       stripeCtx
	stats     ScanStats
	err       error
}

// NewBatchReader starts a scan of the file.
func (r *Reader) NewBatchReader(opts ...ScanOption) (*BatchReader, error) {
	cfg := defaultScanConfig()
	for _, o := range opts {
		if err := o(&cfg); err != nil {
			return nil, err
		}
	}
	sel, err := r.selectColumns(cfg)
	if err != nil {
		return nil, err
	}
	root, proj, err := r.newColumnReader(r.tail.Schema, sel)
	if err != nil {
		return nil, err
	}
	proj.Assign()
	br := &BatchReader{r: r, cfg: cfg, selected: sel, root: root, schema: proj}
	if r.tail.Compression != orc.CompressionNone {
		if br.dec, err = format.NewDecompressor(r.tail.Compression); err != nil {
			return nil, err
		}
	}
	return br, nil
}

// selectColumns marks the file columns a scan reads: the named subtrees and
// their ancestors, or every column outside encrypted subtrees.
func (r *Reader) selectColumns(cfg scanConfig) ([]bool, error) {
	schema := r.tail.Schema
	sel := make([]bool, schema.MaxID()+1)
	if cfg.allCols {
		for id := range sel {
			sel[id] = !r.IsEncrypted(id)
		}
		sel[0] = true
		return sel, nil
	}
	sel[0] = true
	for _, name := range cfg.columns {
		node, path := findPath(schema, name)
		if node == nil {
			return nil, fmt.Errorf("orc: no column %q in schema %s", name, schema)
		}
		for id := node.ID(); id <= node.MaxID(); id++ {
			if r.IsEncrypted(id) {
				return nil, fmt.Errorf("%w: column %q (id %d) is encrypted", orc.ErrUnsupported, name, id)
			}
			sel[id] = true
		}
		for _, a := range path {
			sel[a.ID()] = true
		}
	}
	return sel, nil
}

// findPath resolves a dotted name and returns the node and its ancestors.
func findPath(root *orc.Schema, name string) (*orc.Schema, []*orc.Schema) {
	node := root.Find(name)
	if node == nil {
		return nil, nil
	}
	var path []*orc.Schema
	var walk func(n *orc.Schema) bool
	walk = func(n *orc.Schema) bool {
		if n == node {
			return true
		}
		for _, c := range n.Children {
			if node.ID() >= c.ID() && node.ID() <= c.MaxID() {
				path = append(path, n)
				return walk(c)
			}
		}
		return false
	}
	walk(root)
	return node, path
}

// Schema returns the schema of the batches: the file's, cut to the selected
// columns.
func (br *BatchReader) Schema() *orc.Schema { return br.schema }

// NewBatch returns a batch shaped for this reader with room for its batch
// size.
func (br *BatchReader) NewBatch() *orc.Batch { return orc.NewBatch(br.schema, br.cfg.batchSize) }

// Stats returns the work done so far.
func (br *BatchReader) Stats() ScanStats { return br.stats }

// Next fills b with the next rows, at most the batch size and never across a
// stripe boundary. It returns io.EOF when no rows remain. b must come from
// NewBatch (or have the same schema).
func (br *BatchReader) Next(b *orc.Batch) error {
	if br.err != nil {
		return br.err
	}
	for br.remaining == 0 {
		if br.stripe >= len(br.r.tail.Footer.GetStripes()) {
			return io.EOF
		}
		if err := br.startStripe(br.stripe); err != nil {
			br.err = err
			return err
		}
		br.stripe++
	}
	n := int64(br.cfg.batchSize)
	if n > br.remaining {
		n = br.remaining
	}
	b.Reset()
	if err := br.decode(b, int(n)); err != nil {
		br.err = err
		return err
	}
	b.NumRows = int(n)
	br.remaining -= n
	br.stats.RowsDecoded += n
	return nil
}

func (br *BatchReader) decode(b *orc.Batch, n int) error {
	if sr, ok := br.root.(*structReader); ok {
		// The batch's columns are the root struct's fields.
		var nulls orc.Nulls
		if _, err := sr.readNulls(&nulls, n, nil); err != nil {
			return err
		}
		var mask []bool
		if len(nulls.Nulls) > 0 {
			mask = nulls.Nulls
		}
		for i, f := range sr.fields {
			if err := f.next(b.Cols[i], n, mask); err != nil {
				return err
			}
		}
		return nil
	}
	return br.root.next(b.Cols[0], n, nil)
}

// startStripe reads stripe i's footer and the selected columns' streams.
func (br *BatchReader) startStripe(i int) error {
	r := br.r
	meta, err := r.readStripeMeta(i)
	if err != nil {
		return err
	}
	var locs []streamLoc
	for _, s := range meta.footer.GetStreams() {
		col := int(s.GetColumn())
		if col < len(br.selected) && br.selected[col] && !isIndexStream(s.GetKind()) && s.GetKind() <= orcpb.Stream_SECONDARY {
			locs = append(locs, meta.streams[streamKey{col, s.GetKind()}])
		}
	}
	if err := r.fetch(&br.bytes, locs, br.cfg.coalesce, i); err != nil {
		return err
	}
	br.stats.StripesRead++
	br.stats.ReadCalls = br.bytes.reads
	br.stats.BytesRead = br.bytes.read
	zone, err := r.writerZone(meta.footer.GetWriterTimezone())
	if err != nil {
		return err
	}
	// Any stream yields at most ~520 values per decompressed byte (boolean
	// RLE runs), and decompression inflates a chunk to at most a block.
	stripeBytes := meta.info.Length()
	if r.tail.Compression != orc.CompressionNone {
		stripeBytes = (stripeBytes/3 + 1) * int64(r.tail.BlockSize)
	}
	br.ctx = stripeCtx{r: r, meta: meta, bytes: &br.bytes, dec: br.dec, zone: zone,
		maxValues: 1024*stripeBytes + 1<<16}
	if meta.info.NumRows > br.ctx.maxValues {
		return &orc.CorruptError{Offset: meta.info.Offset, Stripe: i, Column: -1, Stream: "footer",
			Msg: fmt.Sprintf("stripe of %d bytes claims %d rows", stripeBytes, meta.info.NumRows)}
	}
	if err := br.root.startStripe(&br.ctx); err != nil {
		return err
	}
	br.remaining = meta.info.NumRows
	return nil
}
