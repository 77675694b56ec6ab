package sarg

// Term kernels: a term leaf over exact numbers compiled once, at bind
// time, into a short list of int64 operations that a batch runs chunk by
// chunk. The general path (term_bind.go, term_narrow.go) computes each
// node over the whole batch before its parent starts, so every
// intermediate result of 4096 rows goes out to the L2 cache and comes
// back; the kernel runs all of its operations on kernChunk rows at a time
// in a few small registers that stay in L1, reads each decimal column's
// 128-bit values once (checking that they fit in an int64 in the same
// pass), and folds what the tree spells as two steps into one: a rescale
// after a product with a literal is one product with the literals'
// product, and a literal operand is held in a register of the CPU.
//
// The proof that nothing overflows is the one term_narrow.go makes, per
// chunk: every column value read must fit in an int64, each value's
// magnitude bound is known (a column's measured on the chunk, a literal's
// its own), and each operation's result bound, derived from its
// arguments' (max+1 for a sum, the sum for a product), must stay at most
// narrowMax. A chunk that fails the proof abandons the kernel for the
// whole batch, which the general path then computes from the start, in
// 128 bits where it must: the kernel only ever answers where its int64
// arithmetic is exact, so it gives the general path's outcomes.

import (
	"math"
	"math/bits"

	"github.com/orcgo/orc"
)

// kernChunk is the rows a kernel computes at a time: a register of
// int64 is 4 KiB, and the 128-bit values read are 8 KiB per column.
const kernChunk = 512

// kernelOff turns the kernels off, so that tests can compare them with
// the general path; it is never set outside tests.
var kernelOff = false

// fuseOff keeps a kernel's last operation apart from its comparison, so
// that tests can compare the fused loops with the two steps; it is never
// set outside tests.
var fuseOff = false

// Operand kinds of a kernel operation.
const (
	kReg   uint8 = iota // a register: an earlier operation's result
	kConst              // a literal (c)
	kWide               // a decimal column's 128-bit values, read in place
	kLong               // an integer column's values, read in place
)

// kopnd is an operand: a register, a literal or a column.
type kopnd struct {
	kind uint8
	reg  int   // kReg
	c    int64 // kConst
	col  int   // kWide, kLong: the index in kernel.cols
}

// kinstr sets register dst to a op b (a op for opNeg and opAbs; a copy
// of a for opLoad, which reads a column).
type kinstr struct {
	op   arithOp
	a, b kopnd
	dst  int
}

// opLoad reads a column into a register (a kinstr's op only).
const opLoad arithOp = 255

// kernel is a compiled term leaf.
type kernel struct {
	cols  []int // column ids, each once
	wide  []bool
	scale []int // a decimal column's scale
	code  []kinstr
	regs  int
	// The outcome: the comparison of the root's two arguments x and y
	// (holds), or the inner leaf's comparison of x with its literals.
	x, y  kopnd
	cmp   cmpOp
	holds bool
	inner *boundLeaf
	lits  []int64 // the inner leaf's literals
	// fusable: the last operation may run fused with the comparison
	// (term_fuse.go), where a chunk's bounds allow.
	fusable bool
}

// kernScratch is a Matcher's buffers for a kernel.
type kernScratch struct {
	regs  [][kernChunk]int64
	mag   []int
	vals  []orc.Vector // the columns' vectors of the batch
	wides [][]orc.Int128
	bound []int // per column: a ColumnBounds bound of at most narrowMax, else -1
	longs [][]int64
	nulls []bool // the term's null rows, when some column has nulls
	merge []bool // nulls, when several columns have nulls
	cx    [kernChunk]int64
}

