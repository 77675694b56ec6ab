package sarg

import (
	"fmt"
	"math/big"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// TimestampValue is a timestamp row value for EvalRow: seconds since
// 1970-01-01 and nanoseconds 0..999,999,999, in the column's domain (wall
// clock read as UTC for TIMESTAMP, the instant for TIMESTAMP WITH LOCAL
// TIME ZONE).
type TimestampValue struct {
	Sec   int64
	Nanos int32
}

// EvalRow evaluates the predicate on one row, plainly and slowly: it is the
// reference the vectorized Match and the statistics-based Evaluate are
// tested against, so it compares values with the literals as written (with
// exact rational arithmetic for numbers) rather than with the converted
// forms the other two use.
//
// values maps a column id to the row's value; a missing id or nil is NULL.
// Value types by column kind: boolean bool; tinyint..bigint int64; float
// and double float64; string, varchar, char string (char values padded);
// binary, geometry and geography []byte or string (WKB for the latter
// two); decimal stats.DecimalValue; date int64 days; timestamps
// TimestampValue; struct, list, map, union any non-nil value.
//
// It returns (true, true) when the predicate is TRUE, (false, true) when
// FALSE and (false, false) when NULL, or when a value has the wrong type.
func (b *Bound) EvalRow(values map[int]any) (match bool, known bool) {
	v, err := b.evalRow3(b.root, values)
	if err != nil {
		return false, false
	}
	return v == rowTrue, v != rowNull
}

func (b *Bound) evalRow3(n bnode, values map[int]any) (uint8, error) {
	switch n.op {
	case OpTrue:
		return rowTrue, nil
	case OpFalse:
		return rowFalse, nil
	case OpNull:
		return rowNull, nil
	case OpLeaf:
		l := b.leaves[n.leaf]
		if l.term != nil {
			return l.term.plain(values)
		}
		if l.col2 != nil {
			return l.evalPlainCols(values[l.colID], values[l.col2ID])
		}
		return l.evalPlain(values[l.colID])
	case OpNot:
		v, err := b.evalRow3(n.kids[0], values)
		return notOutcome(v), err
	case OpAnd, OpOr:
		res := rowTrue
		if n.op == OpOr {
			res = rowFalse
		}
		for _, k := range n.kids {
			v, err := b.evalRow3(k, values)
			if err != nil {
				return 0, err
			}
			if n.op == OpAnd {
				res = min(res, v)
			} else {
				res = max(res, v)
			}
		}
		return res, nil
	}
	return 0, fmt.Errorf("sarg: bad node")
}

// evalPlain evaluates the leaf as written on one value.
func (l *boundLeaf) evalPlain(v any) (uint8, error) {
	op := l.orig.Op
	nullSafeNull := op == LeafNullSafeEquals && l.orig.Literals[0].IsNull()
	if v == nil {
		switch {
		case op == LeafIsNull || nullSafeNull:
			return rowTrue, nil
		case op == LeafNullSafeEquals:
			return rowFalse, nil
		}
		return rowNull, nil
	}
	if op == LeafIsNull || nullSafeNull {
		return rowFalse, nil
	}
	if l.geo != nil {
		return l.geoPlain(v)
	}
	lits := l.orig.Literals
	// Under NOT the roles of a literal as lower or upper bound swap (this
	// matters only for wall clocks on instant columns; see Bind).
	lower, upper := roleLower, roleUpper
	if l.neg {
		lower, upper = upper, lower
	}
	switch op {
	case LeafLike:
		s, ok := textOf(v)
		if !ok {
			return 0, fmt.Errorf("sarg: value %v (%T) for %s column %d", v, v, l.col.Kind, l.colID)
		}
		ok, err := likeReference(s, lits[0].s, lits[1].s, l.col.Kind == orc.Binary, l.col.Kind == orc.Char)
		return t2(ok), err
	case LeafEquals, LeafNullSafeEquals:
		eq, err := l.plainEqual(v, lits[0])
		return t2(eq), err
	case LeafLessThan, LeafLessThanEquals:
		c, ok, err := l.plainCompare(v, lits[0], upper)
		if err != nil || !ok {
			return rowFalse, err
		}
		return t2(c < 0 || op == LeafLessThanEquals && c == 0), nil
	case LeafBetween:
		c1, ok1, err := l.plainCompare(v, lits[0], lower)
		if err != nil {
			return 0, err
		}
		c2, ok2, err := l.plainCompare(v, lits[1], upper)
		if err != nil {
			return 0, err
		}
		return t2(ok1 && ok2 && c1 >= 0 && c2 <= 0), nil
	case LeafIn:
		sawNull := false
		for _, lit := range lits {
			if lit.IsNull() {
				sawNull = true
				continue
			}
			eq, err := l.plainEqual(v, lit)
			if err != nil {
				return 0, err
			}
			if eq {
				return rowTrue, nil
			}
		}
		if sawNull {
			return rowNull, nil
		}
		return rowFalse, nil
	}
	return 0, fmt.Errorf("sarg: bad leaf")
}

type role uint8

const (
	roleEqual role = iota
	roleLower
	roleUpper
)

func (l *boundLeaf) plainEqual(v any, lit Literal) (bool, error) {
	if l.col.Kind == orc.TimestampInstant {
		lit = stringAsTime(lit)
		if lit.kind == TimestampLit {
			tv, ok := v.(TimestampValue)
			if !ok {
				return false, fmt.Errorf("sarg: want TimestampValue, have %T", v)
			}
			instants, _ := zoneInstants(tsVal{lit.i, lit.nanos}, lit.loc)
			for _, in := range instants {
				if tv.Sec == in.sec && tv.Nanos == in.nanos {
					return true, nil
				}
			}
			return false, nil
		}
	}
	c, ok, err := l.plainCompare(v, lit, roleEqual)
	return ok && c == 0, err
}

// plainCompare compares a value with a literal: -1, 0, +1, with ok false
// when they are unordered (NaN).
func (l *boundLeaf) plainCompare(v any, lit Literal, r role) (int, bool, error) {
	wrong := func() (int, bool, error) {
		return 0, false, fmt.Errorf("sarg: value %v (%T) for %s column %d", v, v, l.col.Kind, l.colID)
	}
	switch l.col.Kind {
	case orc.Float, orc.Double:
		x, ok := v.(float64)
		if !ok {
			return wrong()
		}
		return cmpFloat(x, nearestFloat(lit)), true, nil
	case orc.Byte, orc.Short, orc.Int, orc.Long, orc.Decimal:
		var x numVal
		switch t := v.(type) {
		case int64:
			x = numVal{r: new(big.Rat).SetInt64(t)}
		case stats.DecimalValue:
			x, _ = numOf(Decimal(t.Unscaled, t.Scale))
		default:
			return wrong()
		}
		y, ok := numOf(lit)
		if !ok {
			return 0, false, nil // NaN literal
		}
		return cmpNum(x, y), true, nil
	case orc.Boolean:
		t, ok := v.(bool)
		if !ok {
			return wrong()
		}
		x := int64(0)
		if t {
			x = 1
		}
		return cmpOrdered(x, lit.i), true, nil
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		s, ok := textOf(v)
		if !ok {
			return wrong()
		}
		c := lit.s
		if l.col.Kind == orc.Char {
			c = padChar(c, l.col.MaxLength)
		}
		return cmpOrdered(s, c), true, nil
	case orc.Date:
		d, ok := v.(int64)
		if !ok {
			return wrong()
		}
		lit = stringAsTime(lit)
		if lit.kind == DateLit {
			return cmpOrdered(d, lit.i), true, nil
		}
		return cmpTS(tsVal{d * 86400, 0}, tsVal{lit.i, lit.nanos}), true, nil
	case orc.Timestamp, orc.TimestampInstant:
		return l.plainCompareTime(v, lit, r)
	}
	return wrong()
}

// plainCompareTime is plainCompare on a timestamp column.
func (l *boundLeaf) plainCompareTime(v any, lit Literal, r role) (int, bool, error) {
	t, ok := v.(TimestampValue)
	if !ok {
		return 0, false, fmt.Errorf("sarg: value %v (%T) for %s column %d", v, v, l.col.Kind, l.colID)
	}
	x := tsVal{t.Sec, t.Nanos}
	lit = stringAsTime(lit)
	switch {
	case lit.kind == DateLit:
		return cmpTS(x, tsVal{lit.i * 86400, 0}), true, nil
	case lit.kind == TimestampLit && l.col.Kind == orc.TimestampInstant:
		instants, gap := zoneInstants(tsVal{lit.i, lit.nanos}, lit.loc)
		y := gap
		if len(instants) > 0 {
			y = instants[0]
			if r == roleUpper {
				y = instants[len(instants)-1]
			}
		}
		return cmpTS(x, y), true, nil
	}
	return cmpTS(x, tsVal{lit.i, lit.nanos}), true, nil
}

// cmpNum compares two numbers, infinities included.
func cmpNum(a, b numVal) int {
	if a.inf != 0 || b.inf != 0 {
		return cmpOrdered(int64(a.inf), int64(b.inf)) // finite counts as 0
	}
	return a.r.Cmp(b.r)
}

// textOf returns a row value of a text or binary column (a string or a
// []byte) as a string, and false for a value of another type.
func textOf(v any) (string, bool) {
	switch t := v.(type) {
	case string:
		return t, true
	case []byte:
		return string(t), true
	}
	return "", false
}
