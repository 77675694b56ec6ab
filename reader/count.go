package reader

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
)

// CountStats is what Count found and how.
type CountStats struct {
	Rows int64 // rows for which the predicate is TRUE
	// StatsRows are the rows of stripes the statistics decided for every
	// row (all match, or none does); ScannedRows the rows of the other
	// stripes, read and filtered exactly.
	StatsRows, ScannedRows int64
	// StripesDecided counts the stripes decided by statistics (the file's
	// or the stripe's own); StripesScanned the others.
	StripesDecided, StripesScanned int
}

// Count returns the number of rows for which e is TRUE. A stripe whose
// statistics prove e TRUE for every row (sarg.Yes: no row can be FALSE or
// NULL) counts all its rows, one whose statistics prove no row TRUE counts
// none; both are decided with the checks a scan's pruning applies (7.3).
// The other stripes are scanned, reading e's columns only, with e as an
// exact filter, so the count equals that of a full scan filtered by e.
// opts apply to those scans (parallelism, memory limits); they must not
// set a read schema, a search argument, columns or a range, which Count
// chooses. Without a predicate (sarg.True()) the count is the footer's.
func (r *Reader) Count(e sarg.Expr, opts ...ScanOption) (CountStats, error) {
	var cs CountStats
	e = sarg.ResolveNames(e, r.tail.Schema)
	b, err := sarg.Bind(e, r.tail.Schema)
	if err != nil {
		return cs, err
	}
	// The top-level fields holding the predicate's columns.
	var cols []string
	for _, id := range b.Columns() {
		for i, c := range r.tail.Schema.Children {
			if id >= c.ID() && id <= c.MaxID() && i < len(r.tail.Schema.FieldNames) {
				n := r.tail.Schema.FieldNames[i]
				if strings.ContainsAny(n, ".`") {
					if strings.Contains(n, "`") {
						cols = nil // not expressible: read every column
						goto all
					}
					n = "`" + n + "`"
				}
				if len(cols) == 0 || cols[len(cols)-1] != n {
					cols = append(cols, n)
				}
			}
		}
	}
all:
	stripes := r.Stripes()
	file := b.Evaluate(&levelSource{r: r, stripe: -1})
	for i, st := range stripes {
		tv := file
		if tv.IsNeeded() && tv != sarg.Yes && r.HasStripeStatistics() {
			tv = b.Evaluate(&levelSource{r: r, stripe: i})
		}
		switch {
		case !tv.IsNeeded():
			cs.StripesDecided++
			cs.StatsRows += st.NumRows
			continue
		case tv == sarg.Yes:
			cs.StripesDecided++
			cs.StatsRows += st.NumRows
			cs.Rows += st.NumRows
			continue
		}
		cs.StripesScanned++
		cs.ScannedRows += st.NumRows
		so := append(append([]ScanOption(nil), opts...), WithSearchArgument(e), WithExactFilter(true), WithRange(st.Offset, 1))
		if len(cols) > 0 {
			so = append(so, WithColumns(cols...))
		}
		n, err := r.countScan(so)
		if err != nil {
			return cs, fmt.Errorf("orc: counting stripe %d: %w", i, err)
		}
		cs.Rows += n
	}
	return cs, nil
}

// countScan counts the rows a scan returns.
func (r *Reader) countScan(opts []ScanOption) (int64, error) {
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		return 0, err
	}
	defer br.Close()
	batch := orc.NewBatch(br.Schema(), 1024)
	var n int64
	for {
		err := br.Next(batch)
		if errors.Is(err, io.EOF) {
			return n, nil
		}
		if err != nil {
			return n, err
		}
		n += int64(batch.NumRows)
	}
}