// compileKernel compiles bt, or returns nil when some node has no
// kernel form (any function but exact +, -, *, unary -, ABS and a
// rescale, a literal that does not fit, a comparison of other kinds).
func compileKernel(bt *boundTerm) *kernel {
	k := &kernel{}
	root := bt.node
	if f, ok := root.fn.(compareFn); ok && bt.holds {
		if f.mixed || f.op == cmpNullSafe || (f.k != tkDec && f.k != tkInt) {
			return nil
		}
		x, okx := k.compile(root.kids[0])
		y, oky := k.compile(root.kids[1])
		if !okx || !oky || x.kind == kConst && y.kind == kConst {
			return nil
		}
		k.x, k.y, k.cmp, k.holds = k.reg(x), k.reg(y), f.op, true
		k.fusable = k.lastFusable()
		return k
	}
	in := bt.inner
	switch in.op {
	case LeafEquals, LeafNullSafeEquals, LeafLessThan, LeafLessThanEquals, LeafIn, LeafBetween:
	default:
		return nil // IS NULL, and the operators matchOrdered does not know
	}
	switch {
	case root.t.k == tkDec && in.dom == domDecimal && in.decInts != nil:
		k.lits = in.decInts
	case root.t.k == tkInt && in.dom == domInt:
		k.lits = in.ints
	default:
		return nil
	}
	x, ok := k.compile(root)
	if !ok || x.kind == kConst {
		return nil
	}
	k.x, k.inner = k.reg(x), in
	k.fusable = k.lastFusable()
	return k
}

// reg returns o as a register, loading a column into one.
func (k *kernel) reg(o kopnd) kopnd {
	if o.kind != kWide && o.kind != kLong {
		return o
	}
	return k.emit(kinstr{op: opLoad, a: o})
}

// emit appends an operation writing a new register and returns it.
func (k *kernel) emit(in kinstr) kopnd {
	in.dst = k.regs
	k.regs++
	k.code = append(k.code, in)
	return kopnd{kind: kReg, reg: in.dst}
}

// column returns the operand reading column node nd.
func (k *kernel) column(nd *tnode) (kopnd, bool) {
	if nd.t.k != tkDec && nd.t.k != tkInt {
		return kopnd{}, false
	}
	i := 0
	for i < len(k.cols) && k.cols[i] != nd.colID {
		i++
	}
	if i == len(k.cols) {
		k.cols = append(k.cols, nd.colID)
		k.wide = append(k.wide, nd.t.k == tkDec)
		k.scale = append(k.scale, nd.t.scale)
	}
	if k.wide[i] != (nd.t.k == tkDec) || k.wide[i] && k.scale[i] != nd.t.scale {
		return kopnd{}, false
	}
	if k.wide[i] {
		return kopnd{kind: kWide, col: i}, true
	}
	return kopnd{kind: kLong, col: i}, true
}

// compile emits the operations computing nd and returns its operand.
func (k *kernel) compile(nd *tnode) (kopnd, bool) {
	switch f := nd.fn.(type) {
	case nil:
		if nd.col != nil {
			return k.column(nd)
		}
		if !nd.fast || nd.t.k != tkDec && nd.t.k != tkInt {
			return kopnd{}, false
		}
		return kopnd{kind: kConst, c: nd.lit64}, true
	case decArith:
		return k.arith(f.op, nd)
	case intArith:
		return k.arith(f.op, nd)
	case coercion:
		d := nd.scale64() - nd.kids[0].scale64()
		if !f.from.exact() || (f.to.k != tkDec && f.to.k != tkInt) || d < 0 || d >= len(pow10Int64) {
			return kopnd{}, false
		}
		a, ok := k.compile(nd.kids[0])
		if !ok || d == 0 {
			return a, ok
		}
		return k.binary(opMul, a, kopnd{kind: kConst, c: pow10Int64[d]})
	}
	return kopnd{}, false
}

// arith compiles an arithmetic node.
func (k *kernel) arith(op arithOp, nd *tnode) (kopnd, bool) {
	if op != opAdd && op != opSub && op != opMul && op != opNeg && op != opAbs {
		return kopnd{}, false
	}
	a, ok := k.compile(nd.kids[0])
	if !ok {
		return kopnd{}, false
	}
	if op == opNeg || op == opAbs {
		if a.kind == kConst {
			return kopnd{}, false // folded at bind time, where it can be
		}
		return k.emit(kinstr{op: op, a: k.reg(a)}), true
	}
	b, ok := k.compile(nd.kids[1])
	if !ok {
		return kopnd{}, false
	}
	return k.binary(op, a, b)
}

