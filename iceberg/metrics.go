package iceberg

import (
	"errors"
	"fmt"

	ice "github.com/apache/iceberg-go"
	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/stats"
)

// Metrics is what a data file's manifest entry says of it, keyed by field
// id. A column a map leaves out is unknown, never empty: its mode keeps no
// such metric, or the file did not record what it needs.
type Metrics struct {
	RecordCount int64
	FileSize    int64
	ColumnSizes map[int]int64  // bytes of the column's streams
	ValueCounts map[int]int64  // values, nulls included
	NullCounts  map[int]int64  // null values
	NaNCounts   map[int]int64  // NaN values of float and double columns
	LowerBounds map[int][]byte // single-value serialization
	UpperBounds map[int][]byte // single-value serialization
}

func newMetrics(rows, size int64) *Metrics {
	return &Metrics{RecordCount: rows, FileSize: size,
		ColumnSizes: map[int]int64{}, ValueCounts: map[int]int64{}, NullCounts: map[int]int64{},
		NaNCounts: map[int]int64{}, LowerBounds: map[int][]byte{}, UpperBounds: map[int][]byte{}}
}

// FileMetrics returns the metrics of an ORC data file whose columns carry
// field ids (ToORC), from its footer's statistics under the modes of cfg
// (nil: truncate(16) everywhere). NaN counts need the values, so only the
// Writer gives them; binary bounds likewise, as ORC records none.
func FileMetrics(r *reader.Reader, cfg *MetricsConfig) (*Metrics, error) {
	return computeMetrics(r.Schema(), r.NumRows(), r.Size(), r.Statistics, nil, cfg)
}

// computeMetrics walks the file's schema from the root, knowing how many
// value slots each node has: the rows for top-level columns and struct
// fields, and a list's or map's total children for what lies below it.
func computeMetrics(s *orc.Schema, rows, size int64, statsOf func(int) (stats.Column, bool),
	extra *collector, cfg *MetricsConfig) (*Metrics, error) {
	if s == nil || s.Kind != orc.Struct {
		return nil, errors.New("iceberg: an ORC data file's schema must be a struct")
	}
	m := newMetrics(rows, size)
	mc := metricsWalk{m: m, statsOf: statsOf, extra: extra, cfg: cfg}
	for _, c := range s.Children {
		if err := mc.node(c, rows, true); err != nil {
			return nil, err
		}
	}
	return m, nil
}

type metricsWalk struct {
	m       *Metrics
	statsOf func(int) (stats.Column, bool)
	extra   *collector
	cfg     *MetricsConfig
}

// node records the metrics of n and its subtree; slots is how many values
// n has (nulls included), known false when a parent's statistics did not
// say.
func (mw *metricsWalk) node(n *orc.Schema, slots int64, known bool) error {
	c, ok := mw.statsOf(n.ID())
	switch n.Kind {
	case orc.Struct:
		for _, ch := range n.Children {
			if err := mw.node(ch, slots, known); err != nil {
				return err
			}
		}
		return nil
	case orc.List, orc.Map:
		child, childKnown := int64(0), ok && c.Collection != nil
		if childKnown {
			child = int64(c.Collection.TotalChildren)
		}
		for _, ch := range n.Children {
			if err := mw.node(ch, child, childKnown); err != nil {
				return err
			}
		}
		return nil
	case orc.Union:
		return fmt.Errorf("%w: column %d is a union", ErrUnsupportedType, n.ID())
	}
	id, hasID, err := FieldID(n)
	if err != nil || !hasID {
		return fmt.Errorf("iceberg: data file column %d has no usable %s: %v", n.ID(), AttrID, err)
	}
	t, err := primitiveFromORC(fmt.Sprint(n.ID()), n)
	if err != nil {
		return err
	}
	mode := mw.cfg.Mode(id)
	if !mode.counts() {
		return nil
	}
	mw.counts(id, n, c, ok, slots, known)
	mw.bounds(id, t, n, c, ok, mode)
	return nil
}

func (mw *metricsWalk) counts(id int, n *orc.Schema, c stats.Column, ok bool, slots int64, known bool) {
	if ok && c.BytesOnDisk > 0 {
		mw.m.ColumnSizes[id] = int64(c.BytesOnDisk)
	}
	if ok && known && int64(c.NumValues) <= slots {
		mw.m.ValueCounts[id] = slots
		mw.m.NullCounts[id] = slots - int64(c.NumValues)
	}
	if mw.extra != nil && (n.Kind == orc.Float || n.Kind == orc.Double) {
		if st := mw.extra.cols[n.ID()]; st != nil {
			mw.m.NaNCounts[id] = st.nans
		}
	}
}

func (mw *metricsWalk) bounds(id int, t ice.Type, n *orc.Schema, c stats.Column, ok bool, mode MetricsMode) {
	keep, length := mode.bounds()
	if !keep {
		return
	}
	var lo, hi []byte
	if ok {
		lo, hi = boundsFromStats(t, c)
	}
	if st := mw.extra.get(n.ID()); st != nil && lo == nil && hi == nil {
		switch {
		case st.hasF:
			lo, hi = floatBounds(t, st.fmin, st.fmax)
		case st.hasB:
			lo, hi = st.bmin, st.bmax
		}
	}
	text, cut := false, false
	switch t.(type) {
	case ice.StringType:
		text, cut = true, true
	case ice.BinaryType:
		cut = true
	}
	if cut {
		lo = truncateLower(lo, length, text)
		if hi != nil {
			if h, ok := truncateUpper(hi, length, text); ok {
				hi = h
			} else {
				hi = nil
			}
		}
	}
	if lo != nil {
		mw.m.LowerBounds[id] = append([]byte{}, lo...)
	}
	if hi != nil {
		mw.m.UpperBounds[id] = append([]byte{}, hi...)
	}
}

// get returns the column's valueStats; nil for a nil collector.
func (c *collector) get(id int) *valueStats {
	if c == nil {
		return nil
	}
	return c.cols[id]
}
