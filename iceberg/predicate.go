package iceberg

import (
	"math"
	"strings"

	ice "github.com/apache/iceberg-go"
	"github.com/orcgo/orc/sarg"
)

// Translating an orcgo search argument into an Iceberg row filter for scan
// planning. The filter only decides which files to open, so it must keep
// every file that may hold a matching row: each translation keeps at least
// the rows the predicate keeps. A leaf Iceberg cannot state (LIKE, a
// function of a column, two columns compared, a literal that does not fit
// the column's type, a column the table lacks) becomes TRUE: it is left to
// orcgo's reader of each file, never dropped. Under NOT, a leaf becomes its
// Iceberg negation, whose null handling keeps at least SQL's rows (NOT
// (c = v) keeps the nulls too in Iceberg); NOT over a leaf that became TRUE
// stays TRUE.

// leafKind is a comparison as the translation builds it.
type leafKind uint8

const (
	kEq leafKind = iota
	kNe
	kLt
	kLe
	kGt
	kGe
)

// IcebergFilter returns an Iceberg row filter that keeps at least the rows
// predicate e keeps on table schema s (see above).
func IcebergFilter(s *ice.Schema, e sarg.Expr) ice.BooleanExpression {
	return translate(s, e, false)
}

func translate(s *ice.Schema, e sarg.Expr, neg bool) ice.BooleanExpression {
	switch e.Op {
	case sarg.OpTrue, sarg.OpNull:
		return ice.AlwaysTrue{}
	case sarg.OpFalse:
		if neg {
			return ice.AlwaysTrue{}
		}
		return ice.AlwaysFalse{}
	case sarg.OpNot:
		if len(e.Children) != 1 {
			return ice.AlwaysTrue{}
		}
		return translate(s, e.Children[0], !neg)
	case sarg.OpAnd, sarg.OpOr:
		if len(e.Children) == 0 {
			return ice.AlwaysTrue{}
		}
		out := translate(s, e.Children[0], neg)
		for _, c := range e.Children[1:] {
			next := translate(s, c, neg)
			if (e.Op == sarg.OpAnd) != neg { // AND, or OR under NOT
				out = ice.NewAnd(out, next)
			} else {
				out = ice.NewOr(out, next)
			}
		}
		return out
	case sarg.OpLeaf:
		if e.Leaf != nil {
			return translateLeaf(s, e.Leaf, neg)
		}
	}
	return ice.AlwaysTrue{}
}

func translateLeaf(s *ice.Schema, l *sarg.Leaf, neg bool) ice.BooleanExpression {
	if l.Func != nil || l.Other != "" || strings.Contains(l.Column, "`") {
		return ice.AlwaysTrue{}
	}
	f, ok := s.FindFieldByName(l.Column)
	if !ok {
		return ice.AlwaysTrue{}
	}
	ref := ice.Reference(l.Column)
	val := func(i int) (any, bool) {
		if i >= len(l.Literals) {
			return nil, false
		}
		return goValue(f.Type, l.Literals[i])
	}
	switch l.Op {
	case sarg.LeafIsNull:
		if neg {
			return ice.NotNull(ref)
		}
		return ice.IsNull(ref)
	case sarg.LeafEquals, sarg.LeafNullSafeEquals:
		if len(l.Literals) == 1 && l.Literals[0].IsNull() && l.Op == sarg.LeafNullSafeEquals {
			return translateLeaf(s, &sarg.Leaf{Op: sarg.LeafIsNull, Column: l.Column}, neg)
		}
		v, ok := val(0)
		if !ok {
			return ice.AlwaysTrue{}
		}
		if !neg {
			return compare(kEq, ref, v)
		}
		return ice.NewOr(compare(kNe, ref, v), ice.IsNull(ref))
	case sarg.LeafLessThan, sarg.LeafLessThanEquals:
		v, ok := val(0)
		if !ok {
			return ice.AlwaysTrue{}
		}
		k := map[[2]bool]leafKind{{true, false}: kLt, {false, false}: kLe, {true, true}: kGe, {false, true}: kGt}[[2]bool{l.Op == sarg.LeafLessThan, neg}]
		return compare(k, ref, v)
	case sarg.LeafBetween:
		lo, ok1 := val(0)
		hi, ok2 := val(1)
		if !ok1 || !ok2 {
			return ice.AlwaysTrue{}
		}
		if neg {
			return ice.NewOr(compare(kLt, ref, lo), compare(kGt, ref, hi))
		}
		return ice.NewAnd(compare(kGe, ref, lo), compare(kLe, ref, hi))
	case sarg.LeafIn:
		return translateIn(f.Type, ref, l.Literals, neg)
	}
	return ice.AlwaysTrue{}
}

