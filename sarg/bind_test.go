package sarg

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/orcgo/orc"
)

// testSchema has a column of every kind. Ids (pre-order): 0 root, 1 i,
// 2 l, 3 by, 4 f, 5 fl, 6 s, 7 v, 8 c, 9 b, 10 d, 11 dt, 12 ts, 13 tsi,
// 14 bo, 15 st, 16 st.a, 17 st.inner, 18 st.inner.x, 19 arr, 20 arr elem,
// 21 m, 22 m key, 23 m value, 24 `odd.name`, 25 c1, 26 c2, 27 c3, 28 big.
var testSchema = orc.MustParseSchema("struct<i:int,l:bigint,by:tinyint,f:double,fl:float,s:string,v:varchar(10)," +
	"c:char(5),b:binary,d:decimal(10,2),dt:date,ts:timestamp,tsi:timestamp with local time zone,bo:boolean," +
	"st:struct<a:int,inner:struct<x:string>>,arr:array<int>,m:map<string,int>,`odd.name`:int," +
	"c1:string,c2:int,c3:int,big:decimal(38,0)>")

func colID(t testing.TB, path string) int {
	t.Helper()
	b := MustBind(IsNull(path), testSchema)
	return b.leaves[0].colID
}

func TestSchemaIDs(t *testing.T) {
	for path, id := range map[string]int{"i": 1, "st.a": 16, "st.inner.x": 18, "`odd.name`": 24, "c3": 27, "big": 28, "tsi": 13} {
		if got := colID(t, path); got != id {
			t.Errorf("%s: id %d, want %d", path, got, id)
		}
	}
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"NOT (a = 1 AND b = 2)", "a <> 1 OR b <> 2"},
		{"NOT (a = 1 OR NOT (b = 2 AND c > 3))", "a <> 1 AND b = 2 AND c > 3"},
		{"NOT NOT a IS NULL", "a IS NULL"},
		{"NOT NOT NOT a IS NULL", "a IS NOT NULL"},
		{"TRUE AND a = 1", "a = 1"},
		{"FALSE OR a = 1", "a = 1"},
		{"a = 1 AND FALSE", "FALSE"},
		{"a = 1 OR NOT FALSE", "TRUE"},
		{"NOT NULL", "NULL"},
		{"NULL AND a = 1 AND NULL", "NULL AND a = 1"},
		{"NULL OR FALSE", "NULL"},
		{"(a = 1 AND (b = 2 AND c = 3)) OR ((d = 4 OR e = 5) OR f = 6)", "a = 1 AND b = 2 AND c = 3 OR d = 4 OR e = 5 OR f = 6"},
		{"NOT (x <=> 1)", "NOT (x <=> 1)"},
		{"NOT (s NOT IN ('a') AND x NOT BETWEEN 1 AND 2)", "s IN ('a') OR x BETWEEN 1 AND 2"},
	} {
		got := Normalize(MustParse(tc.in)).String()
		if got != tc.want {
			t.Errorf("Normalize(%s) = %s, want %s", tc.in, got, tc.want)
		}
	}
}

func TestCNF(t *testing.T) {
	e := MustParse("a = 1 AND b = 2 OR c = 3 AND d = 4")
	got, ok := CNF(e, 10)
	if !ok || got.String() != "(a = 1 OR c = 3) AND (a = 1 OR d = 4) AND (b = 2 OR c = 3) AND (b = 2 OR d = 4)" {
		t.Errorf("CNF = %s, %v", got, ok)
	}
	// Over the bound: the normalized original comes back.
	big := MustParse("a=1 AND b=1 OR c=1 AND d=1 OR e=1 AND f=1 OR g=1 AND h=1") // 16 clauses
	got, ok = CNF(big, 15)
	if ok || !got.Equal(Normalize(big)) {
		t.Errorf("CNF over bound = %s, %v", got, ok)
	}
	if _, ok := CNF(big, 16); !ok {
		t.Errorf("CNF within bound failed")
	}
	got, ok = CNF(MustParse("NOT (a = 1 OR b = 2) OR c = 3"), 10)
	if !ok || got.String() != "(a <> 1 OR c = 3) AND (b <> 2 OR c = 3)" {
		t.Errorf("CNF = %s", got)
	}
	// The CNF is equivalent: same rows on random values.
	sch := orc.MustParseSchema("struct<a:int,b:int,c:int,d:int>")
	for _, text := range []string{"a = 1 AND b = 2 OR c = 3 AND d = 1", "NOT (a = 1 OR b <> 2) OR c = 3 AND NOT (d = 1 AND a = 2)"} {
		orig := MustBind(MustParse(text), sch)
		c, _ := CNF(MustParse(text), 100)
		cb := MustBind(c, sch)
		for v := 0; v < 3*3*3*3*3*3*3*3; v++ {
			row := map[int]any{}
			x := v
			for id := 1; id <= 4; id++ {
				if x%3 < 2 {
					row[id] = int64(x % 3 * 1)
					if x%3 == 1 {
						row[id] = int64(id % 3)
					}
				}
				x /= 3
			}
			m1, k1 := orig.EvalRow(row)
			m2, k2 := cb.EvalRow(row)
			if m1 != m2 || k1 != k2 {
				t.Fatalf("%s vs CNF %s on %v: %v,%v vs %v,%v", text, c, row, m1, k1, m2, k2)
			}
		}
	}
}

func TestBindErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"nope = 1", `unknown column "nope"`},
		{"st.zz = 1", `unknown column "st.zz"`},
		{"i.x = 1", "not a struct"},
		{"i = 'abc'", "a string literal cannot be compared with an int column"},
		{"s = 5", "an integer literal cannot be compared with a string column"},
		{"bo = 1", "integer literal cannot be compared"},
		{"i = DOUBLE 'NaN'", "NaN can only be compared"},
		{"d = DOUBLE 'NaN'", "NaN can only be compared"},
		{"dt = 'yesterday'", "is not a date"},
		{"dt = TIMESTAMP '2024-01-01 00:00:00Z'", "instant cannot be compared with a date"},
		{"ts = TIMESTAMP '2024-01-01 00:00:00Z'", "instant cannot be compared with a timestamp column"},
		{"tsi = TIMESTAMP '2024-01-01 00:00:00'", "without a zone"},
		{"tsi = DATE '2024-01-01'", "date cannot be compared"},
		{"ts = 'soon'", "is not a timestamp"},
		{"st = 1", "allows only IS NULL"},
		{"arr IN (1)", "allows only IS NULL"},
		{"i = TRUE", "boolean literal cannot be compared"},
	} {
		_, err := Bind(MustParse(tc.in), testSchema)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Bind(%s) error = %v, want %q", tc.in, err, tc.want)
		}
	}
	// Builder misuse the parser cannot produce.
	for _, e := range []Expr{
		Eq("i", NullValue()),
		{Op: OpLeaf},
		{Op: OpNot},
		{Op: OpLeaf, Leaf: &Leaf{Op: LeafBetween, Column: "i", Literals: []Literal{Int(1)}}},
		{Op: 99},
		Eq("`unclosed", Int(1)),
	} {
		if _, err := Bind(e, testSchema); err == nil {
			t.Errorf("Bind(%#v) succeeded", e)
		}
	}
	if _, err := Bind(True(), orc.MustParseSchema("int")); err == nil {
		t.Errorf("Bind with a non-struct root succeeded")
	}
}

