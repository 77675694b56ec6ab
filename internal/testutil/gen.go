package testutil

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/orcgo/orc"
)

// Generator makes random batches for one schema. Each column gets a fixed
// profile when the generator is made (null rate 0%, 10% or 100%, value
// style, string cardinality), so a column keeps its character across the
// batches of a file; integer-like columns produce runs (repeats,
// arithmetic sequences) that continue from one batch to the next, so runs
// cross batch, row-group and stripe boundaries.
//
// Values cover the edges: extreme integers of every width, NaN (several
// payloads), +-Inf, -0.0, denormals, empty strings and lists, strings over
// 1,024 bytes, multi-byte UTF-8, decimals at full precision, dates at the
// int32 limits, timestamps from year 1 to 9999 with nanoseconds. The one
// documented limitation of the format is avoided: instants in (-1 s, 0)
// with a fraction of a millisecond or more (they read back 1 s late).
//
// Rows under a null parent, union slots not selected by the tag and the
// value slots of null rows hold junk (random values, lists owning
// elements), which the writer must ignore. Null list and map rows own no
// elements, as the vector conventions require.
type Generator struct {
	r    *rand.Rand
	s    *orc.Schema
	root *colGen

	// MaxListLen bounds the length of generated lists and maps (default 4;
	// one list in 50 is up to 8 times longer).
	MaxListLen int
}

type colGen struct {
	node     *orc.Schema
	nullRate float64
	maskless bool // no null rows: leave Nulls empty instead of all false
	kids     []*colGen

	// runs of integer-like values
	style    int
	seg      int   // values left in the current segment
	segKind  int   // what the segment produces
	segVal   int64 // current value
	segStep  int64
	lo, hi   int64
	pool     [][]byte // low-cardinality strings
	long     bool     // strings all over 1,024 bytes
	decShift bool     // sometimes write decimals at a smaller vector scale
}

// Value styles.
const (
	styleMixed  = iota // segments of every kind
	styleRuns          // long runs only
	styleRandom        // random values only
)

// NewGenerator returns a generator for schema s (numbered or not).
func NewGenerator(r *rand.Rand, s *orc.Schema) *Generator {
	g := &Generator{r: r, s: s, MaxListLen: 4}
	g.root = g.newCol(s, s.Kind == orc.Struct)
	return g
}

// NullRates are the per-column null rates a generator picks from.
var NullRates = []float64{0, 0.1, 1}

func (g *Generator) newCol(n *orc.Schema, root bool) *colGen {
	c := &colGen{node: n, style: g.r.IntN(3)}
	if !root {
		c.nullRate = NullRates[g.r.IntN(len(NullRates))]
	}
	c.maskless = c.nullRate == 0 && g.r.IntN(2) == 0
	switch n.Kind {
	case orc.Byte:
		c.lo, c.hi = math.MinInt8, math.MaxInt8
	case orc.Short:
		c.lo, c.hi = math.MinInt16, math.MaxInt16
	case orc.Int, orc.Date:
		c.lo, c.hi = math.MinInt32, math.MaxInt32
	case orc.Long:
		c.lo, c.hi = math.MinInt64, math.MaxInt64
	case orc.Boolean:
		c.lo, c.hi = 0, 1
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		c.long = g.r.IntN(5) == 0
		if g.r.IntN(2) == 0 {
			// low cardinality: dictionary encoded
			k := 1 + g.r.IntN(20)
			for i := 0; i < k; i++ {
				c.pool = append(c.pool, g.randomBytes(n.Kind == orc.Binary, c.long))
			}
		}
	case orc.Decimal:
		c.decShift = n.Scale > 0 && g.r.IntN(4) == 0
	}
	for _, k := range n.Children {
		c.kids = append(c.kids, g.newCol(k, false))
	}
	return c
}

// Batch returns a new batch of n rows with schema s. The batch owns its
// buffers; the generator keeps no reference to it.
func (g *Generator) Batch(n int) *orc.Batch {
	b := &orc.Batch{Schema: g.s, NumRows: n}
	if g.s.Kind == orc.Struct {
		for _, k := range g.root.kids {
			b.Cols = append(b.Cols, g.vector(k, n, nil))
		}
	} else {
		b.Cols = []orc.Vector{g.vector(g.root, n, nil)}
	}
	return b
}

// nulls draws the column's null mask for n rows. junk marks rows whose
// value does not matter (under a null parent, or another union variant);
// they are made null or not at random.
func (g *Generator) nulls(c *colGen, n int) []bool {
	if c.nullRate == 0 {
		if c.maskless {
			return nil
		}
		return make([]bool, n)
	}
	m := make([]bool, n)
	for i := range m {
		m[i] = c.nullRate == 1 || g.r.Float64() < c.nullRate
	}
	return m
}

