package reader

import (
	"github.com/orcgo/orc/stats"
)

// writerInfo is what decides which recorded statistics can be trusted.
func (r *Reader) writerInfo() stats.WriterInfo { return r.winfo }

// hasFileStatistics reports whether the footer has column statistics.
func (r *Reader) hasFileStatistics() bool { return len(r.tail.Footer.GetStatistics()) > 0 }

// Statistics returns the file-level statistics of column id. ok is false
// when the file recorded none.
func (r *Reader) Statistics(id int) (c stats.Column, ok bool) {
	cols := r.cols
	if id < 0 || id >= len(cols) {
		return stats.Column{}, false
	}
	st := r.tail.Footer.GetStatistics()
	if id >= len(st) {
		return stats.Column{}, false
	}
	return stats.FromProto(st[id], cols[id], r.writerInfo()), true
}

// StripeStatistics returns stripe i's statistics of column id from the
// metadata section. ok is false when the file recorded none.
func (r *Reader) StripeStatistics(stripe, id int) (c stats.Column, ok bool) {
	cols := r.cols
	if id < 0 || id >= len(cols) || r.tail.Metadata == nil {
		return stats.Column{}, false
	}
	ss := r.tail.Metadata.GetStripeStats()
	if stripe < 0 || stripe >= len(ss) {
		return stats.Column{}, false
	}
	cs := ss[stripe].GetColStats()
	if id >= len(cs) {
		return stats.Column{}, false
	}
	return stats.FromProto(cs[id], cols[id], r.writerInfo()), true
}

// HasStripeStatistics reports whether the file has a metadata section with
// one entry per stripe.
func (r *Reader) HasStripeStatistics() bool { return r.tail.Metadata != nil }
