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

// pqScan runs query q on pf, decoding batch rows at a time.
func pqScan(pf pqFile, q *Query, batch int) (QueryResult, error) {
	f := rowFilter{q: q}
	var c Chunk
	var predCols, rest []int
	if q.Pred == nil {
		rest = q.Cols
	} else {
		predCols = q.PredCols()
		for _, col := range q.Cols {
			if !slices.Contains(predCols, col) {
				rest = append(rest, col)
			}
		}
	}
	var cur [numCols]pqColumn
	var pos [numCols]int64
	closeAll := func() error {
		var err error
		for i, cc := range cur {
			if cc != nil {
				if e := cc.Close(); e != nil && err == nil {
					err = e
				}
				cur[i] = nil
			}
		}
		return err
	}
	defer closeAll()

	for rg := 0; rg < pf.NumRowGroups(); rg++ {
		rows := pf.RowGroupRows(rg)
		ranges := []rowRange{{0, rows}}
		if q.Pred != nil {
			if !q.Pred.MayMatch(
				func(col int) Stat { return pf.ChunkStat(rg, col) },
				func(col int, val []byte) (bool, bool) { return pf.Bloom(rg, col, val) }) {
				continue
			}
			ranges = candidateRanges(pf, rg, rows, q.Pred)
			if len(ranges) == 0 {
				continue
			}
		}
		var covered int64
		for _, r := range ranges {
			covered += r.b - r.a
		}
		// The predicate's columns (or all, for a scan) are read wherever
		// the candidate ranges are, so wholesale if those cover most of the
		// row group. The other columns are read only for batches with a
		// match, which are typically few: page by page.
		predMode := readWhole
		if covered*2 < rows {
			predMode = readSparse
		}
		// read positions the cursor of col at row and appends n values
		read := func(col int, row int64, n int, mode readMode) error {
			if cur[col] == nil {
				cc, err := pf.Column(rg, col, mode)
				if err != nil {
					return err
				}
				cur[col], pos[col] = cc, 0
			}
			if pos[col] != row {
				if err := cur[col].SeekRow(row); err != nil {
					return err
				}
			}
			if err := cur[col].Read(&c, col, n); err != nil {
				return err
			}
			pos[col] = row + int64(n)
			return nil
		}
		for _, r := range ranges {
			for start := r.a; start < r.b; start += int64(batch) {
				n := int(min(int64(batch), r.b-start))
				c.reset()
				c.N = n
				if q.Pred == nil {
					for _, col := range rest {
						if err := read(col, start, n, predMode); err != nil {
							return f.res, err
						}
					}
					f.add(&c)
					continue
				}
				for _, col := range predCols {
					if err := read(col, start, n, predMode); err != nil {
						return f.res, err
					}
				}
				sel, m := f.match(&c)
				if m == 0 {
					continue
				}
				for _, col := range rest {
					if err := read(col, start, n, readSparse); err != nil {
						return f.res, err
					}
				}
				f.addSelected(&c, sel, m)
			}
		}
		if err := closeAll(); err != nil {
			return f.res, err
		}
	}
	return f.res, nil
}
