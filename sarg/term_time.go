package sarg

// Calendar terms: YEAR, QUARTER, MONTH, DAY, HOUR, MINUTE, SECOND,
// DAYOFWEEK (1 = Sunday .. 7 = Saturday, as Hive and Spark) and
// DATE_TRUNC of a date (its midnight) or a timestamp (its wall clock, read
// in the proleptic Gregorian calendar, whatever the writer's zone).
// EXTRACT(unit FROM x) is the function of that name.
//
// Intervals: a part is monotone within its period (a month within one
// year, an hour within one day, ...): where the unit's bounds lie in one
// period the part's interval is [part(lo), part(hi)], elsewhere the part's
// whole range (1..12 for MONTH). YEAR and DATE_TRUNC are monotone.

import (
	"fmt"
	"time"
)

func init() {
	registerFuncs(calParts, bindPart)
	termFuncs["DATE_TRUNC"] = bindTrunc
}

// calPart is one part of a date or wall clock.
type calPart struct {
	name   string
	lo, hi int64                   // the part's range
	of     func(sec int64) int64   // the part of a wall clock (seconds read as UTC)
	period func(sec int64) int64   // the period within which the part is monotone (nil: always)
	plain  func(t time.Time) int64 // the same through package time, for the reference
}

func dayOf(sec int64) int64 { return floorDiv(sec, 86400) }

var calParts = map[string]calPart{
	"YEAR": {"YEAR", -1 << 40, 1 << 40, func(s int64) int64 { y, _, _ := civilFromDays(dayOf(s)); return y }, nil,
		func(t time.Time) int64 { return int64(t.Year()) }},
	"QUARTER": {"QUARTER", 1, 4, func(s int64) int64 { _, m, _ := civilFromDays(dayOf(s)); return (m + 2) / 3 }, yearOf,
		func(t time.Time) int64 { return int64(t.Month()+2) / 3 }},
	"MONTH": {"MONTH", 1, 12, func(s int64) int64 { _, m, _ := civilFromDays(dayOf(s)); return m }, yearOf,
		func(t time.Time) int64 { return int64(t.Month()) }},
	"DAY": {"DAY", 1, 31, func(s int64) int64 { _, _, d := civilFromDays(dayOf(s)); return d },
		func(s int64) int64 { y, m, _ := civilFromDays(dayOf(s)); return y*12 + m }, func(t time.Time) int64 { return int64(t.Day()) }},
	"HOUR": {"HOUR", 0, 23, func(s int64) int64 { return floorMod(s, 86400) / 3600 }, dayOf,
		func(t time.Time) int64 { return int64(t.Hour()) }},
	"MINUTE": {"MINUTE", 0, 59, func(s int64) int64 { return floorMod(s, 3600) / 60 }, func(s int64) int64 { return floorDiv(s, 3600) },
		func(t time.Time) int64 { return int64(t.Minute()) }},
	"SECOND": {"SECOND", 0, 59, func(s int64) int64 { return floorMod(s, 60) }, func(s int64) int64 { return floorDiv(s, 60) },
		func(t time.Time) int64 { return int64(t.Second()) }},
	"DAYOFWEEK": {"DAYOFWEEK", 1, 7, func(s int64) int64 { return floorMod(dayOf(s)+4, 7) + 1 }, // 1970-01-01 was a Thursday
		func(s int64) int64 { return floorDiv(dayOf(s)-3, 7) }, // weeks from Sunday 1970-01-04
		func(t time.Time) int64 { return int64(t.Weekday()) + 1 }},
}

func yearOf(s int64) int64 { y, _, _ := civilFromDays(dayOf(s)); return y }

// bindPart binds a calendar part.
func bindPart(t Term, kids []*tnode) (fnImpl, ttype, []*tnode, error) {
	if err := wantArgs(t, kids, 1); err != nil {
		return nil, ttype{}, nil, err
	}
	k := kids[0].t.k
	if k == tkInstant {
		return nil, ttype{}, nil, termErrorf("%s of a timestamp with local time zone depends on a zone the predicate does not give: %s", t.Fn, t)
	}
	if k != tkDate && k != tkTs {
		return nil, ttype{}, nil, termErrorf("%s needs a date or timestamp column or term, not %s: %s", t.Fn, withArticle(kids[0].t.String()), t)
	}
	prec := 2
	if t.Fn == "YEAR" {
		prec = 12
	}
	return partFn{p: calParts[t.Fn], date: k == tkDate}, ttype{k: tkInt, prec: prec}, kids, nil
}

