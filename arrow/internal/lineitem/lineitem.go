// Package lineitem generates a TPC-H-like lineitem table as ORC batches, for
// the orcarrow module's tests and benchmarks: the columns and types of the
// bench module's table (bigint keys, decimal(15,2) money, dates, short and
// long strings, a UUID and a timestamp with microseconds), from a seed.
package lineitem

import (
	"fmt"
	"math/rand/v2"

	"github.com/orcgo/orc"
)

// Schema is the table's ORC schema.
const Schema = "struct<l_orderkey:bigint,l_partkey:bigint,l_suppkey:bigint,l_linenumber:int," +
	"l_quantity:decimal(15,2),l_extendedprice:decimal(15,2),l_discount:decimal(15,2),l_tax:decimal(15,2)," +
	"l_returnflag:char(1),l_linestatus:char(1),l_shipdate:date,l_commitdate:date,l_receiptdate:date," +
	"l_shipinstruct:varchar(25),l_shipmode:string,l_comment:string,l_uuid:string,l_ts:timestamp>"

var (
	instructs = []string{"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"}
	modes     = []string{"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"}
	words     = []string{"furiously", "quickly", "carefully", "blithely", "ironic", "final", "pending",
		"regular", "express", "deposits", "packages", "accounts", "requests", "theodolites", "pinto beans"}
)

// Generator produces the rows of one table.
type Generator struct {
	r        *rand.Rand
	row      int64
	order    int64
	line     int
	lines    int
	orderDay int64
	schema   *orc.Schema
}

// New returns a generator seeded with seed.
func New(seed uint64) *Generator {
	return &Generator{r: rand.New(rand.NewPCG(seed, 0x11ee)), schema: orc.MustParseSchema(Schema)}
}

// Schema returns the table's schema.
func (g *Generator) Schema() *orc.Schema { return g.schema }

// Batch returns the next n rows as a new batch. One l_comment in 100 and
// one l_tax in 50 are null, so nulls appear in a string and a decimal.
func (g *Generator) Batch(n int) *orc.Batch {
	b := orc.NewBatch(g.schema, n)
	long := func(i int) *orc.LongVector { return b.Cols[i].(*orc.LongVector) }
	dec := func(i int) *orc.DecimalVector { return b.Cols[i].(*orc.DecimalVector) }
	str := func(i int) *orc.BytesVector { return b.Cols[i].(*orc.BytesVector) }
	tax := dec(7)
	tax.Nulls.Nulls = make([]bool, 0, n)
	comment := str(15)
	ts := b.Cols[17].(*orc.TimestampVector)
	var cm []byte
	for range n {
		if g.line >= g.lines {
			g.order++
			g.line, g.lines = 0, 1+g.r.IntN(7)
			g.orderDay = 8035 + g.r.Int64N(2400) // 1992-01-01 onwards
		}
		g.line++
		part, supp, qty := 1+g.r.Int64N(200000), 1+g.r.Int64N(10000), 1+g.r.Int64N(50)
		price := 90000 + (part/10)%20001 + 100*(part%1000)
		ship := g.orderDay + 1 + g.r.Int64N(121)
		long(0).Values = append(long(0).Values, g.order)
		long(1).Values = append(long(1).Values, part)
		long(2).Values = append(long(2).Values, supp)
		long(3).Values = append(long(3).Values, int64(g.line))
		dec(4).Values = append(dec(4).Values, orc.Int128FromInt64(qty*100))
		dec(5).Values = append(dec(5).Values, orc.Int128FromInt64(qty*price))
		dec(6).Values = append(dec(6).Values, orc.Int128FromInt64(g.r.Int64N(11)))
		tax.Values = append(tax.Values, orc.Int128FromInt64(g.r.Int64N(9)))
		tax.Nulls.Nulls = append(tax.Nulls.Nulls, g.r.IntN(50) == 0)
		str(8).AppendString([]string{"N", "R", "A"}[g.r.IntN(3)])
		str(9).AppendString([]string{"O", "F"}[g.r.IntN(2)])
		long(10).Values = append(long(10).Values, ship)
		long(11).Values = append(long(11).Values, g.orderDay+30+g.r.Int64N(61))
		long(12).Values = append(long(12).Values, ship+1+g.r.Int64N(30))
		str(13).AppendString(instructs[g.r.IntN(len(instructs))])
		str(14).AppendString(modes[g.r.IntN(len(modes))])
		if g.r.IntN(100) == 0 {
			comment.AppendNull()
		} else {
			want := 10 + g.r.IntN(34)
			cm = cm[:0]
			for len(cm) < want {
				if len(cm) > 0 {
					cm = append(cm, ' ')
				}
				cm = append(cm, words[g.r.IntN(len(words))]...)
			}
			comment.Append(cm[:want])
		}
		str(16).AppendString(fmt.Sprintf("%08x-%04x-4%03x-a%03x-%012x", g.r.Uint32(), g.r.IntN(1<<16), g.r.IntN(1<<12), g.r.IntN(1<<12), g.r.Int64N(1<<48)))
		us := ship*86_400_000_000 + g.r.Int64N(86_400_000_000)
		ts.Seconds = append(ts.Seconds, us/1_000_000)
		ts.Nanos = append(ts.Nanos, int32(us%1_000_000)*1000)
		g.row++
	}
	b.NumRows = n
	return b
}