// The converted forms, checked on the bound leaf.
func TestBindConversions(t *testing.T) {
	type want struct {
		op    LeafOp
		ints  []int64
		print string // Bound.String(), when the leaf folds to a constant
	}
	maxI, minI := int64(math.MaxInt64), int64(math.MinInt64)
	for _, tc := range []struct {
		in string
		w  want
	}{
		{"i = 5", want{op: LeafEquals, ints: []int64{5}}},
		{"i = 5.00", want{op: LeafEquals, ints: []int64{5}}},
		{"i = 5e0", want{op: LeafEquals, ints: []int64{5}}},
		{"i = 5.5", want{op: LeafIn}},
		{"i < 5.5", want{op: LeafLessThanEquals, ints: []int64{5}}},
		{"i <= -5.5", want{op: LeafLessThanEquals, ints: []int64{-6}}},
		{"i < 5", want{op: LeafLessThan, ints: []int64{5}}},
		{"i BETWEEN 1.5 AND 3.5", want{op: LeafBetween, ints: []int64{2, 3}}},
		{"i BETWEEN -1e30 AND 1e30", want{op: LeafBetween, ints: []int64{minI, maxI}}},
		{"i BETWEEN 1e30 AND 2e30", want{op: LeafIn}},
		{"i IN (1, 2.5, 3.0, NULL)", want{op: LeafIn, ints: []int64{1, 3}}},
		{"i < 1e30", want{op: LeafLessThanEquals, ints: []int64{maxI}}},
		{"i < -1e30", want{op: LeafIn}},
		{"i = DOUBLE 'Infinity'", want{op: LeafIn}},
		{"i < DOUBLE 'Infinity'", want{op: LeafLessThanEquals, ints: []int64{maxI}}},
		{"i > DOUBLE '-Infinity'", want{op: LeafIn}}, // NOT (i <= -inf): the leaf matches nothing
		{"i = 99999999999999999999", want{op: LeafIn}},
		{"i <=> 5.5", want{print: "FALSE"}},
		{"NOT i <=> 5.5", want{print: "TRUE"}},
		{"i <=> 5.5 OR i = 1", want{print: "i = 1"}},
		{"dt = DATE '1970-01-02'", want{op: LeafEquals, ints: []int64{1}}},
		{"dt = '1970-01-02'", want{op: LeafEquals, ints: []int64{1}}},
		{"dt = TIMESTAMP '1970-01-02 00:00:00'", want{op: LeafEquals, ints: []int64{1}}},
		{"dt = TIMESTAMP '1970-01-02 00:00:01'", want{op: LeafIn}},
		{"dt < TIMESTAMP '1970-01-02 00:00:01'", want{op: LeafLessThanEquals, ints: []int64{1}}},
		{"dt < TIMESTAMP '1969-12-31 12:00:00 Europe/Paris'", want{op: LeafLessThanEquals, ints: []int64{-1}}},
		{"dt < '1970-01-02 00:00:01'", want{op: LeafLessThanEquals, ints: []int64{1}}},
		{"bo = TRUE", want{op: LeafEquals, ints: []int64{1}}},
	} {
		b, err := Bind(MustParse(tc.in), testSchema)
		if err != nil {
			t.Errorf("Bind(%s): %v", tc.in, err)
			continue
		}
		if tc.w.print != "" {
			if b.String() != tc.w.print {
				t.Errorf("Bind(%s) = %s, want %s", tc.in, b, tc.w.print)
			}
			continue
		}
		if len(b.leaves) != 1 {
			t.Errorf("Bind(%s): %d leaves", tc.in, len(b.leaves))
			continue
		}
		l := b.leaves[0]
		if l.op != tc.w.op || len(l.ints) != len(tc.w.ints) {
			t.Errorf("Bind(%s) = %s %v, want %s %v", tc.in, l.op, l.ints, tc.w.op, tc.w.ints)
			continue
		}
		for i := range l.ints {
			if l.ints[i] != tc.w.ints[i] {
				t.Errorf("Bind(%s) = %s %v, want %s %v", tc.in, l.op, l.ints, tc.w.op, tc.w.ints)
			}
		}
		if l.text != MustParse(tc.in).String() && !strings.HasPrefix(tc.in, "NOT") && !strings.Contains(tc.in, ">") {
			t.Errorf("leaf text %q, written %q", l.text, tc.in)
		}
	}
}

func TestBindDecimalFloatStringConversions(t *testing.T) {
	one := func(text string) *boundLeaf {
		t.Helper()
		b := MustBind(MustParse(text), testSchema)
		if len(b.leaves) != 1 {
			t.Fatalf("%s: %d leaves", text, len(b.leaves))
		}
		return b.leaves[0]
	}
	// decimal(10,2)
	if l := one("d = 12.5"); l.op != LeafEquals || l.decs[0] != orc.Int128FromInt64(1250) || string(l.probes[0]) != "12.5" {
		t.Errorf("d = 12.5: %s %v %q", l.op, l.decs, l.probes)
	}
	if l := one("d = 12.505"); l.op != LeafIn || len(l.decs) != 0 {
		t.Errorf("d = 12.505: %s %v", l.op, l.decs)
	}
	if l := one("d < 12.505"); l.op != LeafLessThanEquals || l.decs[0] != orc.Int128FromInt64(1250) {
		t.Errorf("d < 12.505: %s %v", l.op, l.decs)
	}
	if l := one("d = 7"); l.decs[0] != orc.Int128FromInt64(700) {
		t.Errorf("d = 7: %v", l.decs)
	}
	if l := one("d = 1e-1"); l.op != LeafEquals || l.decs[0] != orc.Int128FromInt64(10) {
		t.Errorf("d = 1e-1: %s %v (a float is its shortest decimal)", l.op, l.decs)
	}
	if l := one("big < 1e40"); l.op != LeafLessThanEquals || l.decs[0] != maxInt128 {
		t.Errorf("big < 1e40: %s %v", l.op, l.decs)
	}
	// float columns: nearest double
	if l := one("f = 0.1"); l.op != LeafEquals || l.floats[0] != 0.1 {
		t.Errorf("f = 0.1: %s %v", l.op, l.floats)
	}
	if l := one("f = 9007199254740993"); l.floats[0] != 9007199254740992 {
		t.Errorf("f = 2^53+1: %v", l.floats)
	}
	if l := one("f = DOUBLE 'NaN'"); !l.nanLit {
		t.Errorf("NaN literal not flagged")
	}
	// char(5) pads; varchar and string do not
	if l := one("c = 'ab'"); l.strs[0] != "ab   " || string(l.probes[0]) != "ab   " {
		t.Errorf("char pad: %q", l.strs[0])
	}
	if l := one("c = 'abcde  '"); l.strs[0] != "abcde" {
		t.Errorf("char trim: %q", l.strs[0])
	}
	if l := one("c = 'é'"); l.strs[0] != "é    " {
		t.Errorf("char pads characters, not bytes: %q", l.strs[0])
	}
	if l := one("v = 'ab'"); l.strs[0] != "ab" {
		t.Errorf("varchar: %q", l.strs[0])
	}
	if l := one("b = 'ab'"); l.strs[0] != "ab" {
		t.Errorf("binary with string: %q", l.strs[0])
	}
	if l := one("s = X'6162'"); l.strs[0] != "ab" {
		t.Errorf("string with bytes: %q", l.strs[0])
	}
	if l := one("st.inner.x <=> NULL"); l.op != LeafIsNull || l.colID != 18 || len(l.anc) != 2 {
		t.Errorf("<=> NULL: %s col %d anc %v", l.op, l.colID, l.anc)
	}
}

