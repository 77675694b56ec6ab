package main

// A deterministic generator of a TPC-H lineitem-like table. It is not
// dbgen: the value domains and rough distributions follow the TPC-H
// specification (order keys ascending with 1..7 lines per order, dates
// derived from a random order date, return flag and line status derived
// from the dates), but the random stream is our own, and two columns are
// added: l_uuid, a unique random UUID (the point-lookup key) and l_ts, a
// timestamp with microseconds.
//
// The table is produced chunk by chunk into reusable buffers, so the whole
// table is never in memory. Every writer of the benchmark generates the
// same rows from the same seed.
//
// Two tables share the generator (flag -table): "lineitem", where the four
// money columns are decimal(15,2), and "lineitem-double", where they are
// DOUBLE (cents / 100), as many users store them. A Chunk holds them as
// int64 cents either way; each side converts at its edge.

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// Column ordinals, in schema order.
const (
	cOrderKey = iota
	cPartKey
	cSuppKey
	cLineNumber
	cQuantity
	cExtendedPrice
	cDiscount
	cTax
	cReturnFlag
	cLineStatus
	cShipDate
	cCommitDate
	cReceiptDate
	cShipInstruct
	cShipMode
	cComment
	cUUID
	cTS
	numCols
)

// colKind is how a column is held in a Chunk.
type colKind uint8

const (
	kLong    colKind = iota // bigint
	kDecimal                // decimal(15,2), unscaled int64 (cents)
	kDouble                 // DOUBLE holding cents / 100; int64 cents in a Chunk
	kDate                   // days since 1970-01-01
	kString                 // text
	kTS                     // timestamp, microseconds since 1970-01-01 (wall clock as UTC)
)

type colDef struct {
	name string
	kind colKind
}

// columns is the schema of the table being run (setTable).
var columns = decimalColumns

// decimalColumns is the "lineitem" table, the default.
var decimalColumns = [numCols]colDef{
	{"l_orderkey", kLong},
	{"l_partkey", kLong},
	{"l_suppkey", kLong},
	{"l_linenumber", kLong},
	{"l_quantity", kDecimal},
	{"l_extendedprice", kDecimal},
	{"l_discount", kDecimal},
	{"l_tax", kDecimal},
	{"l_returnflag", kString},
	{"l_linestatus", kString},
	{"l_shipdate", kDate},
	{"l_commitdate", kDate},
	{"l_receiptdate", kDate},
	{"l_shipinstruct", kString},
	{"l_shipmode", kString},
	{"l_comment", kString},
	{"l_uuid", kString},
	{"l_ts", kTS},
}

// Table names (flag -table).
const (
	tableDecimal = "lineitem"
	tableDouble  = "lineitem-double"
)

// tableName is the table being run (setTable).
var tableName = tableDecimal

// setTable selects the table: tableDecimal or tableDouble.
func setTable(name string) error {
	switch name {
	case tableDecimal:
		columns = decimalColumns
	case tableDouble:
		columns = decimalColumns
		for i := range columns {
			if columns[i].kind == kDecimal {
				columns[i].kind = kDouble
			}
		}
	default:
		return fmt.Errorf("-table %q: want %s or %s", name, tableDecimal, tableDouble)
	}
	tableName = name
	return nil
}

// centsToDouble is the DOUBLE stored for a money value of c cents.
func centsToDouble(c int64) float64 { return float64(c) / 100 }

// doubleToCents turns a stored DOUBLE back into cents; exact for every
// value centsToDouble makes (|c| far below 2^52).
func doubleToCents(f float64) int64 { return int64(math.Round(f * 100)) }

func colNames(cols []int) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = columns[c].name
	}
	return out
}

// Strs is a column of byte strings in one buffer: value i is
// Data[Off[i]:Off[i+1]]. Off has N+1 entries.
type Strs struct {
	Data []byte
	Off  []int
}

func (s *Strs) reset() { s.Data = s.Data[:0]; s.Off = append(s.Off[:0], 0) }

func (s *Strs) add(b []byte) {
	s.Data = append(s.Data, b...)
	s.Off = append(s.Off, len(s.Data))
}

func (s *Strs) addString(b string) {
	s.Data = append(s.Data, b...)
	s.Off = append(s.Off, len(s.Data))
}

