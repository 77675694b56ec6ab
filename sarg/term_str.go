package sarg

// Text terms: LENGTH, LOWER, UPPER, SUBSTR, TRIM, || and REGEXP_LIKE.
// Characters are UTF-8 sequences (an invalid byte counts as one) on text,
// bytes on binary; a char value has lost its padding before any of these
// see it (Hive's rule). LOWER and UPPER use Unicode's simple case mappings.
// REGEXP_LIKE uses Go's RE2 syntax and is TRUE when the pattern matches
// some part of the value.
//
// Intervals: SUBSTR(s, 1, n) keeps a prefix, which keeps byte order, so it
// maps [lo, hi] to [SUBSTR(lo, 1, n), SUBSTR(hi, 1, n)]; the others keep
// only their nulls (the values are unbounded).

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

func init() {
	registerFuncs(textOps, bindText)
	termFuncs["SUBSTR"] = bindSubstr
	termFuncs["REGEXP_LIKE"] = bindRegexp
}

// textOp is one text function.
type textOp uint8

const (
	txLength textOp = iota
	txLower
	txUpper
	txTrim
	txConcat
)

var textOps = map[string]textOp{"LENGTH": txLength, "LOWER": txLower, "UPPER": txUpper, "TRIM": txTrim, "||": txConcat}

// bindText binds LENGTH, LOWER, UPPER, TRIM and ||.
func bindText(t Term, kids []*tnode) (fnImpl, ttype, []*tnode, error) {
	op := textOps[t.Fn]
	want := 1
	if op == txConcat {
		want = 2
	}
	if err := wantArgs(t, kids, want); err != nil {
		return nil, ttype{}, nil, err
	}
	k := kids[0].t.k
	for _, c := range kids {
		if c.t.k != k || k != tkStr && (k != tkBin || op == txLower || op == txUpper || op == txTrim) {
			want := "a string, varchar or char"
			if op == txLength || op == txConcat {
				want = "a string, varchar, char or binary"
			}
			return nil, ttype{}, nil, termErrorf("%s needs %s column or term, not %s: %s", t.Fn, want, withArticle(c.t.String()), t)
		}
	}
	res := kids[0].t
	if op == txLength {
		res = ttype{k: tkInt, prec: 10}
	}
	return textFn{op: op, bin: k == tkBin}, res, kids, nil
}

// textFn is a text function.
type textFn struct {
	op  textOp
	bin bool
}

func (f textFn) eval(args []*tvec, n int, out *tvec) error {
	a := args[0]
	switch f.op {
	case txLength:
		out.i = grow(out.i, n)
		for i := 0; i < n; i++ {
			out.i[i] = f.length(a.bytesAt(i))
		}
		return nil
	case txTrim:
		out.data, out.st, out.en = a.data, grow(out.st, n), grow(out.en, n)
		for i := 0; i < n; i++ {
			s, e := a.st[i], a.en[i]
			for s < e && a.data[s] == ' ' {
				s++
			}
			for e > s && a.data[e-1] == ' ' {
				e--
			}
			out.st[i], out.en[i] = s, e
		}
		return nil
	}
	out.st, out.en = grow(out.st, n), grow(out.en, n)
	for i := 0; i < n; i++ {
		out.st[i] = len(out.data)
		switch f.op {
		case txConcat:
			out.data = append(append(out.data, a.bytesAt(i)...), args[1].bytesAt(i)...)
		default:
			out.data = mapCase(out.data, a.bytesAt(i), f.op == txUpper)
		}
		out.en[i] = len(out.data)
	}
	return nil
}

func (f textFn) length(b []byte) int64 {
	if f.bin {
		return int64(len(b))
	}
	return int64(utf8.RuneCount(b))
}

func (f textFn) plain(args []any) (any, error) {
	s, ok := args[0].(string)
	if !ok {
		return nil, fmt.Errorf("sarg: %v (%T) is no text", args[0], args[0])
	}
	switch f.op {
	case txLength:
		if f.bin {
			return ratOf(int64(len(s))), nil
		}
		return ratOf(int64(utf8.RuneCountInString(s))), nil
	case txLower:
		return string(mapCase(nil, []byte(s), false)), nil
	case txUpper:
		return string(mapCase(nil, []byte(s), true)), nil
	case txTrim:
		return strings.Trim(s, " "), nil
	}
	s2, _ := args[1].(string)
	return s + s2, nil
}

func (f textFn) ival(args []ival) ival {
	out := strictIval(args)
	return ival{val: out.val, null: out.null} // unbounded: the values' order is not their arguments'
}

// bindSubstr binds SUBSTR(s, start[, length]) with integer constants.
func bindSubstr(t Term, kids []*tnode) (fnImpl, ttype, []*tnode, error) {
	if len(kids) != 2 && len(kids) != 3 {
		return nil, ttype{}, nil, termErrorf("SUBSTR takes 2 or 3 arguments, not %d", len(kids))
	}
	if k := kids[0].t.k; k != tkStr && k != tkBin {
		return nil, ttype{}, nil, termErrorf("SUBSTR needs text, not %s: %s", kids[0].t, t)
	}
	f := substrFn{bin: kids[0].t.k == tkBin, length: -1}
	for i, a := range t.Args[1:] {
		if !a.isLiteral() || a.Lit.kind != IntLit {
			return nil, ttype{}, nil, termErrorf("SUBSTR's start and length must be integer constants: %s", t)
		}
		if i == 0 {
			f.start = a.Lit.i
		} else if f.length = a.Lit.i; f.length < 0 {
			f.length = 0
		}
	}
	return f, kids[0].t, kids[:1], nil
}