// binary emits a op b, fusing a column read into the operation and
// folding a product with a literal into the product before it.
func (k *kernel) binary(op arithOp, a, b kopnd) (kopnd, bool) {
	if a.kind == kConst && b.kind == kConst {
		return kopnd{}, false
	}
	if op == opMul && a.kind == kConst {
		a, b = b, a
	}
	if op == opMul && b.kind == kConst && a.kind == kReg {
		// (v * c1) * c2 is v * (c1 * c2) when the product fits: the bound
		// of the fold, bits.Len(|c1 * c2|), is at most the sum of theirs.
		last := &k.code[len(k.code)-1]
		if last.dst == a.reg && last.op == opMul && last.b.kind == kConst {
			if hi, lo := bits.Mul64(uabs(last.b.c), uabs(b.c)); hi == 0 && lo < 1<<63 {
				last.b.c *= b.c
				return a, true
			}
		}
	}
	switch {
	case a.kind == kWide && (b.kind == kConst || b.kind == kReg),
		b.kind == kWide && (a.kind == kConst || a.kind == kReg):
		return k.emit(kinstr{op: op, a: a, b: b}), true
	case a.kind == kWide && b.kind == kWide:
		return k.emit(kinstr{op: op, a: a, b: k.reg(b)}), true
	}
	return k.emit(kinstr{op: op, a: k.reg(a), b: k.reg(b)}), true
}

// uabs returns |x| as a uint64 (2^63 for math.MinInt64).
func uabs(x int64) uint64 {
	s := x >> 63
	return uint64((x ^ s) - s)
}

// constMag returns the magnitude bound of a literal: |c| < 2^constMag(c).
func constMag(c int64) int { return bits.Len64(uabs(c)) }

// scratch returns a kernel's buffers.
func (k *kernel) scratch() *kernScratch {
	n := len(k.cols)
	return &kernScratch{regs: make([][kernChunk]int64, k.regs), mag: make([]int, k.regs),
		vals: make([]orc.Vector, n), wides: make([][]orc.Int128, n), bound: make([]int, n), longs: make([][]int64, n)}
}

// run computes the leaf's outcomes on rows 0..n-1 of cols into out and
// reports whether it did; when it did not (a chunk failed the proof, or
// the vectors are not what the general path takes without an error), out
// is to be computed by the general path. A decimal column with a bound
// in bounds is read by its low words unchecked, the bound its magnitude.
// With neg it may give NOT of the leaf instead (a comparison by < or <=
// turned to its other side, null rows NULL either way), and says so in
// negated.
func (k *kernel) run(cols ColumnVectors, bounds ColumnBounds, n int, out []uint8, ks *kernScratch, neg bool) (ok, negated bool) {
	if kernelOff || forceWide || !k.readCols(cols, bounds, n, ks) {
		return false, false
	}
	if k.holds {
		negated = neg && (k.cmp == cmpLt || k.cmp == cmpLe)
	} else {
		negated = neg && (k.inner.op == LeafLessThan || k.inner.op == LeafLessThanEquals)
	}
	code, fuse := k.code, k.fusable && !fuseOff
	if fuse {
		code = code[:len(code)-1]
	}
	for s := 0; s < n; s += kernChunk {
		e := min(s+kernChunk, n)
		for i := range code {
			if !k.exec(&code[i], ks, s, e) {
				return false, false
			}
		}
		if fuse && k.execFused(ks, s, e, negated, out[s:e]) {
			continue
		}
		if fuse && !k.exec(&k.code[len(code)], ks, s, e) {
			return false, false
		}
		k.outcomes(ks, e-s, negated, out[s:e])
	}
	switch {
	case !k.holds:
		k.inner.applyNulls(ks.nulls, n, out[:n])
	case ks.nulls != nil:
		for i, null := range ks.nulls[:n] {
			if null {
				out[i] = rowNull
			}
		}
	}
	return true, negated
}

