package sarg

// TruthValue is what evaluation against statistics can say about a unit of
// rows (a file, a stripe or a row group): the set of outcomes the predicate
// may have on the unit's rows. A row's outcome is TRUE, FALSE or NULL (SQL's
// unknown); the seven non-empty sets of those three are ORC's seven truth
// values. The value is a bit set: bit 0 TRUE, bit 1 FALSE, bit 2 NULL.
//
// A unit must be read when TRUE is in the set (IsNeeded): some row may match.
// Yes (only TRUE) and No (only FALSE) are the precise answers; YesNoNull is
// "can't decide".
type TruthValue uint8

// The seven truth values. The comments give the outcome sets.
const (
	Yes       TruthValue = 1 // {TRUE}: every row matches
	No        TruthValue = 2 // {FALSE}: no row matches, none is NULL
	YesNo     TruthValue = 3 // {TRUE, FALSE}
	Null      TruthValue = 4 // {NULL}: every row evaluates to NULL (ORC's IS_NULL, C++'s IS_NULL)
	YesNull   TruthValue = 5 // {TRUE, NULL}
	NoNull    TruthValue = 6 // {FALSE, NULL}
	YesNoNull TruthValue = 7 // {TRUE, FALSE, NULL}: can't decide
)

const (
	setTrue  TruthValue = 1
	setFalse TruthValue = 2
	setNull  TruthValue = 4
)

var truthNames = [8]string{"EMPTY", "YES", "NO", "YES_NO", "NULL", "YES_NULL", "NO_NULL", "YES_NO_NULL"}

// String returns ORC's name for the value, such as "YES_NO_NULL".
func (t TruthValue) String() string {
	if t < 8 {
		return truthNames[t]
	}
	return "INVALID"
}

// IsNeeded reports whether a unit with this value must be read: whether TRUE
// is a possible outcome. A unit is skipped iff the value is No, Null or
// NoNull.
func (t TruthValue) IsNeeded() bool { return t&setTrue != 0 }

// Not returns the value of NOT p when p has value t: TRUE and FALSE swap,
// NULL stays.
func (t TruthValue) Not() TruthValue { return notTable[t&7] }

// And returns the value of p AND q when p has value t and q has value o: the
// set of a AND b over every a in t and b in o, in SQL's three-valued logic.
func (t TruthValue) And(o TruthValue) TruthValue { return andTable[t&7][o&7] }

// Or returns the value of p OR q when p has value t and q has value o.
func (t TruthValue) Or(o TruthValue) TruthValue { return orTable[t&7][o&7] }

// The tables are the set lifts of Kleene's three-valued operators, computed
// once from the single-outcome operators below.
var notTable, andTable, orTable = buildTables()

// kleene values for one outcome: 0 FALSE, 1 NULL, 2 TRUE; AND is min, OR is
// max, NOT is 2-v.
func outcomeBits(k uint8) TruthValue {
	switch k {
	case 0:
		return setFalse
	case 1:
		return setNull
	}
	return setTrue
}

func buildTables() (not [8]TruthValue, and, or [8][8]TruthValue) {
	members := func(t TruthValue) []uint8 {
		var m []uint8
		for k := uint8(0); k < 3; k++ {
			if t&outcomeBits(k) != 0 {
				m = append(m, k)
			}
		}
		return m
	}
	for a := TruthValue(0); a < 8; a++ {
		for _, x := range members(a) {
			not[a] |= outcomeBits(2 - x)
		}
		for b := TruthValue(0); b < 8; b++ {
			for _, x := range members(a) {
				for _, y := range members(b) {
					and[a][b] |= outcomeBits(min(x, y))
					or[a][b] |= outcomeBits(max(x, y))
				}
			}
		}
	}
	return not, and, or
}
