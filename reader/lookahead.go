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
	// Of the last stripe whose footer the scan parsed: the bytes of its
	// index region (row indexes and bloom filters of every column) and
	// those of them that group pruning reads.
	region, wanted int64
}

// indexAhead is how many stripes after the one being pruned have their
// index reads scheduled with its own.
const indexAhead = 4

// stripeMetaFor returns stripe i's footer, parsed ahead or read now.
func (pl *planner) stripeMetaFor(i int) (*stripeMeta, error) {
	look := pl.io.look
	look.mu.Lock()
	m := look.metas[i]
	delete(look.metas, i)
	look.mu.Unlock()
	if m != nil {
		return m, nil
	}
	return pl.r.readStripeMeta(pl.io, i)
}

// parsedAhead reports whether stripe i's footer was parsed ahead (its
// bytes are read, so scheduleFooter must not schedule them again).
func (pl *planner) parsedAhead(i int) bool {
	look := pl.io.look
	look.mu.Lock()
	defer look.mu.Unlock()
	_, ok := look.metas[i]
	return ok
}

// wantedStripe reports whether the scan reads stripe i, as far as the
// range, a parallel worker's limit and the stripe statistics tell.
func (pl *planner) wantedStripe(i int) bool {
	if !pl.inRange(i) || pl.stopAt > 0 && i >= pl.stopAt {
		return false
	}
	return pl.sarg == nil || !pl.r.HasStripeStatistics() ||
		pl.sarg.Evaluate(&levelSource{r: pl.r, stripe: i}).IsNeeded()
}

// scheduleIndexAhead schedules the index reads of the stripes after
// stripe i that the scan will prune (see the file comment), or a parallel
// scan cut into chunks, when it reads ahead.
func (pl *planner) scheduleIndexAhead(i int) {
	r := pl.r
	if !pl.indexFirst() || !pl.cfg.readAhead {
		return
	}
	look := pl.io.look
	look.mu.Lock()
	defer look.mu.Unlock()
	look.indexed = max(look.indexed, i+1)
	stripes := len(r.tail.Footer.GetStripes())
	budget := pl.io.cfg.prefetch / 4
	var bytes int64
	cols, also := pl.pruneColumns(), pl.indexAlso()
	for n := 0; n < indexAhead && look.indexed < stripes && look.indexed <= i+indexAhead; {
		j := look.indexed
		if !pl.wantedStripe(j) || !pl.readsIndexOf(int64(r.tail.Footer.GetStripes()[j].GetNumberOfRows())) {
			look.indexed++
			continue
		}
		meta := look.metas[j]
		if meta == nil {
			info := stripeInfo(j, r.tail.Footer.GetStripes()[j])
			if !r.footerAtHand(j) && !pl.io.arrived(info.Offset+info.IndexLength+info.DataLength, info.FooterLength) {
				return // its footer has not arrived: its index waits for the next stripe's turn
			}
			m, err := r.readStripeMeta(pl.io, j)
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
		ranges := coalesce(locs, pl.io.gap())
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
		pl.io.scheduleNew(j, spans)
		look.indexed++
		n++
	}
}

// Index regions read whole. A stripe's index streams lie together at its
// start, right after the footer of the stripe before. When the scan reads
// most of a stripe's index region anyway (a lookup by bloom filter reads
// the filters, which are most of it; a parallel scan reads the row indexes
// of its columns to cut the stripe into chunks), the region is read whole, in one
// request with the previous stripe's footer: a lookup over many stripes
// then makes one request per stripe instead of two (footer, then index).
// The scan decides from the last footer it parsed: a region is read whole
// when the share of it pruning would not read, scaled to the region's
// size, is within the coalescing gap (what the scheduler would read
// across anyway to save a request), and, before any footer is parsed,
// when the whole region is.

// indexFirst reports whether the scan reads a stripe's row indexes before
// its data: to prune its row groups (a search argument), or, in a parallel
// scan, to cut it into chunks (every selected column's, splitStripe).
func (pl *planner) indexFirst() bool {
	return pl.r.RowIndexStride() > 0 && (pl.sarg != nil || pl.cfg.parallel > 1)
}

// readsIndexOf reports whether the scan (indexFirst) reads the row indexes
// of a stripe of rows rows before its data: a parallel scan without a
// search argument does not for a stripe it does not cut, of at most a
// chunk of row groups for each decoder (pruneShared).
func (pl *planner) readsIndexOf(rows int64) bool {
	if pl.sarg != nil {
		return true
	}
	stride := int64(pl.r.RowIndexStride())
	groups := (rows + stride - 1) / stride
	return groups > int64(pl.cfg.parallel*chunkGroups(pl.r, pl.selected, pl.cfg))
}

// noteIndexShare records how much of stripe meta's index region the scan
// reads before its data (indexFirst): what group pruning reads, and over a
// network every selected column's row index (indexAlso).
func (pl *planner) noteIndexShare(meta *stripeMeta) {
	if !pl.indexFirst() || meta.info.IndexLength <= 0 {
		return
	}
	var wanted int64
	for _, w := range pl.r.indexWants(meta, nil, pl.pruneColumns(), true, pl.indexAlso()) {
		wanted += w.loc.length
	}
	look := pl.io.look
	look.mu.Lock()
	look.region, look.wanted = meta.info.IndexLength, wanted
	look.mu.Unlock()
}

// wholeIndex returns stripe j's index region when the scan reads it whole
// (see above).
func (pl *planner) wholeIndex(j int) (span, bool) {
	r := pl.r
	if !pl.indexFirst() || !pl.cfg.readAhead {
		return span{}, false
	}
	info := stripeInfo(j, r.tail.Footer.GetStripes()[j])
	if info.IndexLength <= 0 || info.NumRows <= 0 || info.IndexLength > pl.io.cfg.maxRequest || !pl.readsIndexOf(info.NumRows) {
		return span{}, false
	}
	unread := info.IndexLength
	look := pl.io.look
	look.mu.Lock()
	if look.region > 0 {
		unread = int64(float64(info.IndexLength) * float64(look.region-look.wanted) / float64(look.region))
	}
	look.mu.Unlock()
	if unread > pl.io.gap() {
		return span{}, false
	}
	return span{off: info.Offset, n: info.IndexLength, pos: 1, end: 1}, true
}

// doneWithIndex gives back the unread bytes of stripe j's index region
// read whole, once the scan reads nothing more of it (it skips the
// stripe); the region of a stripe read is given back with the stripe.
func (pl *planner) doneWithIndex(j int) {
	info := stripeInfo(j, pl.r.tail.Footer.GetStripes()[j])
	pl.io.consume(info.Offset, info.IndexLength)
}