// outcomes sets out to the outcomes of a chunk of m rows whose registers
// are computed, or to their NOT with neg (only for < and <=: NOT x < y is
// y <= x, NOT x <= y is y < x, NOT x < c is x >= c), whatever the nulls.
func (k *kernel) outcomes(ks *kernScratch, m int, neg bool, out []uint8) {
	x := k.operand(k.x, ks, m)
	switch {
	case k.holds && neg:
		flip := cmpLt
		if k.cmp == cmpLt {
			flip = cmpLe
		}
		outcomesOf(flip, k.operand(k.y, ks, m), x, out)
	case k.holds:
		outcomesOf(k.cmp, x, k.operand(k.y, ks, m), out)
	case neg:
		notLess(k.inner.op, k.lits, x, out)
	default:
		in := k.inner
		sorted := in.sortedInts
		if in.dom == domDecimal {
			sorted = in.sortedDecInts
		}
		matchOrdered(in.op, k.lits, sorted, x, out)
	}
}

// operand returns a register's values, or a literal's repeated in cx.
func (k *kernel) operand(o kopnd, ks *kernScratch, m int) []int64 {
	if o.kind == kConst {
		if ks.cx[0] != o.c || ks.cx[kernChunk-1] != o.c {
			fillN(ks.cx[:], o.c)
		}
		return ks.cx[:m]
	}
	return ks.regs[o.reg][:m]
}

// readCols takes the columns' values of the batch and the term's null
// rows, and reports whether every vector is as the general path wants
// it (else it is left to report the error).
func (k *kernel) readCols(cols ColumnVectors, bounds ColumnBounds, n int, ks *kernScratch) bool {
	var one []bool // the null mask of the first column with one, or merge
	merged := false
	for i, id := range k.cols {
		v, ok := cols[id]
		if !ok || v == nil || v.Len() < n {
			return false
		}
		var nulls []bool
		switch x := v.(type) {
		case *orc.DecimalVector:
			if !k.wide[i] || x.Scale != k.scale[i] || len(x.Values) < n {
				return false
			}
			ks.wides[i], nulls = x.Values[:n], x.Nulls.Nulls
			ks.bound[i] = -1
			if b, ok := bounds[id]; ok && b <= narrowMax {
				ks.bound[i] = b
			}
		case *orc.LongVector:
			if k.wide[i] || len(x.Values) < n {
				return false
			}
			ks.longs[i], nulls = x.Values[:n], x.Nulls.Nulls
		default:
			return false
		}
		switch {
		case len(nulls) == 0:
		case len(nulls) < n:
			return false
		case one == nil:
			one = nulls[:n]
		default:
			if !merged {
				ks.merge = append(ks.merge[:0], one...)
				one, merged = ks.merge, true
			}
			for j, b := range nulls[:n] {
				one[j] = one[j] || b
			}
		}
	}
	ks.nulls = one
	return true
}

// exec runs one operation on rows s..e-1 and reports whether its result
// fits in an int64 on every row (and the columns it reads, too).
func (k *kernel) exec(in *kinstr, ks *kernScratch, s, e int) bool {
	r := ks.regs[in.dst][:e-s]
	mag := 0
	switch {
	case in.op == opLoad && in.a.kind == kLong:
		x := ks.longs[in.a.col][s:e]
		copy(r, x)
		mag = magOf(x)
	case in.op == opLoad:
		if mag = ks.bound[in.a.col]; mag >= 0 {
			lowConst(opAdd, ks.wides[in.a.col][s:e], 0, r, true)
			break
		}
		hs, acc := wideConst(opAdd, ks.wides[in.a.col][s:e], 0, r, true)
		if mag = wideMag(hs, acc); mag > narrowMax {
			return false
		}
	case in.a.kind == kWide || in.b.kind == kWide:
		var ok bool
		if mag, ok = k.execWide(in, ks, r, s, e); !ok {
			return false
		}
	case in.op == opNeg || in.op == opAbs:
		arithRegs(in.op, ks.regs[in.a.reg][:e-s], nil, r)
		mag = ks.mag[in.a.reg]
	case in.b.kind == kConst:
		arithConst(in.op, ks.regs[in.a.reg][:e-s], in.b.c, r, false)
		mag = resultMag(in.op, ks.mag[in.a.reg], constMag(in.b.c))
	case in.a.kind == kConst:
		arithConst(in.op, ks.regs[in.b.reg][:e-s], in.a.c, r, true)
		mag = resultMag(in.op, constMag(in.a.c), ks.mag[in.b.reg])
	default:
		arithRegs(in.op, ks.regs[in.a.reg][:e-s], ks.regs[in.b.reg][:e-s], r)
		mag = resultMag(in.op, ks.mag[in.a.reg], ks.mag[in.b.reg])
	}
	ks.mag[in.dst] = mag
	return mag <= narrowMax
}