// At returns value i (aliasing the buffer).
func (s *Strs) At(i int) []byte { return s.Data[s.Off[i]:s.Off[i+1]] }

// Chunk holds rows in columnar form: integer-like columns (bigint, decimal
// cents, dates, timestamp micros) in I64, strings in Str.
type Chunk struct {
	N   int
	I64 [numCols][]int64
	Str [numCols]Strs
}

func (c *Chunk) reset() {
	c.N = 0
	for i := range c.I64 {
		c.I64[i] = c.I64[i][:0]
		c.Str[i].reset()
	}
}

// Date constants (days since 1970-01-01).
const (
	startDate   = 8035  // 1992-01-01
	endDate     = 10440 // 1998-08-02 (TPC-H ENDDATE)
	currentDate = 9298  // 1995-06-17
)

var (
	shipInstructs = []string{"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"}
	shipModes     = []string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
	commentWords  = []string{"furiously", "sly", "careful", "blithely", "quickly", "fluffily",
		"slyly", "ironic", "final", "regular", "express", "pending", "bold", "even", "special",
		"silent", "unusual", "deposits", "packages", "accounts", "requests", "instructions",
		"theodolites", "pinto", "beans", "foxes", "ideas", "dependencies", "excuses", "platelets",
		"asymptotes", "courts", "dolphins", "multipliers", "sauternes", "warthogs", "frets",
		"dinos", "attainments", "somas", "Tiresias", "patterns", "forges", "braids", "frays",
		"warhorses", "dugouts", "notornis", "epitaphs", "pearls", "tithes", "waters", "orbits",
		"gifts", "sheaves", "depths", "sentiments", "decoys", "realms", "pains", "grouches",
		"escapades", "haggle", "wake", "sleep", "cajole", "nag", "use", "boost", "affix", "detect",
		"integrate", "maintain", "nod", "was", "lose", "sublate", "solve", "thrash", "promise",
		"engage", "hinder", "print", "x-ray", "breach", "eat", "grow", "impress", "mold", "poach",
		"serve", "run", "dazzle", "snooze", "doze", "unwind", "kindle", "play", "hang", "believe",
		"doubt", "about", "above", "according", "to", "across", "after", "against", "along"}
)

// Generator produces the rows of one table.
type Generator struct {
	total int64 // rows in the table
	row   int64 // rows produced so far
	seed  uint64
	rng   *rand.Rand

	// current order
	orderKey   int64
	orderLines int
	lineNo     int
	orderDate  int64

	parts, supps int64
	uuid         [36]byte
	comment      []byte
}

// rowsForSF returns the row count of scale factor sf (SF 1 = 6,000,000).
func rowsForSF(sf float64) int64 { return int64(sf*6_000_000 + 0.5) }

// NewGenerator returns a generator of rows rows from seed.
func NewGenerator(rows int64, seed uint64) *Generator {
	g := &Generator{total: rows, seed: seed, rng: rand.New(rand.NewPCG(seed, 0x6c696e656974656d))}
	sf := float64(rows) / 6_000_000
	g.parts = max(int64(200_000*sf), 100)
	g.supps = max(int64(10_000*sf), 10)
	return g
}

// Remaining returns the rows not yet produced.
func (g *Generator) Remaining() int64 { return g.total - g.row }

// splitmix64 is a bijection of uint64, used to derive the UUID of row i
// without state (so a query can name the UUID of any row).
func splitmix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

const hexDigits = "0123456789abcdef"

// uuidOf writes the UUID text of row i of the table of this seed into dst.
// Distinct rows have distinct UUIDs because splitmix64 is a bijection.
func uuidOf(dst *[36]byte, seed uint64, i int64) {
	hi := splitmix64(uint64(i) ^ seed)
	lo := splitmix64(hi ^ 0x5555555555555555)
	// version 4, variant 10xx
	hi = hi&^(0xf<<12) | 4<<12
	lo = lo&^(3<<62) | 2<<62
	var b [16]byte
	for k := 0; k < 8; k++ {
		b[k] = byte(hi >> (56 - 8*k))
		b[8+k] = byte(lo >> (56 - 8*k))
	}
	p := 0
	for k := 0; k < 16; k++ {
		if k == 4 || k == 6 || k == 8 || k == 10 {
			dst[p] = '-'
			p++
		}
		dst[p] = hexDigits[b[k]>>4]
		dst[p+1] = hexDigits[b[k]&15]
		p += 2
	}
}