// partFn is a calendar part of a date (date) or a wall clock.
type partFn struct {
	p    calPart
	date bool
}

// secs returns the values as wall clocks in seconds.
func secsOf(a *tvec, date bool, n int, buf *[]int64) []int64 {
	if !date {
		return a.sec[:n]
	}
	s := grow(*buf, n)
	*buf = s
	for i, d := range a.i[:n] {
		s[i] = d * 86400
	}
	return s
}

func (f partFn) eval(args []*tvec, n int, out *tvec) error {
	out.i = grow(out.i, n)
	for i, s := range secsOf(args[0], f.date, n, &out.sec) {
		out.i[i] = f.p.of(s)
	}
	return nil
}

func (f partFn) plain(args []any) (any, error) {
	t, err := plainTime(args[0])
	if err != nil {
		return nil, err
	}
	return ratOf(f.p.plain(t)), nil
}

// plainTime returns a date or wall clock as a time in UTC.
func plainTime(v any) (time.Time, error) {
	switch x := v.(type) {
	case int64:
		return time.Unix(x*86400, 0).UTC(), nil
	case tsVal:
		return time.Unix(x.sec, int64(x.nanos)).UTC(), nil
	}
	return time.Time{}, fmt.Errorf("sarg: %v (%T) is no date or timestamp", v, v)
}

// secBounds returns an interval's bounds as wall-clock seconds.
func secBounds(iv ival, date bool) (lo, hi int64) {
	if date {
		return iv.lo.r.Num().Int64() * 86400, iv.hi.r.Num().Int64() * 86400
	}
	return iv.lo.ts.sec, iv.hi.ts.sec
}

func (f partFn) ival(args []ival) ival {
	a := args[0]
	out := ival{val: a.val, null: a.null}
	if !a.val {
		return out
	}
	out.bounded = true
	out.lo, out.hi = tval{r: ratOf(f.p.lo)}, tval{r: ratOf(f.p.hi)}
	if !a.bounded {
		if f.p.name == "YEAR" {
			out.bounded = false
		}
		return out
	}
	if f.date && f.p.lo == 0 {
		out.lo, out.hi = tval{r: ratOf(0)}, tval{r: ratOf(0)} // a date's midnight
		return out
	}
	lo, hi := secBounds(a, f.date)
	if f.p.period == nil || f.p.period(lo) == f.p.period(hi) {
		out.lo, out.hi = tval{r: ratOf(f.p.of(lo))}, tval{r: ratOf(f.p.of(hi))}
	}
	return out
}

// bindTrunc binds DATE_TRUNC(unit, x).
func bindTrunc(t Term, kids []*tnode) (fnImpl, ttype, []*tnode, error) {
	if err := wantArgs(t, kids, 1); err != nil {
		return nil, ttype{}, nil, err
	}
	if why := (&Func{Kind: FuncDateTrunc, Unit: t.Param}).check(); why != "" {
		return nil, ttype{}, nil, termErrorf("%s", why)
	}
	k := kids[0].t.k
	if k == tkInstant {
		return nil, ttype{}, nil, termErrorf("DATE_TRUNC of a timestamp with local time zone depends on a zone the predicate does not give: %s", t)
	}
	if k != tkDate && k != tkTs {
		return nil, ttype{}, nil, termErrorf("DATE_TRUNC needs a date or timestamp column or term, not %s: %s", withArticle(kids[0].t.String()), t)
	}
	return truncFn{unit: t.Param, date: k == tkDate}, kids[0].t, kids, nil
}

// truncFn is DATE_TRUNC: a date stays a date, a timestamp loses its
// nanoseconds.
type truncFn struct {
	unit string
	date bool
}

func (f truncFn) eval(args []*tvec, n int, out *tvec) error {
	a := args[0]
	if f.date {
		out.i = grow(out.i, n)
		for i, d := range a.i[:n] {
			out.i[i] = truncDays(d, f.unit)
		}
		return nil
	}
	out.sec, out.ns = grow(out.sec, n), grow(out.ns, n)
	for i, s := range a.sec[:n] {
		out.sec[i] = truncSeconds(s, f.unit)
	}
	return nil
}

