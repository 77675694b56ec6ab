package main

// The six queries, their predicates, and the two things every library side
// needs from a predicate: whether a unit of rows (row group, page, stripe)
// may hold a match given its statistics, and the exact row filter.

import (
	"bytes"
	"fmt"
	"time"
)

type predOp uint8

const (
	opAnd   predOp = iota
	opOr           // any kid
	opRange        // Lo <= col <= Hi on an integer-like column
	opStrEq        // col == Val on a string column
)

// Pred is a predicate tree.
type Pred struct {
	Op     predOp
	Kids   []*Pred
	Col    int
	Lo, Hi int64
	Val    []byte
}

func and(k ...*Pred) *Pred { return &Pred{Op: opAnd, Kids: k} }
func or(k ...*Pred) *Pred  { return &Pred{Op: opOr, Kids: k} }
func between(col int, lo, hi int64) *Pred {
	return &Pred{Op: opRange, Col: col, Lo: lo, Hi: hi}
}
func strEq(col int, v string) *Pred { return &Pred{Op: opStrEq, Col: col, Val: []byte(v)} }

// Columns appends the columns the predicate reads, without duplicates.
func (p *Pred) Columns(dst []int) []int {
	if p == nil {
		return dst
	}
	switch p.Op {
	case opAnd, opOr:
		for _, k := range p.Kids {
			dst = k.Columns(dst)
		}
		return dst
	}
	for _, c := range dst {
		if c == p.Col {
			return dst
		}
	}
	return append(dst, p.Col)
}

// Stat is the min/max of one column over a unit of rows.
type Stat struct {
	OK         bool
	Min, Max   int64  // integer-like columns
	SMin, SMax []byte // string columns
}

// StatFunc returns a column's statistics in the unit being judged.
type StatFunc func(col int) Stat

// BloomFunc reports whether a unit's bloom filter of col may contain val;
// ok is false when there is no filter.
type BloomFunc func(col int, val []byte) (may, ok bool)

// MayMatch reports whether a unit may hold a matching row; it errs on the
// side of true.
func (p *Pred) MayMatch(st StatFunc, bloom BloomFunc) bool {
	switch p.Op {
	case opAnd:
		for _, k := range p.Kids {
			if !k.MayMatch(st, bloom) {
				return false
			}
		}
		return true
	case opOr:
		for _, k := range p.Kids {
			if k.MayMatch(st, bloom) {
				return true
			}
		}
		return false
	case opRange:
		s := st(p.Col)
		return !s.OK || !(s.Max < p.Lo || s.Min > p.Hi)
	case opStrEq:
		if s := st(p.Col); s.OK && (bytes.Compare(p.Val, s.SMin) < 0 || bytes.Compare(p.Val, s.SMax) > 0) {
			return false
		}
		if bloom != nil {
			if may, ok := bloom(p.Col, p.Val); ok && !may {
				return false
			}
		}
		return true
	}
	return true
}

// Filter sets sel[i] to whether row i of c matches. scratch holds buffers
// for the kids of AND and OR nodes.
func (p *Pred) Filter(c *Chunk, sel []bool, scratch *[][]bool) {
	n := c.N
	sel = sel[:n]
	switch p.Op {
	case opAnd, opOr:
		p.Kids[0].Filter(c, sel, scratch)
		var tmp []bool
		if len(*scratch) > 0 {
			tmp = (*scratch)[len(*scratch)-1]
			*scratch = (*scratch)[:len(*scratch)-1]
		}
		if cap(tmp) < n {
			tmp = make([]bool, n)
		}
		tmp = tmp[:n]
		for _, k := range p.Kids[1:] {
			k.Filter(c, tmp, scratch)
			if p.Op == opAnd {
				for i := range sel {
					sel[i] = sel[i] && tmp[i]
				}
			} else {
				for i := range sel {
					sel[i] = sel[i] || tmp[i]
				}
			}
		}
		*scratch = append(*scratch, tmp)
	case opRange:
		v := c.I64[p.Col][:n]
		lo, hi := p.Lo, p.Hi
		for i, x := range v {
			sel[i] = x >= lo && x <= hi
		}
	case opStrEq:
		s := &c.Str[p.Col]
		off := s.Off[:n+1]
		val := p.Val
		for i := range sel {
			sel[i] = bytes.Equal(s.Data[off[i]:off[i+1]], val)
		}
	}
}

// Query is one benchmark query: the columns it returns and its predicate.
type Query struct {
	ID   string
	Desc string
	SQL  string // the predicate as text (for orcgo's sarg.Parse)
	Cols []int
	Pred *Pred
}

// PredCols returns the predicate's columns.
func (q *Query) PredCols() []int { return q.Pred.Columns(nil) }

var allCols = func() []int {
	c := make([]int, numCols)
	for i := range c {
		c[i] = i
	}
	return c
}()

func daysOf(y int, m time.Month, d int) int64 {
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Unix() / 86400
}

