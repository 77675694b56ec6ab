package reader

import "sync"

// Pruning ahead over a network. A stripe's pruning needs two reads in
// turn: its footer (where its streams are), then the row indexes and bloom
// filters of the predicate's columns. When most stripes' row groups are
// pruned (a lookup, a selective range), a scan that prunes one stripe
// after another pays two round trips per stripe. A scan reading ahead
// instead schedules the footers of the next stripes together
// (scheduleFooter) with its first index read, and, when it prunes a
// stripe, parses the footers of the next few that have arrived and
// schedules their index reads with its own: the stripes after it find
// their indexes arrived, and a lookup over a file of many stripes costs
// about five round trips (tail, first footer, first index with the other
// footers, the other indexes, data) instead of two per stripe.
//
// What is read ahead is bounded: indexAhead stripes, and at most a
// quarter of the prefetch bound of index bytes in one go. A footer that
// fails to read or parse ahead is left for its turn, which returns the
// error as it would have without the look-ahead.

// lookahead is what a scan has of stripes before their turn. It lives in
// the scan's scheduler, so that a parallel scan's executors share it.
type lookahead struct {
	mu      sync.Mutex
	metas   map[int]*stripeMeta // parsed footers of stripes not pruned yet
	indexed int                 // stripes before this one have their index reads scheduled
}

// indexAhead is how many stripes after the one being pruned have their
// index reads scheduled with its own.
const indexAhead = 4

// stripeMetaFor returns stripe i's footer, parsed ahead or read now.
func (br *executor) stripeMetaFor(i int) (*stripeMeta, error) {
	look := &br.io.look
	look.mu.Lock()
	m := look.metas[i]
	delete(look.metas, i)
	look.mu.Unlock()
	if m != nil {
		return m, nil
	}
	return br.r.readStripeMeta(br.io, i)
}

// parsedAhead reports whether stripe i's footer was parsed ahead (its
// bytes are read, so scheduleFooter must not schedule them again).
func (br *executor) parsedAhead(i int) bool {
	look := &br.io.look
	look.mu.Lock()
	defer look.mu.Unlock()
	_, ok := look.metas[i]
	return ok
}

// wantedStripe reports whether the scan reads stripe i, as far as the
// range, a parallel worker's limit and the stripe statistics tell.
func (br *executor) wantedStripe(i int) bool {
	if !br.inRange(i) || br.cur.stopAt > 0 && i >= br.cur.stopAt {
		return false
	}
	return br.pred.sarg == nil || !br.r.HasStripeStatistics() ||
		br.pred.sarg.Evaluate(&levelSource{r: br.r, stripe: i}).IsNeeded()
}

// scheduleIndexAhead schedules the index reads of the stripes after
// stripe i that the scan will prune (see the file comment), when it reads
// ahead and prunes row groups.
func (br *executor) scheduleIndexAhead(i int) {
	r := br.r
	if br.pred.sarg == nil || r.RowIndexStride() <= 0 || !br.io.prefetching() {
		return
	}
	look := &br.io.look
	look.mu.Lock()
	defer look.mu.Unlock()
	look.indexed = max(look.indexed, i+1)
	stripes := len(r.tail.Footer.GetStripes())
	budget := br.io.cfg.prefetch / 4
	var bytes int64
	cols, also := br.pruneColumns(), br.indexAlso()
	for n := 0; n < indexAhead && look.indexed < stripes && look.indexed <= i+indexAhead; {
		j := look.indexed
		if !br.wantedStripe(j) {
			look.indexed++
			continue
		}
		meta := look.metas[j]
		if meta == nil {
			info := stripeInfo(j, r.tail.Footer.GetStripes()[j])
			if !br.io.arrived(info.Offset+info.IndexLength+info.DataLength, info.FooterLength) {
				return // its footer has not arrived: its index waits for the next stripe's turn
			}
			m, err := r.readStripeMeta(br.io, j)
			if err != nil {
				return // read again at its turn, which fails as it would have
			}
			if look.metas == nil {
				look.metas = map[int]*stripeMeta{}
			}
			look.metas[j], meta = m, m
		}
		wants := r.indexWants(meta, nil, cols, true, also)
		locs := make([]streamLoc, len(wants))
		for k, w := range wants {
			locs[k] = w.loc
		}
		ranges := coalesce(locs, br.io.gap())
		spans := make([]span, len(ranges))
		var sum int64
		for k, rg := range ranges {
			spans[k] = span{off: rg.offset, n: rg.length}
			sum += rg.length
		}
		if n > 0 && bytes+sum > budget {
			return
		}
		bytes += sum
		br.io.scheduleNew(j, spans)
		look.indexed++
		n++
	}
}