// execWide runs in, an operation reading a decimal column, on rows
// s..e-1 into r and returns its result's magnitude bound; ok false when
// some value of the column does not fit in an int64.
func (k *kernel) execWide(in *kinstr, ks *kernScratch, r []int64, s, e int) (mag int, ok bool) {
	w, o, wideFirst := in.a, in.b, true
	if o.kind == kWide {
		w, o, wideFirst = in.b, in.a, false
	}
	ws := ks.wides[w.col][s:e]
	mw, mo := ks.bound[w.col], 0
	var hs, acc uint64
	switch {
	case o.kind == kConst && mw >= 0:
		lowConst(in.op, ws, o.c, r, wideFirst)
	case o.kind == kConst:
		hs, acc = wideConst(in.op, ws, o.c, r, wideFirst)
	case mw >= 0:
		lowRegs(in.op, ws, ks.regs[o.reg][:e-s], r, wideFirst)
	default:
		hs, acc = wideRegs(in.op, ws, ks.regs[o.reg][:e-s], r, wideFirst)
	}
	if o.kind == kConst {
		mo = constMag(o.c)
	} else {
		mo = ks.mag[o.reg]
	}
	if mw < 0 {
		if mw = wideMag(hs, acc); mw > narrowMax {
			return 0, false
		}
	}
	return resultMag(in.op, mw, mo), true
}

// resultMag bounds x op y from the bounds of x and y, as evalNarrow does.
func resultMag(op arithOp, mx, my int) int {
	if op == opMul {
		return mx + my
	}
	return max(mx, my) + 1
}

// arithRegs sets r[i] to x[i] op y[i] (op x[i] for opNeg and opAbs).
func arithRegs(op arithOp, x, y, r []int64) {
	r = r[:len(x)]
	switch op {
	case opNeg:
		for i, v := range x {
			r[i] = -v
		}
		return
	case opAbs:
		for i, v := range x {
			s := v >> 63
			r[i] = (v ^ s) - s
		}
		return
	}
	y = y[:len(x)]
	switch op {
	case opAdd:
		for i, v := range x {
			r[i] = v + y[i]
		}
	case opSub:
		for i, v := range x {
			r[i] = v - y[i]
		}
	default:
		for i, v := range x {
			r[i] = v * y[i]
		}
	}
}

// arithConst sets r[i] to x[i] op c (c op x[i] when constFirst).
func arithConst(op arithOp, x []int64, c int64, r []int64, constFirst bool) {
	r = r[:len(x)]
	switch {
	case op == opAdd:
		for i, v := range x {
			r[i] = v + c
		}
	case op == opMul:
		for i, v := range x {
			r[i] = v * c
		}
	case constFirst:
		for i, v := range x {
			r[i] = c - v
		}
	default:
		for i, v := range x {
			r[i] = v - c
		}
	}
}