// UUIDAt returns the l_uuid of row i.
func UUIDAt(seed uint64, i int64) string {
	var u [36]byte
	uuidOf(&u, seed, i)
	return string(u[:])
}

// linesOfOrder returns the number of lines (1..7) of an order. It is a
// function of the key alone, so a query can find the order key of any row
// without generating the table.
func linesOfOrder(seed uint64, orderKey int64) int {
	return 1 + int(splitmix64(uint64(orderKey)^seed^0xa5a5a5a5)%7)
}

// orderKeyAtRow returns the l_orderkey of row i.
func orderKeyAtRow(seed uint64, i int64) int64 {
	var row int64
	for k := int64(1); ; k++ {
		row += int64(linesOfOrder(seed, k))
		if row > i {
			return k
		}
	}
}

// retailPrice is TPC-H's P_RETAILPRICE of a part, in cents.
func retailPrice(partKey int64) int64 {
	return 90000 + (partKey/10)%20001 + 100*(partKey%1000)
}

// Next fills c with up to n rows and returns false when the table is done.
func (g *Generator) Next(c *Chunk, n int) bool {
	c.reset()
	if g.row >= g.total {
		return false
	}
	n = int(min(int64(n), g.total-g.row))
	r := g.rng
	for range n {
		if g.lineNo >= g.orderLines {
			g.orderKey++
			g.orderLines = linesOfOrder(g.seed, g.orderKey)
			g.lineNo = 0
			g.orderDate = startDate + r.Int64N(endDate-151-startDate+1)
		}
		g.lineNo++
		part := 1 + r.Int64N(g.parts)
		supp := 1 + r.Int64N(g.supps)
		qty := 1 + r.Int64N(50)
		ship := g.orderDate + 1 + r.Int64N(121)
		commit := g.orderDate + 30 + r.Int64N(61)
		receipt := ship + 1 + r.Int64N(30)

		c.I64[cOrderKey] = append(c.I64[cOrderKey], g.orderKey)
		c.I64[cPartKey] = append(c.I64[cPartKey], part)
		c.I64[cSuppKey] = append(c.I64[cSuppKey], supp)
		c.I64[cLineNumber] = append(c.I64[cLineNumber], int64(g.lineNo))
		c.I64[cQuantity] = append(c.I64[cQuantity], qty*100)
		c.I64[cExtendedPrice] = append(c.I64[cExtendedPrice], qty*retailPrice(part))
		c.I64[cDiscount] = append(c.I64[cDiscount], r.Int64N(11))
		c.I64[cTax] = append(c.I64[cTax], r.Int64N(9))
		switch {
		case receipt > currentDate:
			c.Str[cReturnFlag].addString("N")
		case r.IntN(2) == 0:
			c.Str[cReturnFlag].addString("R")
		default:
			c.Str[cReturnFlag].addString("A")
		}
		if ship > currentDate {
			c.Str[cLineStatus].addString("O")
		} else {
			c.Str[cLineStatus].addString("F")
		}
		c.I64[cShipDate] = append(c.I64[cShipDate], ship)
		c.I64[cCommitDate] = append(c.I64[cCommitDate], commit)
		c.I64[cReceiptDate] = append(c.I64[cReceiptDate], receipt)
		c.Str[cShipInstruct].addString(shipInstructs[r.IntN(len(shipInstructs))])
		c.Str[cShipMode].addString(shipModes[r.IntN(len(shipModes))])

		// comment: words up to 10..43 characters
		want := 10 + r.IntN(34)
		cm := g.comment[:0]
		for len(cm) < want {
			if len(cm) > 0 {
				cm = append(cm, ' ')
			}
			cm = append(cm, commentWords[r.IntN(len(commentWords))]...)
		}
		g.comment = cm
		c.Str[cComment].add(cm[:want])

		uuidOf(&g.uuid, g.seed, g.row)
		c.Str[cUUID].add(g.uuid[:])

		// l_ts: the ship date at a random second and microsecond
		ts := ship*86_400_000_000 + r.Int64N(86_400_000_000)
		c.I64[cTS] = append(c.I64[cTS], ts)

		g.row++
	}
	c.N = n
	return true
}