// vector makes n rows of column c. skip, when not nil, marks rows whose
// content is ignored by the writer (junk allowed).
func (g *Generator) vector(c *colGen, n int, skip []bool) orc.Vector {
	nulls := g.nulls(c, n)
	isNull := func(i int) bool { return nulls != nil && nulls[i] }
	ignored := func(i int) bool { return isNull(i) || skip != nil && skip[i] }
	node := c.node
	switch node.Kind {
	case orc.Boolean, orc.Byte, orc.Short, orc.Int, orc.Long, orc.Date:
		v := &orc.LongVector{Values: make([]int64, n)}
		v.Nulls.Nulls = nulls
		for i := range v.Values {
			v.Values[i] = g.nextInt(c)
		}
		return v
	case orc.Float, orc.Double:
		v := &orc.DoubleVector{Values: make([]float64, n)}
		v.Nulls.Nulls = nulls
		for i := range v.Values {
			v.Values[i] = g.nextDouble(c)
		}
		return v
	case orc.String, orc.Varchar, orc.Char, orc.Binary:
		v := &orc.BytesVector{Offsets: make([]int, 1, n+1)}
		v.Nulls.Nulls = nulls
		for i := 0; i < n; i++ {
			var b []byte
			switch {
			case ignored(i) && g.r.IntN(2) == 0:
				// empty slot
			case c.pool != nil:
				b = c.pool[g.r.IntN(len(c.pool))]
			default:
				b = g.randomBytes(node.Kind == orc.Binary, c.long)
			}
			v.Data = append(v.Data, b...)
			v.Offsets = append(v.Offsets, len(v.Data))
		}
		return v
	case orc.Decimal:
		scale := node.Scale
		if c.decShift && g.r.IntN(2) == 0 {
			scale = g.r.IntN(node.Scale)
		}
		digits := node.Precision - (node.Scale - scale)
		v := &orc.DecimalVector{Values: make([]orc.Int128, n), Scale: scale}
		v.Nulls.Nulls = nulls
		for i := range v.Values {
			v.Values[i] = g.randomDecimal(digits)
		}
		return v
	case orc.Timestamp, orc.TimestampInstant:
		v := &orc.TimestampVector{Seconds: make([]int64, n), Nanos: make([]int32, n)}
		v.Nulls.Nulls = nulls
		for i := 0; i < n; i++ {
			v.Seconds[i], v.Nanos[i] = g.nextTimestamp(c)
		}
		return v
	case orc.Struct:
		v := &orc.StructVector{N: n}
		v.Nulls.Nulls = nulls
		kidSkip := make([]bool, n)
		for i := range kidSkip {
			kidSkip[i] = ignored(i)
		}
		for _, k := range c.kids {
			v.Fields = append(v.Fields, g.vector(k, n, kidSkip))
		}
		return v
	case orc.List, orc.Map:
		offs := make([]int64, n+1)
		for i := 0; i < n; i++ {
			k := 0
			if !isNull(i) {
				k = g.listLen()
			}
			offs[i+1] = offs[i] + int64(k)
		}
		total := int(offs[n])
		if node.Kind == orc.List {
			v := &orc.ListVector{Offsets: offs, Elem: g.vector(c.kids[0], total, nil)}
			v.Nulls.Nulls = nulls
			return v
		}
		v := &orc.MapVector{Offsets: offs, Keys: g.vector(c.kids[0], total, nil), Values: g.vector(c.kids[1], total, nil)}
		v.Nulls.Nulls = nulls
		return v
	case orc.Union:
		v := &orc.UnionVector{Tags: make([]uint8, n)}
		v.Nulls.Nulls = nulls
		k := len(c.kids)
		skips := make([][]bool, k)
		for t := range skips {
			skips[t] = make([]bool, n)
		}
		for i := range v.Tags {
			v.Tags[i] = uint8(g.r.IntN(k))
			if ignored(i) && g.r.IntN(3) == 0 {
				v.Tags[i] = uint8(g.r.IntN(k)) // junk tag of a skipped row, still in range
			}
			for t := range skips {
				skips[t][i] = ignored(i) || int(v.Tags[i]) != t
			}
		}
		for t, kid := range c.kids {
			v.Children = append(v.Children, g.vector(kid, n, skips[t]))
		}
		return v
	}
	panic("testutil: no generator for " + node.Kind.String())
}