// substrFn is SUBSTR: characters from start (1 is the first; 0 counts as
// 1; a negative start counts from the end, as Hive), length of them (all
// when length < 0).
type substrFn struct {
	bin           bool
	start, length int64
}

// cut returns the byte range of the substring of b.
func (f substrFn) cut(b []byte) (int, int) {
	n := int64(len(b))
	if !f.bin {
		n = int64(utf8.RuneCount(b))
	}
	from := f.start - 1
	if f.start == 0 {
		from = 0
	} else if f.start < 0 {
		from = n + f.start
	}
	if from < 0 || from >= n {
		return 0, 0
	}
	to := n
	if f.length >= 0 && f.length < n-from {
		to = from + f.length
	}
	if f.bin {
		return int(from), int(to)
	}
	return runeOffset(b, from), runeOffset(b, to)
}

// runeOffset returns the byte offset of character c of b.
func runeOffset(b []byte, c int64) int {
	off := 0
	for ; c > 0 && off < len(b); c-- {
		_, size := utf8.DecodeRune(b[off:])
		off += size
	}
	return off
}

func (f substrFn) eval(args []*tvec, n int, out *tvec) error {
	a := args[0]
	out.data, out.st, out.en = a.data, grow(out.st, n), grow(out.en, n)
	for i := 0; i < n; i++ {
		s, e := f.cut(a.bytesAt(i))
		out.st[i], out.en[i] = a.st[i]+s, a.st[i]+e
	}
	return nil
}

func (f substrFn) plain(args []any) (any, error) {
	s, ok := args[0].(string)
	if !ok {
		return nil, fmt.Errorf("sarg: %v (%T) is no text", args[0], args[0])
	}
	if f.bin {
		a, b := f.cut([]byte(s))
		return s[a:b], nil
	}
	// Character by character, for the reference.
	var chars []string
	for b := []byte(s); len(b) > 0; {
		_, size := utf8.DecodeRune(b)
		chars = append(chars, string(b[:size]))
		b = b[size:]
	}
	from := f.start - 1
	switch {
	case f.start == 0:
		from = 0
	case f.start < 0:
		from = int64(len(chars)) + f.start
	}
	if from < 0 || from >= int64(len(chars)) {
		return "", nil
	}
	to := int64(len(chars))
	if f.length >= 0 && f.length < to-from {
		to = from + f.length
	}
	return strings.Join(chars[from:to], ""), nil
}

func (f substrFn) ival(args []ival) ival {
	a := args[0]
	if !a.bounded || f.start != 1 && f.start != 0 || f.bin {
		a.bounded = false
		return a
	}
	// A prefix of every value: prefixes keep byte order.
	lo, hi := []byte(a.lo.s), []byte(a.hi.s)
	s1, e1 := f.cut(lo)
	s2, e2 := f.cut(hi)
	a.lo, a.hi = tval{s: string(lo[s1:e1])}, tval{s: string(hi[s2:e2])}
	return a
}

// bindRegexp binds REGEXP_LIKE(s, 'pattern').
func bindRegexp(t Term, kids []*tnode) (fnImpl, ttype, []*tnode, error) {
	if err := wantArgs(t, kids, 2); err != nil {
		return nil, ttype{}, nil, err
	}
	if k := kids[0].t.k; k != tkStr && k != tkBin {
		return nil, ttype{}, nil, termErrorf("REGEXP_LIKE needs text, not %s: %s", kids[0].t, t)
	}
	p := t.Args[1]
	if !p.isLiteral() || p.Lit.kind != StringLit {
		return nil, ttype{}, nil, termErrorf("REGEXP_LIKE's pattern must be a quoted string: %s", t)
	}
	re, err := regexp.Compile(p.Lit.s)
	if err != nil {
		return nil, ttype{}, nil, termErrorf("REGEXP_LIKE pattern %s: %v", p.Lit, err)
	}
	return regexpFn{re: re}, ttype{k: tkBool}, kids[:1], nil
}

// regexpFn is REGEXP_LIKE.
type regexpFn struct{ re *regexp.Regexp }

func (f regexpFn) eval(args []*tvec, n int, out *tvec) error {
	a := args[0]
	out.i = grow(out.i, n)
	for i := 0; i < n; i++ {
		if !a.isNull(i) {
			out.i[i] = b2i(f.re.Match(a.bytesAt(i)))
		}
	}
	return nil
}

func (f regexpFn) plain(args []any) (any, error) {
	s, _ := args[0].(string)
	return f.re.MatchString(s), nil
}

func (f regexpFn) ival(args []ival) ival {
	return boolIval(args[0].val, args[0].val, args[0].null)
}

// never says why the function's values are never bounded.
func (f textFn) never() string {
	switch f.op {
	case txLength:
		return "the minimum and maximum of strings bound their order, not their lengths"
	case txLower, txUpper:
		return "byte order is not case order, so the minimum and maximum say nothing of the values' case mappings"
	}
	return ""
}