// Leaves are shared when the same leaf occurs twice.
func TestBindSharesLeaves(t *testing.T) {
	b := MustBind(MustParse("(i = 1 OR s = 'a') AND (i = 1 OR s = 'b') AND i <> 1"), testSchema)
	if len(b.leaves) != 3 {
		t.Errorf("%d leaves, want 3: %v", len(b.leaves), b.Leaves())
	}
	if got := b.Columns(); len(got) != 2 || got[0] != 1 || got[1] != 6 {
		t.Errorf("Columns() = %v", got)
	}
	info := b.Leaves()
	if info[0].Text != "i = 1" || info[0].Column != 1 || info[0].Name != "i" || info[0].Op != LeafEquals || info[0].Kind != orc.Int {
		t.Errorf("Leaves()[0] = %+v", info[0])
	}
}

func TestBindErrorTypes(t *testing.T) {
	s := orc.MustParseSchema("struct<a:int,st:struct<b:string>,l:array<int>>")
	for _, c := range []struct {
		e    Expr
		want error
		col  string
	}{
		{Eq("nope", Int(1)), ErrUnknownColumn, "nope"},
		{Eq("a.x", Int(1)), ErrUnknownColumn, "a.x"},
		{Eq("a", String("x")), ErrTypeMismatch, "a"},
		{Eq("l", Int(1)), ErrTypeMismatch, "l"},
		{And(Eq("a", Int(1)), Lt("st.b", Int(3))), ErrTypeMismatch, "st.b"},
	} {
		_, err := Bind(c.e, s)
		var be *BindError
		if !errors.Is(err, c.want) || !errors.As(err, &be) || be.Column != c.col {
			t.Errorf("%s: got %v, want %v on column %s", c.e, err, c.want, c.col)
		}
	}
}

// TestBindIgnoringCase: a column name matches its field exactly, else the
// one field equal ignoring case; ResolveNames rewrites names to the
// schema's spelling.
func TestBindIgnoringCase(t *testing.T) {
	s := orc.MustParseSchema("struct<Id:bigint,st:struct<Name:string,name:string>,`Odd.Name`:int>")
	for _, c := range []struct{ where, resolved, err string }{
		{"id = 1", "Id = 1", ""},
		{"ID < 2 AND Id > 0", "Id < 2 AND Id > 0", ""},
		{"ST.Name = 'a'", "st.Name = 'a'", ""},
		{"st.name = 'a'", "st.name = 'a'", ""},
		{"st.NAME = 'a'", "st.NAME = 'a'", "several fields match"},
		{"`odd.name` = 3", "`Odd.Name` = 3", ""},
		{"nope = 1", "nope = 1", "unknown column"},
	} {
		e := MustParse(c.where)
		got := ResolveNames(e, s)
		if want := MustParse(c.resolved); got.String() != want.String() {
			t.Errorf("ResolveNames(%s) = %s, want %s", c.where, got, want)
		}
		_, err := Bind(e, s)
		if c.err == "" && err != nil || c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)) {
			t.Errorf("Bind(%s): %v, want %q", c.where, err, c.err)
		}
	}
}
