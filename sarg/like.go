package sarg

// LIKE patterns and STARTS_WITH.
//
// A pattern is a sequence of characters in which % stands for any run of
// characters (the empty run included), _ for exactly one character, and the
// escape character (backslash unless the leaf says otherwise; none when it
// is empty) makes the character after it literal. On string, varchar and
// char columns a character is what utf8.DecodeRuneInString reads: a valid
// UTF-8 sequence, or one byte of an invalid one; on binary columns it is a
// byte. A char(n) value is matched without its trailing spaces (Hive's
// rule: the padding is not part of the value), so 'ab' LIKE 'ab' holds on a
// char(5) column as ab = 'ab' does.
//
// Pruning (spec.md 7.17): every value a pattern matches starts with the
// pattern's literal prefix, the characters before its first wildcard, so
// every match lies in the byte range [prefix, successor of prefix), where
// the successor drops trailing 0xFF bytes and adds one to the last byte
// (no successor: the range is unbounded above). A unit whose statistics
// show no value in that range holds no match. A pattern without wildcards
// is an equality (and may use bloom filters) except on char columns, where
// stored values are padded and only the range applies. A pattern with an
// empty prefix prunes nothing.

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/orcgo/orc"
)

// DefaultEscape is the escape character of a LIKE pattern built without
// one: a backslash, as in PostgreSQL, MySQL, Hive and Spark.
const DefaultEscape = `\`

// Like returns col LIKE pattern with the default escape character (a
// backslash). pattern is a string literal (or a bytes literal, for binary
// columns).
func Like(col string, pattern Literal) Expr { return LikeEscape(col, pattern, DefaultEscape) }

// LikeEscape returns col LIKE pattern ESCAPE escape; an empty escape means
// the pattern has no escape character.
func LikeEscape(col string, pattern Literal, escape string) Expr {
	return leaf(LeafLike, col, pattern, String(escape))
}

// NotLike returns col NOT LIKE pattern, that is NOT (col LIKE pattern).
func NotLike(col string, pattern Literal) Expr { return Not(Like(col, pattern)) }

// StartsWith returns the predicate that col begins with prefix: col LIKE
// the prefix with its wildcards and backslashes escaped, followed by %.
func StartsWith(col string, prefix Literal) Expr {
	var b strings.Builder
	for i := 0; i < len(prefix.s); i++ {
		if c := prefix.s[i]; c == '%' || c == '_' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(prefix.s[i])
	}
	b.WriteByte('%')
	p := prefix
	p.s = b.String()
	return Like(col, p)
}

// likeTok is one element of a compiled pattern.
type likeTok struct {
	kind uint8  // tokLit, tokAny, tokStar
	lit  string // tokLit: the character's bytes
}

const (
	tokLit  uint8 = iota // one literal character
	tokAny               // _ : one character
	tokStar              // % : any run of characters
)

// likePattern is a compiled LIKE pattern.
type likePattern struct {
	toks   []likeTok
	bytes  bool   // characters are bytes (binary columns)
	char   bool   // char(n) column: values are matched without trailing spaces
	prefix string // the literal characters before the first wildcard
	exact  bool   // no wildcard at all
	// pure: the pattern is prefix followed by % only, and a value matches
	// exactly when its bytes start with prefix (prefix is valid UTF-8 or
	// characters are bytes, so a byte prefix is a character prefix).
	pure bool
	// segs are the runs of toks between %s; lead and trail say whether
	// the first is anchored at the value's start and the last at its end
	// (the pattern does not start, or end, with %).
	segs        []likeSeg
	lead, trail bool
}

// likeSeg is a run of a pattern without %: literal characters and _s.
type likeSeg struct {
	toks []likeTok
	// lit is the run's bytes when it holds literals only and a byte match
	// is a character match (characters are bytes, or the run is valid
	// UTF-8: a valid sequence never starts inside another character, so
	// its bytes found in a value start and end on character boundaries).
	lit   string
	plain bool
}

// nextUnit returns the length of the character at s[i:].
func nextUnit(s string, i int, bytes bool) int {
	if bytes || s[i] < utf8.RuneSelf {
		return 1
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return n
}

// compileLike compiles pattern with escape ("" for none).
func compileLike(pattern, escape string, bytes bool) (*likePattern, error) {
	p := &likePattern{bytes: bytes}
	var prefix strings.Builder
	inPrefix := true
	for i := 0; i < len(pattern); {
		n := nextUnit(pattern, i, bytes)
		u := pattern[i : i+n]
		i += n
		switch {
		case escape != "" && u == escape:
			if i >= len(pattern) {
				return nil, fmt.Errorf("the pattern ends with the escape character %q", escape)
			}
			m := nextUnit(pattern, i, bytes)
			u = pattern[i : i+m]
			i += m
			p.toks = append(p.toks, likeTok{kind: tokLit, lit: u})
		case u == "%":
			if len(p.toks) == 0 || p.toks[len(p.toks)-1].kind != tokStar {
				p.toks = append(p.toks, likeTok{kind: tokStar})
			}
			inPrefix = false
			continue
		case u == "_":
			p.toks = append(p.toks, likeTok{kind: tokAny})
			inPrefix = false
			continue
		default:
			p.toks = append(p.toks, likeTok{kind: tokLit, lit: u})
		}
		if inPrefix {
			prefix.WriteString(u)
		}
	}
	p.prefix = prefix.String()
	p.exact = inPrefix
	lits := 0
	for lits < len(p.toks) && p.toks[lits].kind == tokLit {
		lits++
	}
	p.pure = lits == len(p.toks)-1 && p.toks[lits].kind == tokStar && (bytes || utf8.ValidString(p.prefix))
	p.lead = len(p.toks) == 0 || p.toks[0].kind != tokStar
	p.trail = len(p.toks) == 0 || p.toks[len(p.toks)-1].kind != tokStar
	var cur []likeTok
	flush := func() {
		seg := likeSeg{toks: cur, plain: true}
		var b strings.Builder
		for _, t := range cur {
			if t.kind != tokLit {
				seg.plain = false
				break
			}
			b.WriteString(t.lit)
		}
		if seg.plain {
			seg.lit = b.String()
			seg.plain = bytes || utf8.ValidString(seg.lit)
		}
		p.segs = append(p.segs, seg)
		cur = nil
	}
	for i, t := range p.toks {
		if t.kind == tokStar {
			if i > 0 {
				flush()
			}
			continue
		}
		cur = append(cur, t)
	}
	if len(cur) > 0 || len(p.toks) == 0 {
		flush()
	}
	return p, nil
}

// at matches the run at v[i:], one character per token, and returns where
// the match ends.
func (s *likeSeg) at(v string, i int, bytes bool) (int, bool) {
	for _, t := range s.toks {
		if i >= len(v) {
			return 0, false
		}
		n := nextUnit(v, i, bytes)
		if t.kind == tokLit && t.lit != v[i:i+n] {
			return 0, false
		}
		i += n
	}
	return i, true
}

// find returns the leftmost match of the run in v[i:limit] that starts on
// a character boundary at or after i (itself one): its start and end. A
// run of literals is found with strings.Index, in time linear in the
// value; a run with _s is tried at each character, in time at most the
// value's length times the run's.
func (s *likeSeg) find(v string, i, limit int, bytes bool) (int, int, bool) {
	w := v[:limit]
	if s.plain {
		k := strings.Index(w[i:], s.lit)
		if k < 0 {
			return 0, 0, false
		}
		return i + k, i + k + len(s.lit), true
	}
	for ; i <= len(w); i += nextUnit(w, i, bytes) {
		if end, ok := s.at(w, i, bytes); ok {
			return i, end, true
		}
		if i == len(w) {
			break
		}
	}
	return 0, 0, false
}

// startOfLast returns where the last n characters of v[from:] start, or
// false when it has fewer.
func startOfLast(v string, from, n int, bytes bool) (int, bool) {
	if bytes {
		k := len(v) - n
		return k, k >= from
	}
	count := 0
	for i := from; i < len(v); i += nextUnit(v, i, false) {
		count++
	}
	if count < n {
		return 0, false
	}
	i := from
	for range count - n {
		i += nextUnit(v, i, false)
	}
	return i, true
}

// match reports whether v matches the pattern, run by run: the first run
// at the value's start (unless the pattern starts with %), the last at its
// end (unless it ends with %), and each run between at its leftmost place
// after the one before. Leftmost is enough: a later place leaves the runs
// after it less room, never more. A pattern of % and literals thus takes
// time linear in the value (each run found with strings.Index); runs with
// _ take at most the value's length times the run's.
func (p *likePattern) match(v string) bool {
	if p.char {
		v = strings.TrimRight(v, " ")
	}
	if p.pure {
		return strings.HasPrefix(v, p.prefix)
	}
	segs := p.segs
	pos, limit := 0, len(v)
	if p.lead && p.trail && len(p.toks) > 0 && p.toks[0].kind != tokStar && len(segs) == 1 {
		end, ok := segs[0].at(v, 0, p.bytes)
		return ok && end == len(v)
	}
	if len(p.toks) == 0 {
		return v == ""
	}
	if p.lead {
		end, ok := segs[0].at(v, 0, p.bytes)
		if !ok {
			return false
		}
		pos, segs = end, segs[1:]
	}
	if p.trail {
		last := &segs[len(segs)-1]
		k, ok := startOfLast(v, pos, len(last.toks), p.bytes)
		if !ok {
			return false
		}
		if end, ok := last.at(v, k, p.bytes); !ok || end != len(v) {
			return false
		}
		limit, segs = k, segs[:len(segs)-1]
	}
	for i := range segs {
		_, end, ok := segs[i].find(v, pos, limit, p.bytes)
		if !ok {
			return false
		}
		pos = end
	}
	return pos <= limit
}

// likeReference is the plain definition of LIKE that EvalRow uses: both
// strings are split into characters and matched by dynamic programming over
// (characters of v consumed, pattern elements consumed). It shares no code
// with compileLike and match, which it checks.
func likeReference(v, pattern, escape string, bytes, char bool) (bool, error) {
	split := func(s string) []string {
		var out []string
		for len(s) > 0 {
			n := 1
			if !bytes {
				_, n = utf8.DecodeRuneInString(s)
			}
			out = append(out, s[:n])
			s = s[n:]
		}
		return out
	}
	if char {
		for strings.HasSuffix(v, " ") {
			v = v[:len(v)-1]
		}
	}
	vs, ps := split(v), split(pattern)
	// Elements: "%" and "_" are wildcards unless escaped; escaped ones are
	// marked with a leading NUL-free tag by keeping them in a separate slice.
	type elem struct {
		wild byte // 0, '%' or '_'
		lit  string
	}
	var es []elem
	for k := 0; k < len(ps); k++ {
		switch {
		case escape != "" && ps[k] == escape:
			if k+1 == len(ps) {
				return false, fmt.Errorf("the pattern ends with the escape character")
			}
			k++
			es = append(es, elem{lit: ps[k]})
		case ps[k] == "%" || ps[k] == "_":
			es = append(es, elem{wild: ps[k][0]})
		default:
			es = append(es, elem{lit: ps[k]})
		}
	}
	// Literal elements at either end must meet the value's characters one
	// for one; the rest goes to the table.
	for len(es) > 0 && es[0].wild == 0 {
		if len(vs) == 0 || vs[0] != es[0].lit {
			return false, nil
		}
		vs, es = vs[1:], es[1:]
	}
	for len(es) > 0 && es[len(es)-1].wild == 0 {
		if len(vs) == 0 || vs[len(vs)-1] != es[len(es)-1].lit {
			return false, nil
		}
		vs, es = vs[:len(vs)-1], es[:len(es)-1]
	}
	// cur[b]: vs[a:] matches es[b:]; next holds the same for a+1. Two
	// rows of the table, so memory stays linear in the pattern.
	cur, next := make([]bool, len(es)+1), make([]bool, len(es)+1)
	for a := len(vs); a >= 0; a-- {
		cur[len(es)] = a == len(vs)
		for b := len(es) - 1; b >= 0; b-- {
			e := es[b]
			switch {
			case e.wild == '%':
				cur[b] = cur[b+1] || a < len(vs) && next[b]
			case a == len(vs):
				cur[b] = false
			case e.wild == '_':
				cur[b] = next[b+1]
			default:
				cur[b] = e.lit == vs[a] && next[b+1]
			}
		}
		cur, next = next, cur
	}
	return next[0], nil
}

// prefixSuccessor returns the least byte string above every string that
// starts with p, or ok false when there is none (p empty or all 0xFF).
func prefixSuccessor(p string) (string, bool) {
	b := []byte(p)
	for len(b) > 0 && b[len(b)-1] == 0xFF {
		b = b[:len(b)-1]
	}
	if len(b) == 0 {
		return "", false
	}
	b[len(b)-1]++
	return string(b), true
}

// likeOutcome decides a LIKE leaf on a range of string values: whether
// some value may match (t) and whether some may not (f).
func likeOutcome(r *rng[string], p *likePattern) (t, f bool) {
	if r.hasLo && r.hasHi && r.cmp(r.lo, r.hi) > 0 {
		return true, true // inverted bounds: don't trust them
	}
	succ, bounded := prefixSuccessor(p.prefix)
	t = r.existsGE(p.prefix) && (!bounded || r.existsLT(succ))
	f = true
	if p.pure && !p.char {
		// Every value starting with prefix matches: FALSE needs a value
		// outside the range.
		f = r.existsLT(p.prefix) || bounded && r.existsGE(succ)
	}
	return t, f
}

// bindLike binds a LIKE leaf: a pattern without wildcards becomes an
// equality, except on char columns; any other keeps its compiled pattern.
func bindLike(bl *boundLeaf, l *Leaf) error {
	col := bl.col
	pat, esc := l.Literals[0], l.Literals[1]
	bytes := col.Kind == orc.Binary
	if bytes && len(esc.s) > 1 {
		return fmt.Errorf("the escape character %s must be one byte on a binary column", esc)
	}
	p, err := compileLike(pat.s, esc.s, bytes)
	if err != nil {
		return err
	}
	p.char = col.Kind == orc.Char
	if p.exact && !p.char {
		bl.op = LeafEquals
		bl.strs = []string{p.prefix}
		bl.probes = [][]byte{[]byte(p.prefix)}
		return nil
	}
	bl.like = p
	return nil
}

// checkLike returns why a LIKE leaf's literals are malformed, or "".
func checkLike(l *Leaf) string {
	pat, esc := l.Literals[0], l.Literals[1]
	if pat.kind != StringLit && pat.kind != BytesLit {
		return fmt.Sprintf("the pattern must be a string, not %s", withArticle(pat.kind.String()))
	}
	if esc.kind != StringLit {
		return fmt.Sprintf("the escape must be a string, not %s", withArticle(esc.kind.String()))
	}
	if esc.s != "" {
		if _, n := utf8.DecodeRuneInString(esc.s); n != len(esc.s) {
			return fmt.Sprintf("the escape %s must be one character or empty", esc)
		}
	}
	if esc.s == "%" || esc.s == "_" {
		return fmt.Sprintf("the escape %s cannot be a wildcard", esc)
	}
	return ""
}