// makeQueries builds the six queries for a table of rows rows from seed.
func makeQueries(rows int64, seed uint64) []*Query {
	lo := orderKeyAtRow(seed, rows/2)
	width := max(rows/1000, 1)
	hi := orderKeyAtRow(seed, min(rows/2+width, rows-1)) - 1
	if hi < lo {
		hi = lo
	}
	uuid := UUIDAt(seed, int64(float64(rows)*0.618))
	d0, d1 := daysOf(1995, 3, 1), daysOf(1995, 3, 31)
	return []*Query{
		{ID: "Q1", Desc: "full scan, all columns", Cols: allCols},
		{ID: "Q2", Desc: "projection l_extendedprice, l_discount, l_shipdate",
			Cols: []int{cExtendedPrice, cDiscount, cShipDate}},
		{ID: "Q3", Desc: fmt.Sprintf("l_orderkey BETWEEN %d AND %d (0.1%%)", lo, hi), Cols: allCols,
			SQL:  fmt.Sprintf("l_orderkey BETWEEN %d AND %d", lo, hi),
			Pred: between(cOrderKey, lo, hi)},
		{ID: "Q4", Desc: "l_uuid point lookup", Cols: allCols,
			SQL:  fmt.Sprintf("l_uuid = '%s'", uuid),
			Pred: strEq(cUUID, uuid)},
		{ID: "Q5", Desc: "l_shipdate in March 1995 (unsorted)", Cols: allCols,
			SQL:  "l_shipdate BETWEEN DATE '1995-03-01' AND DATE '1995-03-31'",
			Pred: between(cShipDate, d0, d1)},
		{ID: "Q6", Desc: "l_returnflag = 'R' OR l_shipmode = 'AIR' AND l_quantity < 5", Cols: allCols,
			SQL: "l_returnflag = 'R' OR l_shipmode = 'AIR' AND l_quantity < 5",
			Pred: or(strEq(cReturnFlag, "R"),
				and(strEq(cShipMode, "AIR"), between(cQuantity, -1<<62, 499)))},
	}
}

// QueryResult is what one run of a query on one file found.
type QueryResult struct {
	Matched     int64
	Checksum    uint64
	RowsDecoded int64
	// Consume is the time the bench spent on the rows a side returned
	// (turning doubles, decimals and timestamps into integers, the exact
	// filter, the checksum), where the side times it (orcgo); 0 elsewhere.
	Consume time.Duration
}

// checksumRows adds the values of the selected rows' columns to sum. It
// makes every side look at every value it returns, and lets the benchmark
// check that all sides returned the same values.
func checksumRows(sum uint64, c *Chunk, cols []int, sel []bool) uint64 {
	for _, col := range cols {
		if columns[col].kind == kString {
			s := &c.Str[col]
			for i := 0; i < c.N; i++ {
				if sel != nil && !sel[i] {
					continue
				}
				a, b := s.Off[i], s.Off[i+1]
				sum += uint64(b - a)
				if b > a {
					sum += uint64(s.Data[a]) * 31
				}
			}
			continue
		}
		v := c.I64[col][:c.N]
		if sel == nil {
			for _, x := range v {
				sum += uint64(x)
			}
			continue
		}
		for i, x := range v {
			if sel[i] {
				sum += uint64(x)
			}
		}
	}
	return sum
}

// rowFilter runs a query's exact filter over decoded chunks.
type rowFilter struct {
	q       *Query
	sel     []bool
	scratch [][]bool
	res     QueryResult
}

// add filters a chunk holding at least the query's columns and adds the
// matches to the result.
func (f *rowFilter) add(c *Chunk) {
	f.res.RowsDecoded += int64(c.N)
	if f.q.Pred == nil {
		f.res.Matched += int64(c.N)
		f.res.Checksum = checksumRows(f.res.Checksum, c, f.q.Cols, nil)
		return
	}
	if cap(f.sel) < c.N {
		f.sel = make([]bool, c.N)
	}
	sel := f.sel[:c.N]
	f.q.Pred.Filter(c, sel, &f.scratch)
	n := 0
	for _, b := range sel {
		if b {
			n++
		}
	}
	if n == 0 {
		return
	}
	f.res.Matched += int64(n)
	f.res.Checksum = checksumRows(f.res.Checksum, c, f.q.Cols, sel)
}

// match filters a chunk holding the predicate's columns only and returns
// the selection and the number of matches; the caller then decodes the
// other columns where n > 0 and calls addSelected.
func (f *rowFilter) match(c *Chunk) ([]bool, int) {
	f.res.RowsDecoded += int64(c.N)
	if cap(f.sel) < c.N {
		f.sel = make([]bool, c.N)
	}
	sel := f.sel[:c.N]
	f.q.Pred.Filter(c, sel, &f.scratch)
	n := 0
	for _, b := range sel {
		if b {
			n++
		}
	}
	return sel, n
}

// addSelected adds the n selected rows of c (now holding all the query's
// columns) to the result.
func (f *rowFilter) addSelected(c *Chunk, sel []bool, n int) {
	f.res.Matched += int64(n)
	f.res.Checksum = checksumRows(f.res.Checksum, c, f.q.Cols, sel)
}
