package reader

import (
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/stats"
)

// writerInfo is what decides which recorded statistics can be trusted.
func (r *Reader) writerInfo() stats.WriterInfo { return r.winfo }

// WriterInfo returns what the file says about its writer (its id, version
// and software version), from which its statistics and bloom filters are
// trusted or not; ask it which fixes the writer has with Includes.
func (r *Reader) WriterInfo() format.WriterInfo { return r.winfo }

// hasFileStatistics reports whether the footer has column statistics.
func (r *Reader) hasFileStatistics() bool { return r.tail.NumStatistics() > 0 }

// Statistics returns the file-level statistics of column id. ok is false
// when the file recorded none, or bytes that do not parse (Tail().Statistics
// tells which). The footer keeps them undecoded until asked.
func (r *Reader) Statistics(id int) (c stats.Column, ok bool) {
	cols := r.cols
	if id < 0 || id >= len(cols) {
		return stats.Column{}, false
	}
	pb, err := r.tail.Statistics(id)
	if err != nil || pb == nil {
		// Statistics that do not parse are as good as none.
		return stats.Column{}, false
	}
	return stats.FromProto(pb, cols[id], r.writerInfo()), true
}

// StripeStatistics returns stripe i's statistics of column id from the
// metadata section. ok is false when the file recorded none, or bytes that
// do not parse.
func (r *Reader) StripeStatistics(stripe, id int) (c stats.Column, ok bool) {
	cols := r.cols
	if id < 0 || id >= len(cols) {
		return stats.Column{}, false
	}
	pb, err := r.tail.StripeStatistics(stripe, id)
	if err != nil || pb == nil {
		return stats.Column{}, false
	}
	return stats.FromProto(pb, cols[id], r.writerInfo()), true
}

// HasStripeStatistics reports whether the file has a metadata section with
// one entry per stripe.
func (r *Reader) HasStripeStatistics() bool { return r.tail.HasStripeStatistics() }