// wideMag returns the magnitude bound of 128-bit values read by their low
// words, from wideRegs' or wideConst's hs and acc, or narrowMax+1 when
// some value does not fit in an int64. A value fits when its high word
// is 0 or -1 (hs, the OR of every high word plus one, is then 0 or 1) and
// its low word has that sign (lo ^ hi then has bit 63 clear): lo ^ hi is
// then the value for one at or above zero and |v| - 1 for one below, so
// every |v| <= 2^bits.Len64(acc) < 2^(bits.Len64(acc)+1); a low word of
// the other sign sets bit 63 of acc, and the bound to 65. The bound is
// one bit looser than narrowDec's, for two operations less per row.
func wideMag(hs, acc uint64) int {
	if hs > 1 {
		return narrowMax + 1
	}
	return bits.Len64(acc) + 1
}

// wideRegs sets r[i] to w[i] op v[i] (v[i] op w[i] unless wideFirst) on
// w's low words, and returns what wideMag reads.
func wideRegs(op arithOp, w []orc.Int128, v, r []int64, wideFirst bool) (hs, acc uint64) {
	v, r = v[:len(w)], r[:len(w)]
	switch {
	case op == opAdd:
		for i, x := range w {
			hs |= uint64(x.Hi + 1)
			acc |= x.Lo ^ uint64(x.Hi)
			r[i] = int64(x.Lo) + v[i]
		}
	case op == opMul:
		for i, x := range w {
			hs |= uint64(x.Hi + 1)
			acc |= x.Lo ^ uint64(x.Hi)
			r[i] = int64(x.Lo) * v[i]
		}
	case wideFirst:
		for i, x := range w {
			hs |= uint64(x.Hi + 1)
			acc |= x.Lo ^ uint64(x.Hi)
			r[i] = int64(x.Lo) - v[i]
		}
	default:
		for i, x := range w {
			hs |= uint64(x.Hi + 1)
			acc |= x.Lo ^ uint64(x.Hi)
			r[i] = v[i] - int64(x.Lo)
		}
	}
	return hs, acc
}

// wideConst is wideRegs with the same value c in every row of v.
func wideConst(op arithOp, w []orc.Int128, c int64, r []int64, wideFirst bool) (hs, acc uint64) {
	r = r[:len(w)]
	switch {
	case op == opAdd:
		for i, x := range w {
			hs |= uint64(x.Hi + 1)
			acc |= x.Lo ^ uint64(x.Hi)
			r[i] = int64(x.Lo) + c
		}
	case op == opMul:
		for i, x := range w {
			hs |= uint64(x.Hi + 1)
			acc |= x.Lo ^ uint64(x.Hi)
			r[i] = int64(x.Lo) * c
		}
	case wideFirst:
		for i, x := range w {
			hs |= uint64(x.Hi + 1)
			acc |= x.Lo ^ uint64(x.Hi)
			r[i] = int64(x.Lo) - c
		}
	default:
		for i, x := range w {
			hs |= uint64(x.Hi + 1)
			acc |= x.Lo ^ uint64(x.Hi)
			r[i] = c - int64(x.Lo)
		}
	}
	return hs, acc
}