func (f truncFn) plain(args []any) (any, error) {
	t, err := plainTime(args[0])
	if err != nil {
		return nil, err
	}
	y, m, d := t.Date()
	var u time.Time
	switch f.unit {
	case "year":
		u = time.Date(y, 1, 1, 0, 0, 0, 0, time.UTC)
	case "quarter":
		u = time.Date(y, (m-1)/3*3+1, 1, 0, 0, 0, 0, time.UTC)
	case "month":
		u = time.Date(y, m, 1, 0, 0, 0, 0, time.UTC)
	case "week":
		u = time.Date(y, m, d-(int(t.Weekday())+6)%7, 0, 0, 0, 0, time.UTC)
	case "day":
		u = time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	case "hour":
		u = time.Date(y, m, d, t.Hour(), 0, 0, 0, time.UTC)
	case "minute":
		u = time.Date(y, m, d, t.Hour(), t.Minute(), 0, 0, time.UTC)
	default:
		u = time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
	}
	if f.date {
		return floorDiv(u.Unix(), 86400), nil
	}
	return tsVal{u.Unix(), 0}, nil
}

func (f truncFn) ival(args []ival) ival {
	a := args[0]
	if !a.bounded {
		return a
	}
	if f.date {
		a.lo = tval{r: ratOf(truncDays(a.lo.r.Num().Int64(), f.unit))}
		a.hi = tval{r: ratOf(truncDays(a.hi.r.Num().Int64(), f.unit))}
		return a
	}
	a.lo = tval{ts: tsVal{truncSeconds(a.lo.ts.sec, f.unit), 0}}
	a.hi = tval{ts: tsVal{truncSeconds(a.hi.ts.sec, f.unit), 0}}
	return a
}

// wrapped returns the part's values on the argument's interval a as two
// intervals, when a's bounds lie in consecutive periods and the part wraps
// around between them: from November 1995 to February 1996, MONTH takes
// 11..12 and 1..2, not the 3..10 in between, where the interval method
// alone says 1..12. ok is false elsewhere (ival's one interval is then as
// tight). Each piece keeps a's null; a piece may include values no day
// takes (DAY 31 after a short month), which only keeps more.
func (f partFn) wrapped(a ival) (first, second ival, ok bool) {
	if !a.val || !a.bounded || f.p.period == nil || f.date && f.p.lo == 0 {
		return ival{}, ival{}, false
	}
	lo, hi := secBounds(a, f.date)
	if f.p.period(hi) != f.p.period(lo)+1 {
		return ival{}, ival{}, false
	}
	plo, phi := f.p.of(lo), f.p.of(hi)
	if phi+1 >= plo {
		return ival{}, ival{}, false // the two pieces hold every value of the part
	}
	first = ival{val: true, null: a.null, bounded: true, lo: tval{r: ratOf(plo)}, hi: tval{r: ratOf(f.p.hi)}}
	second = ival{val: true, null: a.null, bounded: true, lo: tval{r: ratOf(f.p.lo)}, hi: tval{r: ratOf(phi)}}
	return first, second, true
}

// periodNames name the period within which each part is monotone.
var periodNames = map[string]string{"QUARTER": "year", "MONTH": "year", "DAY": "month", "HOUR": "day", "MINUTE": "hour",
	"SECOND": "minute", "DAYOFWEEK": "week"}

// why says why the part has only its whole range on the argument's
// interval.
func (f partFn) why(args []ival) string {
	a := args[0]
	switch {
	case !a.val || f.date && f.p.lo == 0 || f.p.period == nil:
		return ""
	case !a.bounded:
		return "the column has no minimum and maximum here"
	}
	lo, hi := secBounds(a, f.date)
	if f.p.period(lo) == f.p.period(hi) {
		return ""
	}
	if _, _, ok := f.wrapped(a); ok {
		return ""
	}
	p := periodNames[f.p.name]
	return fmt.Sprintf("%s is monotone only within one %s, and the minimum and maximum lie in different %ss", f.p.name, p, p)
}