func translateIn(t ice.Type, ref ice.Reference, lits []sarg.Literal, neg bool) ice.BooleanExpression {
	var out ice.BooleanExpression
	for _, lit := range lits {
		if lit.IsNull() {
			if neg { // NOT (c IN (..., NULL)) is never TRUE; keeping all is safe
				return ice.AlwaysTrue{}
			}
			continue
		}
		v, ok := goValue(t, lit)
		if !ok {
			return ice.AlwaysTrue{}
		}
		k := kEq
		if neg {
			k = kNe
		}
		c := compare(k, ref, v)
		switch {
		case out == nil:
			out = c
		case neg:
			out = ice.NewAnd(out, c)
		default:
			out = ice.NewOr(out, c)
		}
	}
	if out == nil {
		if neg {
			return ice.AlwaysTrue{}
		}
		return ice.AlwaysFalse{}
	}
	return out
}

// goValue converts a literal to the Go value of an Iceberg literal of
// column type t; ok is false where that would change the comparison.
func goValue(t ice.Type, l sarg.Literal) (any, bool) {
	switch t.(type) {
	case ice.Int32Type:
		if l.Kind() == sarg.IntLit && l.Int64() >= math.MinInt32 && l.Int64() <= math.MaxInt32 {
			return int32(l.Int64()), true
		}
	case ice.Int64Type:
		if l.Kind() == sarg.IntLit {
			return l.Int64(), true
		}
	case ice.Float64Type:
		if l.Kind() == sarg.FloatLit && !math.IsNaN(l.Float64()) {
			return l.Float64(), true
		}
	case ice.StringType:
		if l.Kind() == sarg.StringLit {
			return l.Str(), true
		}
	case ice.BooleanType:
		if l.Kind() == sarg.BoolLit {
			return l.Int64() != 0, true
		}
	case ice.DateType:
		if l.Kind() == sarg.DateLit {
			return ice.Date(l.Int64()), true
		}
	case ice.TimestampType:
		if l.Kind() == sarg.TimestampLit && l.Zone() == nil && l.Nanos()%1000 == 0 {
			return ice.Timestamp(l.Int64()*1_000_000 + int64(l.Nanos()/1000)), true
		}
	case ice.TimestampTzType:
		if l.Kind() == sarg.InstantLit && l.Nanos()%1000 == 0 {
			return ice.Timestamp(l.Int64()*1_000_000 + int64(l.Nanos()/1000)), true
		}
	}
	return nil, false
}

func compare(k leafKind, ref ice.Reference, v any) ice.BooleanExpression {
	switch x := v.(type) {
	case int32:
		return compareT(k, ref, x)
	case int64:
		return compareT(k, ref, x)
	case float64:
		return compareT(k, ref, x)
	case string:
		return compareT(k, ref, x)
	case bool:
		return compareT(k, ref, x)
	case ice.Date:
		return compareT(k, ref, x)
	case ice.Timestamp:
		return compareT(k, ref, x)
	}
	return ice.AlwaysTrue{}
}

func compareT[T ice.LiteralType](k leafKind, ref ice.Reference, v T) ice.BooleanExpression {
	switch k {
	case kEq:
		return ice.EqualTo(ref, v)
	case kNe:
		return ice.NotEqualTo(ref, v)
	case kLt:
		return ice.LessThan(ref, v)
	case kLe:
		return ice.LessThanEqual(ref, v)
	case kGt:
		return ice.GreaterThan(ref, v)
	}
	return ice.GreaterThanEqual(ref, v)
}