func (g *Generator) listLen() int {
	m := g.MaxListLen
	if g.r.IntN(50) == 0 {
		m *= 8
	}
	if g.r.IntN(4) == 0 {
		return 0
	}
	return g.r.IntN(m + 1)
}

// nextInt returns the column's next integer-like value within its width.
func (g *Generator) nextInt(c *colGen) int64 {
	if c.seg == 0 {
		g.newSegment(c)
	}
	c.seg--
	v := c.segVal
	switch c.segKind {
	case 0: // repeat
	case 1: // arithmetic sequence, clamped into range
		next := c.segVal + c.segStep
		if (c.segStep > 0 && next < c.segVal) || (c.segStep < 0 && next > c.segVal) || next < c.lo || next > c.hi {
			c.segStep = -c.segStep
			next = c.segVal + c.segStep
		}
		// A step wider than the range overshoots both ways (booleans).
		c.segVal = clamp(next, c.lo, c.hi)
	case 2: // random small
		v = clamp(int64(g.r.IntN(2000))-1000, c.lo, c.hi)
	case 3: // random over the width
		v = g.randIn(c.lo, c.hi)
	case 4: // extremes
		ext := []int64{c.lo, c.hi, 0, -1, 1, c.lo + 1, c.hi - 1}
		v = clamp(ext[g.r.IntN(len(ext))], c.lo, c.hi)
	case 5: // random bits of a random width
		w := 1 + g.r.IntN(63)
		v = clamp(int64(g.r.Uint64()>>(64-w))-int64(g.r.IntN(2))<<(w-1), c.lo, c.hi)
	}
	return v
}

func clamp(v, lo, hi int64) int64 { return max(lo, min(hi, v)) }

// randIn returns a uniform value in [lo, hi].
func (g *Generator) randIn(lo, hi int64) int64 {
	span := uint64(hi - lo)
	if span == math.MaxUint64 {
		return int64(g.r.Uint64())
	}
	return lo + int64(g.r.Uint64N(span+1))
}

func (g *Generator) newSegment(c *colGen) {
	switch c.style {
	case styleRuns:
		c.segKind = g.r.IntN(2)
		c.seg = 1 + g.r.IntN(3000)
	case styleRandom:
		c.segKind = 2 + g.r.IntN(4)
		c.seg = 1 + g.r.IntN(500)
	default:
		c.segKind = g.r.IntN(6)
		c.seg = 1 + g.r.IntN(1500)
	}
	c.segVal = g.randIn(c.lo, c.hi)
	if g.r.IntN(3) == 0 {
		c.segVal = clamp(int64(g.r.IntN(100)), c.lo, c.hi)
	}
	steps := []int64{1, -1, 2, 7, -3, 1000, 1 << 40}
	c.segStep = steps[g.r.IntN(len(steps))]
	if uint64(c.hi-c.lo) < 1<<41 && (c.segStep > 2 || c.segStep < -3) {
		c.segStep = 1
	}
}

// specialDoubles are the edge values of floating point columns.
var specialDoubles = []float64{
	math.NaN(), math.Float64frombits(0x7ff0000000000001), math.Float64frombits(0xfff8000000000123),
	math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), math.MaxFloat64, -math.MaxFloat64,
	math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, math.MaxFloat32, math.SmallestNonzeroFloat32,
	1, -1, 0.1, 1e300, -1e-300,
}

func (g *Generator) nextDouble(c *colGen) float64 {
	if c.style == styleRuns {
		// repeats of one value, then a new one
		if c.seg == 0 {
			c.seg = 1 + g.r.IntN(2000)
			c.segVal = int64(math.Float64bits(g.randomDouble()))
		}
		c.seg--
		return math.Float64frombits(uint64(c.segVal))
	}
	return g.randomDouble()
}

func (g *Generator) randomDouble() float64 {
	switch g.r.IntN(6) {
	case 0:
		return specialDoubles[g.r.IntN(len(specialDoubles))]
	case 1:
		return float64(g.r.IntN(1000) - 500)
	case 2:
		return math.Float64frombits(g.r.Uint64())
	}
	return g.r.NormFloat64() * math.Pow(10, float64(g.r.IntN(20)-10))
}

// runeSets are pieces of text of every UTF-8 length.
var runeSets = []string{
	"abcdefghijklmnopqrstuvwxyz0123456789 ",
	"éüßñøÅ¿",        // 2 bytes
	"中文字符テスト한국어€",    // 3 bytes
	"😀🎉𝄞𐍈\U0010FFFE", // 4 bytes
}

