package writer

// Column-parallel writing (WithParallelism). The root struct's fields are
// dealt into groups, the costliest first, each to the group with the least
// cost so far; a field's cost is the time its writes took (halved at each
// stripe, so it follows the data), or a guess from its types before the
// first stripe ends. Each group owns a compressor, which the streams of its
// fields are created with, and for each run of rows every busy group runs on
// a goroutine of its own while Write waits for them. Nothing is shared
// between fields while they write: each has its own encoders, statistics,
// bloom filters and streams. Groups are dealt again only between stripes,
// when every stream is created anew.

import (
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/internal/fanout"
)

// fieldGroups is the state of column-parallel writing.
type fieldGroups struct {
	comps []format.Compressor // per group; comps[0] is the writer's own
	group []int               // per root field
}

// setupParallel prepares column-parallel writing when it is asked for and
// the root is a struct of at least two fields.
func (w *Writer) setupParallel() error {
	sw, ok := w.root.(*structWriter)
	if !ok || w.cfg.parallel < 2 || len(sw.fields) < 2 {
		return nil
	}
	n := min(w.cfg.parallel, len(sw.fields))
	fg := &fieldGroups{comps: make([]format.Compressor, n), group: make([]int, len(sw.fields))}
	fg.comps[0] = w.comp
	if w.cfg.compression != orc.CompressionNone {
		for g := 1; g < n; g++ {
			c, err := format.NewBlockCompressor(w.cfg.compression, w.cfg.level, w.cfg.blockSize)
			if err != nil {
				return err
			}
			fg.comps[g] = c
		}
	}
	w.par = fg
	w.dealFields()
	return nil
}

// dealFields assigns the root's fields to groups and gives every column
// its group's compressor. Call it only where the columns' streams are
// created next (before resetStripe).
func (w *Writer) dealFields() {
	fg := w.par
	if fg == nil {
		return
	}
	sw := w.root.(*structWriter)
	cost := make([]float64, len(sw.fields))
	timed := true
	for i, f := range sw.fields {
		cost[i] = float64(f.base().nanos)
		timed = timed && cost[i] > 0
	}
	if !timed {
		for i, f := range sw.fields {
			cost[i] = guessCost(f.base().node)
		}
	}
	fanout.Deal(cost, len(fg.comps), fg.group)
	for i, f := range sw.fields {
		setComp(f, fg.comps[fg.group[i]])
	}
	for _, f := range sw.fields {
		f.base().nanos /= 2
	}
}

// guessCost is a field's relative cost before any has been measured.
func guessCost(n *orc.Schema) float64 {
	switch n.Kind {
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		return 4
	case orc.Decimal, orc.Timestamp, orc.TimestampInstant:
		return 2
	case orc.Struct, orc.List, orc.Map, orc.Union:
		c := 1.0
		for _, k := range n.Children {
			c += guessCost(k)
		}
		return c
	}
	return 1
}

// setComp gives c and its children the compressor comp.
func setComp(c columnWriter, comp format.Compressor) {
	b := c.base()
	b.comp = comp
	for _, k := range b.kids {
		setComp(k, comp)
	}
}

// writeFields writes rows [start, end) of the root's fields, each group on
// its own goroutine, and returns the error of the first failing field in
// field order.
func (w *Writer) writeFields(sw *structWriter, cols []orc.Vector, start, end int) error {
	fg := w.par
	run := func(g int) (int, error) {
		for i, f := range sw.fields {
			if fg.group[i] != g {
				continue
			}
			t0 := time.Now()
			if err := f.write(cols[i], start, end, nil); err != nil {
				return i, err
			}
			f.base().nanos += int64(time.Since(t0)) + 1
		}
		return 0, nil
	}
	return fanout.Run(len(fg.comps), func(int) bool { return true }, run)
}
