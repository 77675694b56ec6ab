package sarg

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/stats"
)

// likePieces build values and patterns that stress LIKE: wildcards and
// escapes as data, multi-byte characters, a lone continuation byte, 0xFF,
// spaces (char padding) and a long shared prefix.
var likePieces = []string{"a", "b", "é", "日", "\xff", "\x80", "%", "_", `\`, " ", "!", "ab", strings.Repeat("x", 40)}

func randLikeString(r *rand.Rand, max int) string {
	var b strings.Builder
	for range r.IntN(max + 1) {
		b.WriteString(likePieces[r.IntN(len(likePieces))])
	}
	return b.String()
}

// randPattern returns a pattern over likePieces with wildcards mixed in,
// and its escape.
func randPattern(r *rand.Rand) (string, string) {
	esc := []string{`\`, `\`, "!", "", "é"}[r.IntN(5)]
	var b strings.Builder
	for range r.IntN(6) {
		switch r.IntN(6) {
		case 0:
			b.WriteByte('%')
		case 1:
			b.WriteByte('_')
		case 2:
			if esc != "" {
				b.WriteString(esc)
				b.WriteString([]string{"%", "_", esc, "a"}[r.IntN(4)])
			}
		default:
			p := likePieces[r.IntN(len(likePieces))]
			if p == esc {
				p += p
			}
			b.WriteString(p)
		}
	}
	if r.IntN(3) == 0 {
		b.WriteByte('%')
	}
	return b.String(), esc
}

// TestLikeMatchesReference checks the compiled matcher against the
// dynamic-programming definition, in character, byte and char modes.
func TestLikeMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 32))
	iters := 20000
	if testing.Short() {
		iters = 10000
	}
	hits := 0
	for range iters {
		pat, esc := randPattern(r)
		bytes, char := r.IntN(3) == 0, r.IntN(3) == 0
		if bytes && len(esc) > 1 {
			esc = "!"
		}
		p, err := compileLike(pat, esc, bytes)
		_, refErr := likeReference("", pat, esc, bytes, char)
		if (err != nil) != (refErr != nil) {
			t.Fatalf("pattern %q escape %q: compile error %v, reference error %v", pat, esc, err, refErr)
		}
		if err != nil {
			continue
		}
		p.char = char
		for range 8 {
			v := randLikeString(r, 4)
			if r.IntN(3) == 0 {
				v = p.prefix + v // values that share the prefix
			}
			want, _ := likeReference(v, pat, esc, bytes, char)
			if got := p.match(v); got != want {
				t.Fatalf("%q LIKE %q ESCAPE %q (bytes %v, char %v): match %v, reference %v", v, pat, esc, bytes, char, got, want)
			}
			if want {
				hits++
			}
		}
	}
	if hits < iters/10 {
		t.Errorf("only %d matches: the cases are too weak", hits)
	}
}

func TestLikeReferenceCases(t *testing.T) {
	for _, c := range []struct {
		v, pat, esc string
		bytes, char bool
		want        bool
	}{
		{"abc", "abc", `\`, false, false, true},
		{"abc", "a%", `\`, false, false, true},
		{"abc", "%c", `\`, false, false, true},
		{"abc", "a_c", `\`, false, false, true},
		{"aéc", "a_c", `\`, false, false, true},  // é is one character
		{"aéc", "a_c", `\`, true, false, false},  // but two bytes
		{"aéc", "a__c", `\`, true, false, true},  // on binary columns
		{"a%c", `a\%c`, `\`, false, false, true}, // escaped wildcard
		{"abc", `a\%c`, `\`, false, false, false},
		{"a%c", "a!%c", "!", false, false, true},
		{`a\c`, `a\c`, "", false, false, true},  // no escape
		{"ab   ", "ab", `\`, false, true, true}, // char padding is not part of the value
		{"ab   ", "ab %", `\`, false, true, false},
		{"", "%", `\`, false, false, true},
		{"", "_", `\`, false, false, false},
		{"\xff\x80", "__", `\`, false, false, true}, // invalid bytes are one character each
		{"é", "\xc3%", `\`, false, false, false},    // a lone lead byte is not é's first character
		{"é", "\xc3%", `\`, true, false, true},      // but on binary it is é's first byte
	} {
		got, err := likeReference(c.v, c.pat, c.esc, c.bytes, c.char)
		if err != nil || got != c.want {
			t.Errorf("%q LIKE %q ESCAPE %q bytes=%v char=%v: %v, %v; want %v", c.v, c.pat, c.esc, c.bytes, c.char, got, err, c.want)
		}
		p, err := compileLike(c.pat, c.esc, c.bytes)
		if err != nil {
			t.Fatal(err)
		}
		p.char = c.char
		if p.match(c.v) != c.want {
			t.Errorf("%q LIKE %q ESCAPE %q bytes=%v char=%v: match %v, want %v", c.v, c.pat, c.esc, c.bytes, c.char, !c.want, c.want)
		}
	}
}

func TestPrefixSuccessor(t *testing.T) {
	for _, c := range []struct {
		in, want string
		ok       bool
	}{
		{"", "", false}, {"\xff\xff", "", false}, {"a", "b", true}, {"a\xff", "b", true},
		{"é", "é"[:1] + "\xaa", true}, {"a\xfe", "a\xff", true},
	} {
		got, ok := prefixSuccessor(c.in)
		if got != c.want || ok != c.ok {
			t.Errorf("prefixSuccessor(%q) = %q, %v; want %q, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// likeStats computes a string column's statistics the way writers do,
// truncating bounds at random: a lower bound is a prefix of the minimum, an
// upper bound the successor of a prefix of the maximum.
func likeStats(r *rand.Rand, kind orc.Kind, vals []any) *stats.Column {
	c := &stats.Column{Kind: kind, HasNullKnown: true}
	var ss []string
	for _, v := range vals {
		if v == nil {
			c.HasNull = true
			continue
		}
		ss = append(ss, v.(string))
	}
	c.NumValues = uint64(len(ss))
	if kind == orc.Binary {
		c.Binary = &stats.BinaryStats{}
		return c
	}
	if len(ss) == 0 {
		return c
	}
	s := &stats.StringStats{Min: ss[0], Max: ss[0], HasMin: true, HasMax: true}
	for _, v := range ss {
		s.Min, s.Max = min(s.Min, v), max(s.Max, v)
	}
	if r.IntN(3) == 0 && len(s.Min) > 0 {
		s.Min, s.MinIsLowerBound = s.Min[:r.IntN(len(s.Min))], true
	}
	if r.IntN(3) == 0 && len(s.Max) > 0 {
		if succ, ok := prefixSuccessor(s.Max[:1+r.IntN(len(s.Max))]); ok {
			s.Max, s.MaxIsUpperBound = succ, true
		} else {
			s.HasMax = false
		}
	}
	c.String = s
	return c
}

// TestLikeSoundness evaluates random LIKE, NOT LIKE and STARTS_WITH leaves
// on random units: every row's outcome must be among those Evaluate allows,
// and Match must agree with EvalRow.
func TestLikeSoundness(t *testing.T) {
	schema := orc.MustParseSchema("struct<s:string,c:char(6),b:binary,v:varchar(8)>")
	r := rand.New(rand.NewPCG(5, 55))
	iters := 20000
	if testing.Short() {
		iters = 4000
	}
	pruned, matched := 0, 0
	for range iters {
		colName := []string{"s", "c", "b", "v"}[r.IntN(4)]
		node := schema.Find(colName)
		pat, esc := randPattern(r)
		if node.Kind == orc.Binary && len(esc) > 1 {
			esc = "!"
		}
		var e Expr
		switch r.IntN(4) {
		case 0:
			e = StartsWith(colName, String(randLikeString(r, 3)))
		default:
			e = LikeEscape(colName, String(pat), esc)
		}
		if r.IntN(3) == 0 {
			e = Not(e)
		}
		b, err := Bind(e, schema)
		if err != nil {
			if errors.Is(err, ErrTypeMismatch) && strings.Contains(err.Error(), "escape character") {
				continue
			}
			t.Fatalf("Bind(%s): %v", e, err)
		}
		// A unit of rows; values often share the pattern's prefix.
		n := 1 + r.IntN(6)
		vals := make([]any, n)
		prefix := ""
		if len(b.leaves) == 1 && b.leaves[0].like != nil {
			prefix = b.leaves[0].like.prefix
		}
		for i := range vals {
			if r.IntN(5) == 0 {
				continue
			}
			v := randLikeString(r, 3)
			if r.IntN(2) == 0 {
				v = prefix + v
			}
			if node.Kind == orc.Char {
				v = padChar(v, 6)
			}
			vals[i] = v
		}
		src := MapSource{Columns: map[int]*stats.Column{node.ID(): likeStats(r, node.Kind, vals)}}
		if r.IntN(4) == 0 {
			bf := newSetBloom()
			for _, v := range vals {
				if v != nil {
					bf.bytes[v.(string)] = true
				}
			}
			src.Blooms = map[int]BloomFilter{node.ID(): bf}
		}
		tv := b.Evaluate(src)
		if !tv.IsNeeded() {
			pruned++
		}
		bv := &orc.BytesVector{Offsets: []int{0}}
		for _, v := range vals {
			s, _ := v.(string)
			bv.Data = append(bv.Data, s...)
			bv.Offsets = append(bv.Offsets, len(bv.Data))
			bv.Nulls.Nulls = append(bv.Nulls.Nulls, v == nil)
		}
		got, err := b.NewMatcher().eval3(ColumnVectors{node.ID(): bv}, n)
		if err != nil {
			t.Fatalf("%s: Match: %v", e, err)
		}
		for i, v := range vals {
			row := map[int]any{}
			if v != nil {
				row[node.ID()] = v
			}
			match, known := b.EvalRow(row)
			bit := outcomeBit(match, known)
			if match {
				matched++
			}
			if tv&bit == 0 {
				t.Fatalf("unsound: %s on %q: Evaluate says %s but the row is %s\nstats: %s", e, vals, tv, bit, dumpStats(src))
			}
			want := map[TruthValue]uint8{setTrue: rowTrue, setFalse: rowFalse, setNull: rowNull}[bit]
			if got[i] != want {
				t.Fatalf("%s: row %q: Match %d, EvalRow %s", e, v, got[i], bit)
			}
		}
	}
	t.Logf("%d of %d units pruned, %d matching rows", pruned, iters, matched)
	if pruned < iters/10 || matched == 0 {
		t.Errorf("pruned %d units, matched %d rows: the cases are too weak", pruned, matched)
	}
}

func TestParseLike(t *testing.T) {
	for _, c := range []struct{ in, out string }{
		{"s LIKE 'ab%'", "s LIKE 'ab%'"},
		{"s like 'a_c' escape '!'", "s LIKE 'a_c' ESCAPE '!'"},
		{"s NOT LIKE '%x'", "s NOT LIKE '%x'"},
		{"NOT s LIKE '%x'", "s NOT LIKE '%x'"},
		{`s LIKE 'a\%' ESCAPE '\'`, `s LIKE 'a\%'`},
		{"s LIKE 'a' ESCAPE ''", "s LIKE 'a' ESCAPE ''"},
		{"STARTS_WITH(s, 'a%_b')", `s LIKE 'a\%\_b%'`},
		{"starts_with ( a.b , X'ff' )", `a.b LIKE X'ff25'`},
		{"b LIKE X'00ff25'", "b LIKE X'00ff25'"},
	} {
		e, err := Parse(c.in)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.in, err)
			continue
		}
		if got := e.String(); got != c.out {
			t.Errorf("Parse(%q) prints %q, want %q", c.in, got, c.out)
		}
		back, err := Parse(e.String())
		if err != nil || !back.Equal(e) {
			t.Errorf("Parse(%q) does not read back: %v", e.String(), err)
		}
	}
	for _, c := range []struct{ in, msg string }{
		{"s LIKE 5", "expected a quoted pattern"},
		{"s LIKE 'a' ESCAPE 'ab'", "one character"},
		{"s LIKE 'a' ESCAPE '%'", "wildcard"},
		{"s LIKE 'a' ESCAPE x", "quoted escape"},
		{"s NOT 'a'", "IN, BETWEEN or LIKE"},
		{"STARTS_WITH(s 'a')", `expected ","`},
		{"STARTS_WITH(s, 1)", "quoted string"},
		{"STARTS_WITH('a', s)", "expected a column"},
		{"ENDS_WITH(s 'a')", `expected ","`},
		{"GLOB(s, 'a')", "unknown function"},
	} {
		_, err := Parse(c.in)
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("Parse(%q) = %v, want a syntax error with %q", c.in, err, c.msg)
		}
	}
}

