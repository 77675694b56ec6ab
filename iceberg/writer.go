package iceberg

import (
	"errors"
	"io"

	ice "github.com/apache/iceberg-go"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/countio"
	"github.com/orcgo/orc/writer"
)

// Writer writes one ORC data file of an Iceberg table: orcgo's writer over
// the table's schema with field ids (ToORC), which also keeps what ORC's
// statistics lack (NaN counts, float bounds beside NaNs, binary bounds) so
// that Close can return the file's metrics. Like orcgo's writer it is
// single-goroutine and does not close its destination.
type Writer struct {
	w      *writer.Writer
	out    *countio.Writer
	schema *orc.Schema
	col    *collector
	cfg    *MetricsConfig
	rows   int64
}

// NewWriter starts a data file of table schema s on out, recording metrics
// under cfg (nil: truncate(16) everywhere). opts are orcgo writer options.
func NewWriter(out io.Writer, s *ice.Schema, cfg *MetricsConfig, opts ...writer.Option) (*Writer, error) {
	if out == nil {
		return nil, errors.New("iceberg: NewWriter needs a destination")
	}
	o, err := ToORC(s)
	if err != nil {
		return nil, err
	}
	cw := &countio.Writer{W: out}
	w, err := writer.NewWriter(cw, o, opts...)
	if err != nil {
		return nil, err
	}
	return &Writer{w: w, out: cw, schema: o, col: newCollector(o), cfg: cfg}, nil
}

// Schema returns the file's ORC schema: batches given to Write have it.
func (w *Writer) Schema() *orc.Schema { return w.schema }

// Write adds the rows of b, a batch of Schema().
func (w *Writer) Write(b *orc.Batch) error {
	if b == nil {
		return errors.New("iceberg: Write of a nil batch")
	}
	if len(b.Cols) != len(w.schema.Children) {
		return errors.New("iceberg: batch does not have the data file's columns")
	}
	if err := w.w.Write(b); err != nil {
		return err
	}
	w.col.add(w.schema, b)
	w.rows += int64(b.NumRows)
	return nil
}

// BytesWritten returns the bytes written to the destination so far: a
// stripe reaches it when full, so a file grows in steps of a stripe.
func (w *Writer) BytesWritten() int64 { return w.out.N }

// Close writes the file's tail and returns its metrics. It does not close
// the destination.
func (w *Writer) Close() (*Metrics, error) {
	if err := w.w.Close(); err != nil {
		return nil, err
	}
	return computeMetrics(w.schema, w.rows, w.out.N, w.w.Statistics, w.col, w.cfg)
}
