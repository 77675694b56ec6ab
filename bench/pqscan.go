package main

// The query engine both Parquet sides share. Neither library has a
// predicate API at this level, so pruning is done here by hand, the way an
// engine on top of either library would: row-group statistics and bloom
// filters decide which row groups to read, the page index (column index +
// offset index) of the predicate's columns narrows each kept row group to
// candidate row ranges, the predicate's columns are decoded over those
// ranges and filtered exactly, and the other columns are decoded only for
// batches that hold a match (late materialization).

import (
	"slices"
)

// pageInfo is one data page of a column chunk: its rows and statistics.
type pageInfo struct {
	First, N int64
	St       Stat
}

// readMode says how a column is going to be read: whole (every page, so
// one large read is best) or sparse (a few pages, so read page by page).
type readMode uint8

const (
	readWhole readMode = iota
	readSparse
)

// pqFile is what the engine needs from an open Parquet file.
type pqFile interface {
	NumRowGroups() int
	RowGroupRows(rg int) int64
	// ChunkStat returns the column chunk statistics.
	ChunkStat(rg, col int) Stat
	// Pages returns the page index of a column chunk, nil when there is none.
	Pages(rg, col int) []pageInfo
	// Bloom probes the column chunk's bloom filter.
	Bloom(rg, col int, val []byte) (may, ok bool)
	// Column opens a cursor over a column chunk.
	Column(rg, col int, mode readMode) (pqColumn, error)
}

// pqColumn reads one column chunk's values in row order.
type pqColumn interface {
	// SeekRow positions the cursor at row (counted from the row group's
	// first row).
	SeekRow(row int64) error
	// Read appends the next n values to column col of c.
	Read(c *Chunk, col, n int) error
	Close() error
}

type rowRange struct{ a, b int64 }

// candidateRanges returns the row ranges of row group rg where p may match,
// judged on the page index; nil pages mean "can't tell", i.e. all rows.
func candidateRanges(pf pqFile, rg int, rows int64, p *Pred) []rowRange {
	switch p.Op {
	case opAnd:
		r := candidateRanges(pf, rg, rows, p.Kids[0])
		for _, k := range p.Kids[1:] {
			r = intersect(r, candidateRanges(pf, rg, rows, k))
		}
		return r
	case opOr:
		var r []rowRange
		for _, k := range p.Kids {
			r = union(r, candidateRanges(pf, rg, rows, k))
		}
		return r
	}
	pages := pf.Pages(rg, p.Col)
	if pages == nil {
		return []rowRange{{0, rows}}
	}
	var r []rowRange
	for i := range pages {
		pg := &pages[i]
		st := func(col int) Stat { return pg.St }
		if !p.MayMatch(st, nil) {
			continue
		}
		if n := len(r); n > 0 && r[n-1].b == pg.First {
			r[n-1].b = pg.First + pg.N
		} else {
			r = append(r, rowRange{pg.First, pg.First + pg.N})
		}
	}
	return r
}

func intersect(x, y []rowRange) []rowRange {
	var out []rowRange
	i, j := 0, 0
	for i < len(x) && j < len(y) {
		a, b := max(x[i].a, y[j].a), min(x[i].b, y[j].b)
		if a < b {
			out = append(out, rowRange{a, b})
		}
		if x[i].b < y[j].b {
			i++
		} else {
			j++
		}
	}
	return out
}

func union(x, y []rowRange) []rowRange {
	all := append(slices.Clone(x), y...)
	slices.SortFunc(all, func(p, q rowRange) int {
		switch {
		case p.a < q.a:
			return -1
		case p.a > q.a:
			return 1
		}
		return 0
	})
	var out []rowRange
	for _, r := range all {
		if n := len(out); n > 0 && r.a <= out[n-1].b {
			out[n-1].b = max(out[n-1].b, r.b)
			continue
		}
		out = append(out, r)
	}
	return out
}

// rgScan is what one goroutine needs to read row groups of one file for
// one query: its column cursors and its row filter (which counts the rows
// decoded). The serial scan has one; the parallel scan one per worker.
type rgScan struct {
	pf       pqFile
	q        *Query
	batch    int
	predCols []int // the predicate's columns, decoded first
	rest     []int // the query's other columns (all of them for a scan)
	cur      [numCols]pqColumn
	pos      [numCols]int64
	f        rowFilter
}