func TestBindLike(t *testing.T) {
	for _, c := range []struct {
		in, err string
	}{
		{"i LIKE 'a%'", "LIKE needs a string"},
		{`s LIKE 'a\'`, "ends with the escape"},
		{"b LIKE 'a' ESCAPE 'é'", "one byte"},
	} {
		_, err := Bind(MustParse(c.in), testSchema)
		if err == nil || !strings.Contains(err.Error(), c.err) || !errors.Is(err, ErrTypeMismatch) {
			t.Errorf("Bind(%s) = %v, want a type mismatch with %q", c.in, err, c.err)
		}
	}
	// A pattern without wildcards is an equality (bloom filters apply),
	// except on char columns.
	if b := MustBind(MustParse(`s LIKE 'a\%b'`), testSchema); b.leaves[0].op != LeafEquals || b.leaves[0].strs[0] != "a%b" {
		t.Errorf("s LIKE 'a\\%%b' bound to op %s %q, want EQUALS 'a%%b'", b.leaves[0].op, b.leaves[0].strs)
	}
	if b := MustBind(MustParse(`c LIKE 'ab'`), testSchema); b.leaves[0].op != LeafLike {
		t.Errorf("c LIKE 'ab' on char bound to %s, want LIKE", b.leaves[0].op)
	}
}