var runeTables = func() (t [][]rune) {
	for _, s := range runeSets {
		t = append(t, []rune(s))
	}
	return t
}()

// randomBytes returns a random value: empty, short, long (over 1,024
// bytes), ASCII or multi-byte UTF-8; binary values may be any bytes. With
// long set, text values are all over 1,024 bytes.
func (g *Generator) randomBytes(binary, long bool) []byte {
	if binary && g.r.IntN(2) == 0 {
		n := g.r.IntN(40)
		if g.r.IntN(10) == 0 {
			n = 1000 + g.r.IntN(1500)
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(g.r.Uint32())
		}
		if n > 0 && g.r.IntN(3) == 0 {
			b[0] = 0xff
		}
		return b
	}
	var n int
	switch {
	case long:
		n = 1020 + g.r.IntN(1500) // mostly over 1,024 bytes
	case g.r.IntN(10) == 0:
		return []byte{}
	case g.r.IntN(9) == 0:
		n = 1000 + g.r.IntN(1500)
	default:
		n = 1 + g.r.IntN(16)
	}
	var b []byte
	if g.r.IntN(8) == 0 {
		// a shared long prefix makes truncated bounds compare on the tail
		b = []byte(strings.Repeat("€", 400))
		n += len(b)
	}
	b = slices.Grow(b, n+4)
	set := runeTables[g.r.IntN(len(runeTables))]
	mixed := g.r.IntN(3) == 0
	for len(b) < n {
		if mixed {
			set = runeTables[g.r.IntN(len(runeTables))]
		}
		b = utf8.AppendRune(b, set[g.r.IntN(len(set))])
	}
	return b
}

// randomDecimal returns an unscaled value of at most digits digits (0..38),
// often at full precision.
func (g *Generator) randomDecimal(digits int) orc.Int128 {
	if digits == 0 {
		return orc.Int128{}
	}
	max := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil)
	max.Sub(max, big.NewInt(1)) // 10^digits - 1
	var v *big.Int
	switch g.r.IntN(5) {
	case 0:
		v = new(big.Int).Set(max)
	case 1:
		v = big.NewInt(int64(g.r.IntN(100)))
	default:
		d := 1 + g.r.IntN(digits)
		v = new(big.Int)
		for i := 0; i < d; i++ {
			v.Mul(v, big.NewInt(10))
			v.Add(v, big.NewInt(int64(g.r.IntN(10))))
		}
	}
	if v.Cmp(max) > 0 {
		v.Set(max)
	}
	if g.r.IntN(2) == 0 {
		v.Neg(v)
	}
	x, ok := orc.Int128FromBig(v)
	if !ok {
		panic("testutil: decimal out of range")
	}
	return x
}

// Timestamp ranges: year 1 to 9999.
const (
	minTimestampSec = -62135596800
	maxTimestampSec = 253402300799
)

func (g *Generator) nextTimestamp(c *colGen) (int64, int32) {
	var sec int64
	if c.style == styleRuns {
		if c.seg == 0 {
			c.seg = 1 + g.r.IntN(2000)
			c.segVal = g.randomSeconds()
			c.segStep = int64(g.r.IntN(3))
		}
		c.seg--
		c.segVal += c.segStep
		sec = c.segVal
	} else {
		sec = g.randomSeconds()
	}
	var ns int32
	switch g.r.IntN(6) {
	case 0:
	case 1:
		ns = 999_999_999
	case 2:
		ns = int32(g.r.IntN(1000)) * 1_000_000 // millis: trailing zeros
	case 3:
		ns = int32(g.r.IntN(10)) * int32(math.Pow10(g.r.IntN(9)))
	default:
		ns = int32(g.r.IntN(1_000_000_000))
	}
	if sec == -1 && ns >= 1_000_000 {
		ns %= 1_000_000 // the format cannot hold this instant (see Generator)
	}
	return sec, ns
}

func (g *Generator) randomSeconds() int64 {
	switch g.r.IntN(6) {
	case 0:
		return int64(g.r.IntN(200)) - 100 // around 1970
	case 1:
		return 1<<31 + int64(g.r.IntN(200)) - 100 // around 2038
	case 2:
		ext := []int64{minTimestampSec, maxTimestampSec, -1, 0, 1420070400, -1420070400}
		return ext[g.r.IntN(len(ext))]
	case 3:
		return -int64(g.r.Uint64N(62135596800)) // before 1970
	}
	return minTimestampSec + int64(g.r.Uint64N(maxTimestampSec-minTimestampSec+1))
}