func newRGScan(pf pqFile, q *Query, batch int) *rgScan {
	s := &rgScan{pf: pf, q: q, batch: batch, f: rowFilter{q: q}}
	if q.Pred == nil {
		s.rest = q.Cols
		return s
	}
	s.predCols = q.PredCols()
	for _, col := range q.Cols {
		if !slices.Contains(s.predCols, col) {
			s.rest = append(s.rest, col)
		}
	}
	return s
}

// closeAll closes the open column cursors.
func (s *rgScan) closeAll() error {
	var err error
	for i, cc := range s.cur {
		if cc != nil {
			if e := cc.Close(); e != nil && err == nil {
				err = e
			}
			s.cur[i] = nil
		}
	}
	return err
}

// emitFunc receives a decoded batch holding at least one returned row: sel
// says which rows of c are returned (nil: all of them) and m how many. It
// returns the chunk the next batch is to be decoded into, c itself or
// another one; c and sel must not be used by the scan after the call.
type emitFunc func(c *Chunk, sel []bool, m int) (*Chunk, error)

// rowGroup reads row group rg, pruned and filtered, decoding into c and
// passing every batch with a match to emit.
func (s *rgScan) rowGroup(rg int, c *Chunk, emit emitFunc) error {
	pf, q := s.pf, s.q
	rows := pf.RowGroupRows(rg)
	ranges := []rowRange{{0, rows}}
	if q.Pred != nil {
		if !q.Pred.MayMatch(
			func(col int) Stat { return pf.ChunkStat(rg, col) },
			func(col int, val []byte) (bool, bool) { return pf.Bloom(rg, col, val) }) {
			return nil
		}
		ranges = candidateRanges(pf, rg, rows, q.Pred)
		if len(ranges) == 0 {
			return nil
		}
	}
	var covered int64
	for _, r := range ranges {
		covered += r.b - r.a
	}
	// The predicate's columns (or all, for a scan) are read wherever the
	// candidate ranges are, so wholesale if those cover most of the row
	// group. The other columns are read only for batches with a match,
	// which are typically few: page by page.
	predMode := readWhole
	if covered*2 < rows {
		predMode = readSparse
	}
	// read positions the cursor of col at row and appends n values
	read := func(col int, row int64, n int, mode readMode) error {
		if s.cur[col] == nil {
			cc, err := pf.Column(rg, col, mode)
			if err != nil {
				return err
			}
			s.cur[col], s.pos[col] = cc, 0
		}
		if s.pos[col] != row {
			if err := s.cur[col].SeekRow(row); err != nil {
				return err
			}
		}
		if err := s.cur[col].Read(c, col, n); err != nil {
			return err
		}
		s.pos[col] = row + int64(n)
		return nil
	}
	var err error
	for _, r := range ranges {
		for start := r.a; start < r.b; start += int64(s.batch) {
			n := int(min(int64(s.batch), r.b-start))
			c.reset()
			c.N = n
			if q.Pred == nil {
				for _, col := range s.rest {
					if err := read(col, start, n, predMode); err != nil {
						return err
					}
				}
				s.f.res.RowsDecoded += int64(n)
				if c, err = emit(c, nil, n); err != nil {
					return err
				}
				continue
			}
			for _, col := range s.predCols {
				if err := read(col, start, n, predMode); err != nil {
					return err
				}
			}
			sel, m := s.f.match(c)
			if m == 0 {
				continue
			}
			for _, col := range s.rest {
				if err := read(col, start, n, readSparse); err != nil {
					return err
				}
			}
			if c, err = emit(c, sel, m); err != nil {
				return err
			}
		}
	}
	return s.closeAll()
}

// pqScan runs query q on pf, decoding batch rows at a time.
func pqScan(pf pqFile, q *Query, batch int) (QueryResult, error) {
	s := newRGScan(pf, q, batch)
	defer s.closeAll()
	out := rowFilter{q: q}
	emit := func(c *Chunk, sel []bool, m int) (*Chunk, error) {
		out.addSelected(c, sel, m)
		return c, nil
	}
	var c Chunk
	for rg := 0; rg < pf.NumRowGroups(); rg++ {
		if err := s.rowGroup(rg, &c, emit); err != nil {
			out.res.RowsDecoded = s.f.res.RowsDecoded
			return out.res, err
		}
	}
	out.res.RowsDecoded = s.f.res.RowsDecoded
	return out.res, nil
}