func TestExplainSaysWhyLeavesCannotPrune(t *testing.T) {
	b := MustBind(MustParse("s LIKE '%x' AND b LIKE 'a%' AND s LIKE 'a%' AND b < X'01' AND f = DOUBLE 'NaN'"), testSchema)
	text := b.Explain(MapSource{})
	for _, want := range []string{
		"leaf 0 cannot prune: the pattern starts with a wildcard",
		"leaf 1 cannot prune: binary columns have no minimum and maximum, so only a pattern without wildcards",
		"leaf 3 cannot prune: binary columns have no minimum and maximum, and bloom filters",
		"leaf 4 cannot prune: a NaN literal",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("Explain lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "leaf 2 cannot") {
		t.Errorf("Explain says a prefix LIKE cannot prune:\n%s", text)
	}
}

func TestLikePrefixRange(t *testing.T) {
	for _, c := range []struct {
		pattern, escape string
		prefix, succ    string
		bounded, bad    bool
	}{
		{"abc%", `\`, "abc", "abd", true, false},
		{"ab_c", `\`, "ab", "ac", true, false},
		{`a\%b%`, `\`, "a%b", "a%c", true, false},
		{`a!%b%`, "!", "a%b", "a%c", true, false},
		{`a\%b%`, "", `a\`, `a]`, true, false},
		{"%x", `\`, "", "", false, false},
		{"exact", `\`, "exact", "exacu", true, false},
		{"a\xff\xff%", `\`, "a\xff\xff", "b", true, false},
		{`ab\`, `\`, "", "", false, true},
	} {
		p, s, b, err := LikePrefixRange(c.pattern, c.escape, false)
		if (err != nil) != c.bad {
			t.Fatalf("%q: error %v", c.pattern, err)
		}
		if err == nil && (p != c.prefix || s != c.succ || b != c.bounded) {
			t.Fatalf("%q escape %q: got %q %q %v, want %q %q %v", c.pattern, c.escape, p, s, b, c.prefix, c.succ, c.bounded)
		}
	}
}
