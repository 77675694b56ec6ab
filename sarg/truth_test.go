package sarg

import (
	"strings"
	"testing"
)

// The AND/OR tables of the checklist (section 5.1), typed in as printed
// there: rows are the left operand, columns the right, in the order
// Y N U YU NU YN YNU.
var checklistOrder = []TruthValue{Yes, No, Null, YesNull, NoNull, YesNo, YesNoNull}

var checklistAnd = `
Y   N  U   YU  NU  YN  YNU
N   N  N   N   N   N   N
U   N  U   U   NU  NU  NU
YU  N  U   YU  NU  YNU YNU
NU  N  NU  NU  NU  NU  NU
YN  N  NU  YNU NU  YN  YNU
YNU N  NU  YNU NU  YNU YNU`

var checklistOr = `
Y  Y   Y   Y   Y   Y   Y
Y  N   U   YU  NU  YN  YNU
Y  U   U   YU  U   YU  YU
Y  YU  YU  YU  YU  YU  YU
Y  NU  U   YU  NU  YNU YNU
Y  YN  YU  YU  YNU YN  YNU
Y  YNU YU  YU  YNU YNU YNU`

func parseShort(t *testing.T, s string) TruthValue {
	t.Helper()
	var v TruthValue
	for _, c := range s {
		switch c {
		case 'Y':
			v |= setTrue
		case 'N':
			v |= setFalse
		case 'U':
			v |= setNull
		default:
			t.Fatalf("bad cell %q", s)
		}
	}
	return v
}

func checkTable(t *testing.T, name, table string, op func(a, b TruthValue) TruthValue) {
	t.Helper()
	rows := strings.Split(strings.TrimSpace(table), "\n")
	if len(rows) != 7 {
		t.Fatalf("%s: %d rows", name, len(rows))
	}
	for i, row := range rows {
		cells := strings.Fields(row)
		if len(cells) != 7 {
			t.Fatalf("%s row %d: %d cells", name, i, len(cells))
		}
		for j, c := range cells {
			a, b := checklistOrder[i], checklistOrder[j]
			if got, want := op(a, b), parseShort(t, c); got != want {
				t.Errorf("%s %s %s = %s, checklist says %s", a, name, b, got, want)
			}
		}
	}
}

func TestTruthTablesMatchChecklist(t *testing.T) {
	checkTable(t, "AND", checklistAnd, TruthValue.And)
	checkTable(t, "OR", checklistOr, TruthValue.Or)
	nots := map[TruthValue]TruthValue{Yes: No, No: Yes, Null: Null, YesNull: NoNull, NoNull: YesNull, YesNo: YesNo, YesNoNull: YesNoNull}
	for a, want := range nots {
		if got := a.Not(); got != want {
			t.Errorf("NOT %s = %s, want %s", a, got, want)
		}
	}
}

// Independently of the tables: the result must be exactly the set of
// outcomes of the three-valued operator over all members.
func TestTruthTablesAreSetLifts(t *testing.T) {
	type tv3 int // -1 false, 0 null, 1 true
	and3 := func(a, b tv3) tv3 {
		if a == -1 || b == -1 {
			return -1
		}
		if a == 0 || b == 0 {
			return 0
		}
		return 1
	}
	or3 := func(a, b tv3) tv3 { return -and3(-a, -b) }
	bit := map[tv3]TruthValue{1: setTrue, -1: setFalse, 0: setNull}
	members := func(v TruthValue) []tv3 {
		var m []tv3
		for k, b := range bit {
			if v&b != 0 {
				m = append(m, k)
			}
		}
		return m
	}
	for _, a := range checklistOrder {
		var not TruthValue
		for _, x := range members(a) {
			not |= bit[-x]
		}
		if a.Not() != not {
			t.Errorf("NOT %s = %s, set lift %s", a, a.Not(), not)
		}
		for _, b := range checklistOrder {
			var and, or TruthValue
			for _, x := range members(a) {
				for _, y := range members(b) {
					and |= bit[and3(x, y)]
					or |= bit[or3(x, y)]
				}
			}
			if a.And(b) != and || a.Or(b) != or {
				t.Errorf("%s, %s: AND %s (lift %s), OR %s (lift %s)", a, b, a.And(b), and, a.Or(b), or)
			}
		}
	}
}

func TestTruthIsNeededAndNames(t *testing.T) {
	want := map[TruthValue]bool{Yes: true, No: false, Null: false, YesNull: true, NoNull: false, YesNo: true, YesNoNull: true}
	names := map[TruthValue]string{Yes: "YES", No: "NO", Null: "NULL", YesNull: "YES_NULL", NoNull: "NO_NULL", YesNo: "YES_NO", YesNoNull: "YES_NO_NULL"}
	for v, need := range want {
		if v.IsNeeded() != need {
			t.Errorf("%s.IsNeeded() = %v", v, v.IsNeeded())
		}
		if v.String() != names[v] {
			t.Errorf("String() = %q, want %q", v.String(), names[v])
		}
	}
	// Commutativity and associativity follow from the set semantics; check
	// them anyway since evaluation reorders nothing but callers might.
	for _, a := range checklistOrder {
		for _, b := range checklistOrder {
			if a.And(b) != b.And(a) || a.Or(b) != b.Or(a) {
				t.Errorf("not commutative for %s, %s", a, b)
			}
			if a.And(b).Not() != a.Not().Or(b.Not()) {
				t.Errorf("De Morgan fails for %s, %s", a, b)
			}
			for _, c := range checklistOrder {
				if a.And(b).And(c) != a.And(b.And(c)) || a.Or(b).Or(c) != a.Or(b.Or(c)) {
					t.Errorf("not associative for %s, %s, %s", a, b, c)
				}
			}
		}
	}
}