// lowRegs sets r[i] to w[i] op v[i] (v[i] op w[i] unless wideFirst) on
// w's low words, w's values known to fit in an int64; eight rows a step
// (at8), then the rest one by one.
func lowRegs(op arithOp, w []orc.Int128, v, r []int64, wideFirst bool) {
	v, r = v[:len(w)], r[:len(w)]
	i := 0
	switch {
	case op == opAdd:
		for ; i+8 <= len(w); i += 8 {
			x, y, o := at8(w, i), at8(v, i), at8(r, i)
			o[0], o[1], o[2], o[3] = int64(x[0].Lo)+y[0], int64(x[1].Lo)+y[1], int64(x[2].Lo)+y[2], int64(x[3].Lo)+y[3]
			o[4], o[5], o[6], o[7] = int64(x[4].Lo)+y[4], int64(x[5].Lo)+y[5], int64(x[6].Lo)+y[6], int64(x[7].Lo)+y[7]
		}
	case op == opMul:
		for ; i+8 <= len(w); i += 8 {
			x, y, o := at8(w, i), at8(v, i), at8(r, i)
			o[0], o[1], o[2], o[3] = int64(x[0].Lo)*y[0], int64(x[1].Lo)*y[1], int64(x[2].Lo)*y[2], int64(x[3].Lo)*y[3]
			o[4], o[5], o[6], o[7] = int64(x[4].Lo)*y[4], int64(x[5].Lo)*y[5], int64(x[6].Lo)*y[6], int64(x[7].Lo)*y[7]
		}
	case wideFirst:
		for ; i+8 <= len(w); i += 8 {
			x, y, o := at8(w, i), at8(v, i), at8(r, i)
			o[0], o[1], o[2], o[3] = int64(x[0].Lo)-y[0], int64(x[1].Lo)-y[1], int64(x[2].Lo)-y[2], int64(x[3].Lo)-y[3]
			o[4], o[5], o[6], o[7] = int64(x[4].Lo)-y[4], int64(x[5].Lo)-y[5], int64(x[6].Lo)-y[6], int64(x[7].Lo)-y[7]
		}
	default:
		for ; i+8 <= len(w); i += 8 {
			x, y, o := at8(w, i), at8(v, i), at8(r, i)
			o[0], o[1], o[2], o[3] = y[0]-int64(x[0].Lo), y[1]-int64(x[1].Lo), y[2]-int64(x[2].Lo), y[3]-int64(x[3].Lo)
			o[4], o[5], o[6], o[7] = y[4]-int64(x[4].Lo), y[5]-int64(x[5].Lo), y[6]-int64(x[6].Lo), y[7]-int64(x[7].Lo)
		}
	}
	for ; i < len(w); i++ {
		x := int64(w[i].Lo)
		switch {
		case op == opAdd:
			r[i] = x + v[i]
		case op == opMul:
			r[i] = x * v[i]
		case wideFirst:
			r[i] = x - v[i]
		default:
			r[i] = v[i] - x
		}
	}
}

// lowConst is lowRegs with the same value c in every row of v: a
// difference with c a sum with -c (but for math.MinInt64, whose
// negation overflows), so that three loops serve.
func lowConst(op arithOp, w []orc.Int128, c int64, r []int64, wideFirst bool) {
	r = r[:len(w)]
	if op == opSub && wideFirst && c != math.MinInt64 {
		op, c = opAdd, -c
	}
	i := 0
	switch {
	case op == opAdd:
		for ; i+8 <= len(w); i += 8 {
			x, o := at8(w, i), at8(r, i)
			o[0], o[1], o[2], o[3] = int64(x[0].Lo)+c, int64(x[1].Lo)+c, int64(x[2].Lo)+c, int64(x[3].Lo)+c
			o[4], o[5], o[6], o[7] = int64(x[4].Lo)+c, int64(x[5].Lo)+c, int64(x[6].Lo)+c, int64(x[7].Lo)+c
		}
	case op == opMul:
		for ; i+8 <= len(w); i += 8 {
			x, o := at8(w, i), at8(r, i)
			o[0], o[1], o[2], o[3] = int64(x[0].Lo)*c, int64(x[1].Lo)*c, int64(x[2].Lo)*c, int64(x[3].Lo)*c
			o[4], o[5], o[6], o[7] = int64(x[4].Lo)*c, int64(x[5].Lo)*c, int64(x[6].Lo)*c, int64(x[7].Lo)*c
		}
	case !wideFirst:
		for ; i+8 <= len(w); i += 8 {
			x, o := at8(w, i), at8(r, i)
			o[0], o[1], o[2], o[3] = c-int64(x[0].Lo), c-int64(x[1].Lo), c-int64(x[2].Lo), c-int64(x[3].Lo)
			o[4], o[5], o[6], o[7] = c-int64(x[4].Lo), c-int64(x[5].Lo), c-int64(x[6].Lo), c-int64(x[7].Lo)
		}
	}
	for ; i < len(w); i++ {
		x := int64(w[i].Lo)
		switch {
		case op == opAdd:
			r[i] = x + c
		case op == opMul:
			r[i] = x * c
		case wideFirst:
			r[i] = x - c
		default:
			r[i] = c - x
		}
	}
}
