package statsindex

// Looking files up in the index (spec.md 7.16).
//
// What "ruled out by the index" means, and why it cannot drop a row: a file
// is skipped without being opened only when (1) the listing reports a size
// and a version for it and the index holds an entry for the same path with
// the same size and version, and (2) the predicate, evaluated against the
// entry's statistics exactly as the reader evaluates it against the file's
// footer (sarg.Bound.Evaluate, spec.md 7.3-7.6), cannot be TRUE. Columns the
// index does not cover have no statistics in that evaluation, so their
// leaves are "can't decide" and the partial-index rules of 7.6 apply across
// the whole AND/OR tree: an AND prunes on either indexed side, an OR only
// when every side is indexed. Any doubt (no entry, another size or version,
// a column of another type, an index that fails to read) makes the file a
// candidate, opened and pruned by its footer as without an index.
//
// The index is read with orcgo's own scan, and its row groups are pruned
// by a lookup expression: the predicate translated into one over the
// index's columns (x = v becomes (x_min IS NULL OR x_min <= v) AND (x_max
// IS NULL OR x_max >= v), IS NULL looks at the null count, leaves on
// partition columns keep their exact form on the partition values, every
// other leaf becomes TRUE). The translation only has to keep every entry
// whose evaluation in (2) could be TRUE; it is monotone over the negation
// normal form, so it does: a leaf it cannot translate is TRUE, never a
// definite answer. Two scans of the index run: the paths, sizes and
// versions (membership) pruned by the partition leaves alone, and the
// statistics of the predicate's columns pruned by the whole lookup
// expression. A fresh entry that the first returns and the second does not
// is ruled out by the index's row groups.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/stats"
)

// Index is an index opened for lookups by a dataset's scans. It is safe
// for concurrent use.
type Index struct {
	r       *reader.Reader
	hdr     indexHeader
	types   []*orc.Schema // per header column
	bloom   []bool        // per header column: the entries have ci_bloom
	cols    []*orc.Schema // per header column: the read schema's column, when usable
	leaf    []string      // per header column: its name as a predicate's leaf spells it
	usable  []bool        // per header column: the read schema has it with this type
	parts   bool          // the partition columns are the dataset's
	schema  *orc.Schema   // the index file's schema
	read    *orc.Schema   // the dataset's read schema
	dsParts *orc.Schema   // the dataset's partition columns, or nil
}

// Open opens and checks the index in r (size bytes) for lookups by a
// dataset of read schema schema (a struct with its IDs assigned) and
// partition columns parts (nil: none). opts are the options the index file
// is opened with (limits). An index that is not an orcgo dataset index,
// has a layout this package does not read, or whose schema is not the one
// its header describes is an error. It keeps r for the lookups; a caller
// that must close what r reads closes it when done with the Index.
//
// The index is read through a cache of aligned blocks, so that the
// lookups' scans cost few requests over an object store.
func Open(r io.ReaderAt, size int64, schema, parts *orc.Schema, opts ...reader.Option) (*Index, error) {
	var err error
	ix := &Index{read: schema, dsParts: parts}
	fail := func(format string, args ...any) (*Index, error) {
		return nil, fmt.Errorf(format, args...)
	}
	if ix.r, err = reader.Open(newBlockCache(r, size), size, opts...); err != nil {
		return fail("%w", err)
	}
	var hdr []byte
	for _, m := range ix.r.UserMetadata() {
		if m.Key == MetadataKey {
			hdr = m.Value
		}
	}
	if hdr == nil {
		return fail("not an orcgo dataset index (no %s metadata)", MetadataKey)
	}
	if err := json.Unmarshal(hdr, &ix.hdr); err != nil {
		return fail("bad index header: %v", err)
	}
	if ix.hdr.Layout < 1 || ix.hdr.Layout > indexLayout {
		return fail("index layout version %d, this orcgo reads 1 to %d", ix.hdr.Layout, indexLayout)
	}
	if len(ix.hdr.Columns) > 10000 {
		return fail("bad index header: %d columns", len(ix.hdr.Columns))
	}
	for _, hc := range ix.hdr.Columns {
		t, err := orc.ParseSchema(hc.Type)
		if err != nil || !indexable(t) {
			return fail("bad index header: column %q has type %q", hc.Name, hc.Type)
		}
		if hc.Bloom && ix.hdr.Layout < 2 {
			return fail("bad index header: column %q has a bloom filter in layout %d", hc.Name, ix.hdr.Layout)
		}
		if t.Kind == orc.Geometry && ix.hdr.Layout < 3 {
			return fail("bad index header: column %q is geometry in layout %d", hc.Name, ix.hdr.Layout)
		}
		leaf := sarg.Col(hc.Name)
		if hc.Path != nil {
			if len(hc.Path) < 2 || len(hc.Path) > 64 || sarg.Col(hc.Path...) != hc.Name || hc.Bloom {
				return fail("bad index header: column %q has path %q", hc.Name, hc.Path)
			}
			leaf = hc.Name
		}
		ix.types = append(ix.types, t)
		ix.bloom = append(ix.bloom, hc.Bloom)
		ix.leaf = append(ix.leaf, leaf)
		rt := columnAt(schema, hc.Name, hc.Path)
		usable := rt != nil && rt.String() == t.String()
		ix.usable = append(ix.usable, usable)
		if !usable {
			rt = nil
		}
		ix.cols = append(ix.cols, rt)
	}
	if slices.Contains(ix.bloom, true) && !(ix.hdr.BloomFPP >= 0.0001 && ix.hdr.BloomFPP <= 0.5) {
		return fail("bad index header: bloom_fpp %v", ix.hdr.BloomFPP)
	}
	var iparts *orc.Schema
	if ix.hdr.Partitions != "" {
		if iparts, err = orc.ParseSchema(ix.hdr.Partitions); err != nil || iparts.Kind != orc.Struct {
			return fail("bad index header: partitions %q", ix.hdr.Partitions)
		}
	}
	ix.parts = iparts != nil && parts != nil && iparts.String() == parts.String()
	ix.schema = indexLayoutSchema(ix.types, ix.bloom, iparts)
	if got := ix.r.Schema().String(); got != ix.schema.String() {
		return fail("the index's schema %s is not the layout its header describes", got)
	}
	return ix, nil
}

// isPartition reports whether a column path names one of the dataset's
// partition columns, and which.
func (ix *Index) isPartition(p string) (int, bool) {
	if ix.dsParts == nil {
		return -1, false
	}
	for i, n := range ix.dsParts.FieldNames {
		if p == n || p == sarg.Col(n) {
			return i, true
		}
	}
	return -1, false
}

// indexed returns the header column of a leaf's column, if the lookup can
// use it.
func (ix *Index) indexed(col string) (int, bool) {
	for i, hc := range ix.hdr.Columns {
		if ix.usable[i] && (col == ix.leaf[i] || hc.Path == nil && col == hc.Name) {
			return i, true
		}
	}
	return -1, false
}

// lookupExpr translates a predicate in negation normal form into the
// lookup expression over the index's columns (see the top of this file).
// With partsOnly, only partition leaves are translated.
func (ix *Index) lookupExpr(e sarg.Expr, partsOnly bool) sarg.Expr {
	switch e.Op {
	case sarg.OpTrue:
		return sarg.True()
	case sarg.OpFalse, sarg.OpNull:
		return sarg.False()
	case sarg.OpAnd, sarg.OpOr:
		kids := make([]sarg.Expr, len(e.Children))
		for i, c := range e.Children {
			kids[i] = ix.lookupExpr(c, partsOnly)
		}
		if e.Op == sarg.OpAnd {
			return sarg.Normalize(sarg.And(kids...))
		}
		return sarg.Normalize(sarg.Or(kids...))
	case sarg.OpNot:
		if len(e.Children) == 1 && e.Children[0].Op == sarg.OpLeaf && e.Children[0].Leaf != nil {
			return ix.lookupLeaf(e.Children[0].Leaf, true, partsOnly)
		}
	case sarg.OpLeaf:
		if e.Leaf != nil {
			return ix.lookupLeaf(e.Leaf, false, partsOnly)
		}
	}
	return sarg.True()
}

// lookupLeaf translates one leaf (negated when neg): the condition on an
// index row under which the leaf may be TRUE for some row of the file.
func (ix *Index) lookupLeaf(l *sarg.Leaf, neg, partsOnly bool) sarg.Expr {
	if l.Other != "" {
		return sarg.True() // a comparison of two columns: the index rows pair no values
	}
	if l.Func != nil {
		return sarg.True() // a function of a column: the index keeps the column's range, not the function's
	}
	if j, ok := ix.isPartition(l.Column); ok {
		switch l.Op {
		case sarg.LeafEquals, sarg.LeafNullSafeEquals, sarg.LeafLessThan, sarg.LeafLessThanEquals,
			sarg.LeafIn, sarg.LeafBetween, sarg.LeafIsNull:
		default:
			return sarg.True() // a form this translation does not know
		}
		if !ix.parts {
			return sarg.True()
		}
		pl := *l // every field of the leaf, on the index's column
		pl.Column = fmt.Sprintf("p%d", j)
		e := sarg.Expr{Op: sarg.OpLeaf, Leaf: &pl}
		if neg {
			return sarg.Not(e)
		}
		return e
	}
	i, ok := ix.indexed(l.Column)
	if partsOnly || !ok {
		return sarg.True()
	}
	t := ix.types[i]
	if t.Kind == orc.Geometry {
		return geoLookup(l, neg, i)
	}
	mn, mx := fmt.Sprintf("c%d_min", i), fmt.Sprintf("c%d_max", i)
	lits := l.Literals
	if l.Op == sarg.LeafLike {
		if neg || !isText(t.Kind) {
			return sarg.True()
		}
		return likeLookup(l, mn, mx)
	}
	if t.Kind == orc.Char || t.Kind == orc.Varchar {
		return sarg.True() // bounds kept as string: literals would bind otherwise
	}
	for _, v := range lits {
		if v.IsNull() && l.Op != sarg.LeafIn {
			return sarg.True()
		}
	}
	atMost := func(c string, v sarg.Literal) sarg.Expr { return sarg.Or(sarg.IsNull(c), sarg.Le(c, v)) }
	atLeast := func(c string, v sarg.Literal) sarg.Expr { return sarg.Or(sarg.IsNull(c), sarg.Ge(c, v)) }
	holds := func(v sarg.Literal) sarg.Expr { return sarg.And(atMost(mn, v), atLeast(mx, v)) }
	// differs holds unless every value of the file is v: both bounds
	// equal v and, for text, neither is a truncated (open) bound.
	differs := func(v sarg.Literal) sarg.Expr {
		alts := []sarg.Expr{sarg.IsNull(mn), sarg.IsNull(mx), sarg.Ne(mn, v), sarg.Ne(mx, v)}
		if isText(t.Kind) {
			lo, hi := fmt.Sprintf("c%d_lower", i), fmt.Sprintf("c%d_upper", i)
			alts = append(alts, sarg.IsNull(lo), sarg.IsNull(hi), sarg.Eq(lo, sarg.Bool(true)), sarg.Eq(hi, sarg.Bool(true)))
		}
		return sarg.Or(alts...)
	}
	someNull := func() sarg.Expr {
		c := fmt.Sprintf("c%d_nulls", i)
		return sarg.Or(sarg.IsNull(c), sarg.Gt(c, sarg.Int(0)))
	}
	if neg {
		switch l.Op {
		case sarg.LeafLessThan: // x >= v
			if len(lits) == 1 {
				return atLeast(mx, lits[0])
			}
		case sarg.LeafLessThanEquals: // x > v
			if len(lits) == 1 {
				return sarg.Or(sarg.IsNull(mx), sarg.Gt(mx, lits[0]))
			}
		case sarg.LeafIsNull: // some value
			c := fmt.Sprintf("c%d_values", i)
			return sarg.Or(sarg.IsNull(c), sarg.Gt(c, sarg.Int(0)))
		case sarg.LeafEquals: // x <> v: some value other than v
			if len(lits) == 1 {
				return differs(lits[0])
			}
		case sarg.LeafNullSafeEquals: // x IS NULL or x <> v
			if len(lits) == 1 {
				return sarg.Or(differs(lits[0]), someNull())
			}
		case sarg.LeafIn: // NOT IN: some value outside the list
			var alts []sarg.Expr
			for _, v := range lits {
				if v.IsNull() {
					return sarg.True() // never TRUE; left to the entries' statistics
				}
				alts = append(alts, differs(v))
			}
			if len(alts) > 0 && len(alts) <= 64 {
				return sarg.And(alts...)
			}
		case sarg.LeafBetween: // NOT BETWEEN: some value below lo or above hi
			if len(lits) == 2 {
				return sarg.Or(sarg.IsNull(mn), sarg.Lt(mn, lits[0]), sarg.IsNull(mx), sarg.Gt(mx, lits[1]))
			}
		}
		return sarg.True()
	}
	switch l.Op {
	case sarg.LeafEquals, sarg.LeafNullSafeEquals:
		if len(lits) == 1 {
			return holds(lits[0])
		}
	case sarg.LeafIn:
		var alts []sarg.Expr
		for _, v := range lits {
			if !v.IsNull() {
				alts = append(alts, holds(v))
			}
		}
		if len(alts) > 0 && len(alts) <= 64 {
			return sarg.Or(alts...)
		}
	case sarg.LeafLessThan:
		if len(lits) == 1 {
			return sarg.Or(sarg.IsNull(mn), sarg.Lt(mn, lits[0]))
		}
	case sarg.LeafLessThanEquals:
		if len(lits) == 1 {
			return atMost(mn, lits[0])
		}
	case sarg.LeafBetween:
		if len(lits) == 2 {
			return sarg.And(atMost(mn, lits[1]), atLeast(mx, lits[0]))
		}
	case sarg.LeafIsNull:
		c := fmt.Sprintf("c%d_nulls", i)
		return sarg.Or(sarg.IsNull(c), sarg.Gt(c, sarg.Int(0)))
	}
	return sarg.True()
}

// likeLookup translates x LIKE pattern on a text column with bounds mn and
// mx: every match starts with the pattern's literal prefix P, so lies in
// [P, succ(P)) (spec.md 7.17); a file holds one only when its maximum is at
// least P and its minimum below succ(P). A truncated maximum is above every
// value and a truncated minimum below every value, so the condition holds
// with truncated bounds too; char values, stored padded, start with the
// prefix of their unpadded form. An empty prefix, a pattern that does not
// compile and a NULL pattern give TRUE.
func likeLookup(l *sarg.Leaf, mn, mx string) sarg.Expr {
	if len(l.Literals) != 2 || l.Literals[0].Kind() != sarg.StringLit || l.Literals[1].Kind() != sarg.StringLit {
		return sarg.True()
	}
	prefix, succ, bounded, err := sarg.LikePrefixRange(l.Literals[0].Str(), l.Literals[1].Str(), false)
	if err != nil || prefix == "" {
		return sarg.True()
	}
	e := sarg.Or(sarg.IsNull(mx), sarg.Ge(mx, sarg.String(prefix)))
	if bounded {
		e = sarg.And(e, sarg.Or(sarg.IsNull(mn), sarg.Lt(mn, sarg.String(succ))))
	}
	return e
}

// display writes a lookup expression with the index's columns named after
// the dataset's: min(x), max(x), nulls(x), values(x), and partition names.
func (ix *Index) display(e sarg.Expr) string {
	var pairs []string
	for i := range ix.hdr.Columns {
		n := ix.leaf[i]
		for _, f := range []string{"min", "max", "nulls", "values", "xmin", "xmax", "ymin", "ymax"} {
			pairs = append(pairs, fmt.Sprintf("c%d_%s", i, f), f+"("+n+")")
		}
	}
	if ix.parts {
		for j, n := range ix.dsParts.FieldNames {
			pairs = append(pairs, fmt.Sprintf("p%d", j), sarg.Col(n))
		}
	}
	// Longer names first, so that p1 does not replace the start of p10.
	type pair struct{ old, new string }
	var ps []pair
	for k := 0; k < len(pairs); k += 2 {
		ps = append(ps, pair{pairs[k], pairs[k+1]})
	}
	slices.SortStableFunc(ps, func(a, b pair) int { return len(b.old) - len(a.old) })
	var args []string
	for _, p := range ps {
		args = append(args, p.old, p.new)
	}
	return strings.NewReplacer(args...).Replace(e.String())
}

// predicateColumns returns the header columns the predicate's leaves read:
// every column of a leaf, both sides of x < y and each column of x - y > 0.
func (ix *Index) predicateColumns(e sarg.Expr) []int {
	var out []int
	var walk func(e sarg.Expr)
	walk = func(e sarg.Expr) {
		if e.Op == sarg.OpLeaf && e.Leaf != nil {
			// Every column the leaf reads: x - y > 0 is decided by
			// the statistics of both.
			for _, c := range e.Leaf.Columns() {
				if i, ok := ix.indexed(c); ok && !slices.Contains(out, i) {
					out = append(out, i)
				}
			}
		}
		for _, c := range e.Children {
			walk(c)
		}
	}
	walk(e)
	slices.Sort(out)
	return out
}

// scanIndex reads columns of the index's rows that the search argument
// may match (all rows when where is TRUE), calling fn on each batch.
func (ix *Index) scanIndex(cols []string, where sarg.Expr, fn func(b *orc.Batch, i int)) error {
	opts := []reader.ScanOption{reader.WithColumns(cols...)}
	if where.Op != sarg.OpTrue {
		if _, err := sarg.Bind(where, ix.schema); err == nil {
			// Row groups only: fn decides each row itself.
			opts = append(opts, reader.WithSearchArgument(where), reader.WithWholeRowGroups())
		}
	}
	return ix.r.EachBatch(func(b *orc.Batch) error {
		for i := range b.NumRows {
			fn(b, i)
		}
		return nil
	}, opts...)
}

// Query asks an Index which of a dataset's files it rules out.
type Query struct {
	// Where is the scan's predicate on the dataset's schema (the read
	// schema's columns, then the partition columns), its column names
	// spelled as the schema spells them (sarg.ResolveNames).
	Where sarg.Expr
	// Files are the files to decide on, their Names unique.
	Files []QueryFile
}

// QueryFile is a file a Query decides on.
type QueryFile struct {
	// Name, Size and Version are what the listing reports
	// (dataset.File): an entry vouches for the file only when it has the
	// same path, size and version, and a Version of "" never matches.
	Name    string
	Size    int64
	Version string
	// Where is Query.Where with the file's partition values put in.
	Where sarg.Expr
}

// Verdict is what the index says of a file.
type Verdict uint8

const (
	// NotVouched: no usable entry stands for the file (none, another
	// size or version, no version listed, several entries, or statistics
	// no footer could hold): open it and prune it by its footer.
	NotVouched Verdict = iota
	// MayMatch: the file's entry says the predicate may be TRUE for some
	// row: open it.
	MayMatch
	// RuledOutByRowGroups: the file's entry lies in row groups of the
	// index that the lookup expression ruled out.
	RuledOutByRowGroups
	// RuledOutByStatistics: the predicate evaluated on the entry's
	// statistics cannot be TRUE.
	RuledOutByStatistics
)

// Result is the answer to a Query.
type Result struct {
	// Verdicts holds a verdict per Query.Files.
	Verdicts []Verdict
	// Warning names the entries ignored as impossible (statistics no
	// footer could hold), whose files are NotVouched; "" when none were.
	Warning string
	// LookupExpr and MembershipExpr are the two scans' expressions over
	// the index's rows (see the top of this file), with the columns shown
	// as min(x), max(x), nulls(x), values(x) and partition names.
	LookupExpr, MembershipExpr string
}

// Lookup decides, for each file of q, whether the index rules it out (see
// the top of this file). Only the entries of q's files are kept, and only
// as a verdict per file, never as statistics: an index listing many more
// files than the query costs the time to read it and no memory per entry.
// An error means the index could not be read: every file is then to be
// opened.
func (ix *Index) Lookup(q Query) (Result, error) {
	nnf := sarg.Normalize(q.Where)
	lookup := ix.lookupExpr(nnf, false)
	membership := ix.lookupExpr(nnf, true)
	used := ix.predicateColumns(nnf)
	files := map[string]int{}
	for i, f := range q.Files {
		if f.Version != "" {
			files[f.Name] = i
		}
	}
	res := Result{Verdicts: make([]Verdict, len(q.Files)), LookupExpr: ix.display(lookup), MembershipExpr: ix.display(membership)}
	members, err := ix.members(q, membership, used, files, &res)
	if err != nil {
		return res, err
	}
	needed, err := ix.verdicts(q, nnf, lookup, used, files, members)
	if err != nil {
		return res, err
	}
	for i := range q.Files {
		if !members[i] {
			continue
		}
		need, returned := needed[i]
		switch {
		case !returned:
			res.Verdicts[i] = RuledOutByRowGroups
		case need:
			res.Verdicts[i] = MayMatch
		default:
			res.Verdicts[i] = RuledOutByStatistics
		}
	}
	return res, nil
}

// members runs the membership scan: it returns the files of q whose one
// entry has their size and version and statistics a footer could hold.
// The scan also reads the statistics of the predicate's columns, unpruned,
// to find the entries no footer could hold: those must rule nothing out,
// neither by their own values nor through the row groups of the lookup
// scan, so they are no members (res.Warning names them). A file with
// several entries (a forged index) is no member either.
func (ix *Index) members(q Query, membership sarg.Expr, used []int, files map[string]int, res *Result) (map[int]bool, error) {
	mcols := []string{"path", "size", "version"}
	for _, i := range used {
		mcols = append(mcols, ix.statColumns(i)...)
	}
	members := map[int]bool{}
	var impossible int
	var firstImpossible string
	err := ix.scanIndex(mcols, membership, func(b *orc.Batch, i int) {
		p, sz, v := b.Cols[0].(*orc.BytesVector), b.Cols[1].(*orc.LongVector), b.Cols[2].(*orc.BytesVector)
		if p.IsNull(i) || sz.IsNull(i) || v.IsNull(i) {
			return
		}
		fi, ok := files[string(p.Get(i))]
		if !ok {
			return
		}
		if _, dup := members[fi]; dup {
			members[fi] = false
			return
		}
		f := q.Files[fi]
		members[fi] = sz.Values[i] == f.Size && string(v.Get(i)) == f.Version
		for _, c := range used {
			if why := entryProblem(b, i, c); why != "" {
				if impossible == 0 {
					firstImpossible = fmt.Sprintf("%s: column %s: %s", p.String(i), ix.leaf[c], why)
				}
				impossible++
				members[fi] = false
				return
			}
		}
	})
	if impossible > 0 {
		res.Warning = fmt.Sprintf("%d index entries ignored, their files opened: no footer holds such statistics (the first: %s)",
			impossible, firstImpossible)
	}
	return members, err
}

// verdicts runs the lookup scan over the members' entries and returns,
// per file whose entry it returned, whether the file's predicate may match
// by the entry's statistics.
func (ix *Index) verdicts(q Query, nnf, lookup sarg.Expr, used []int, files map[string]int, members map[int]bool) (map[int]bool, error) {
	blooms := ix.bloomLeafColumns(nnf)
	cols := []string{"path", "rows"}
	for _, i := range used {
		cols = append(cols, ix.statColumns(i)...)
		if isText(ix.types[i].Kind) {
			cols = append(cols, fmt.Sprintf("c%d_lower", i), fmt.Sprintf("c%d_upper", i))
		}
		if slices.Contains(blooms, i) {
			cols = append(cols, fmt.Sprintf("c%d_bloom", i))
		}
	}
	bound := map[string]*sarg.Bound{}
	needed := map[int]bool{}
	err := ix.scanIndex(cols, lookup, func(b *orc.Batch, row int) {
		p := b.Cols[0].(*orc.BytesVector)
		if p.IsNull(row) {
			return
		}
		fi, ok := files[string(p.Get(row))]
		if !ok || !members[fi] {
			return
		}
		where := q.Files[fi].Where
		key := where.String()
		bd, ok := bound[key]
		if !ok {
			var err error
			if bd, err = sarg.Bind(where, ix.read); err != nil {
				bd = nil
			}
			bound[key] = bd
		}
		needed[fi] = bd == nil || bd.Evaluate(ix.entrySource(b, row, used)).IsNeeded()
	})
	return needed, err
}

// statColumns returns the index's columns of the counts and bounds of
// header column i: values, nulls, then min and max, or a geometry
// column's box.
func (ix *Index) statColumns(i int) []string {
	cols := []string{fmt.Sprintf("c%d_values", i), fmt.Sprintf("c%d_nulls", i)}
	if ix.types[i].Kind == orc.Geometry {
		for _, b := range geoBoxCols {
			cols = append(cols, fmt.Sprintf("c%d_%s", i, b))
		}
		return cols
	}
	return append(cols, fmt.Sprintf("c%d_min", i), fmt.Sprintf("c%d_max", i))
}

// entrySource returns the statistics and bloom filters an index row gives
// the predicate's columns.
func (ix *Index) entrySource(b *orc.Batch, row int, used []int) sarg.MapSource {
	src := sarg.MapSource{Columns: map[int]*stats.Column{}}
	for _, i := range used {
		rc := ix.cols[i]
		st := entryStats(b, row, i, ix.types[i], rc.Kind)
		if st == nil {
			continue
		}
		src.Columns[rc.ID()] = st
		if bv, ok := b.Col(fmt.Sprintf("c%d_bloom", i)).(*orc.BytesVector); ok && !bv.IsNull(row) {
			if bf := decodeBloom(bv.Get(row)); bf != nil {
				if src.Blooms == nil {
					src.Blooms = map[int]sarg.BloomFilter{}
				}
				src.Blooms[rc.ID()] = bf
			}
		}
	}
	return src
}

// entryProblem says why an index row's statistics of indexed column i
// cannot be a footer's, or returns "": a negative count, a NaN bound, a
// minimum above the maximum, timestamp nanoseconds out of range, a
// geometry box with a bound that is not finite, y inverted or some bounds
// NULL and others not (geo.go). These are
// the conditions under which the reader ignores footer statistics (spec.md
// 5.7); the index writer stores NULL for such bounds, so only a damaged or
// forged index holds them.
func entryProblem(b *orc.Batch, row, i int) string {
	col := func(suffix string) orc.Vector { return b.Col(fmt.Sprintf("c%d_%s", i, suffix)) }
	if v, ok := col("values").(*orc.LongVector); ok && !v.IsNull(row) && v.Values[row] < 0 {
		return fmt.Sprintf("value count %d", v.Values[row])
	}
	if v, ok := col("nulls").(*orc.LongVector); ok && !v.IsNull(row) && v.Values[row] < 0 {
		return fmt.Sprintf("null count %d", v.Values[row])
	}
	if why := boxProblem(b, row, i); why != "" {
		return why
	}
	lo, hi := col("min"), col("max")
	if lo == nil || hi == nil {
		return ""
	}
	inverted := func(a, z any) string { return fmt.Sprintf("minimum %v above maximum %v", a, z) }
	switch x := lo.(type) {
	case *orc.LongVector:
		y := hi.(*orc.LongVector)
		if !x.IsNull(row) && !y.IsNull(row) && x.Values[row] > y.Values[row] {
			return inverted(x.Values[row], y.Values[row])
		}
	case *orc.DoubleVector:
		y := hi.(*orc.DoubleVector)
		for _, v := range []*orc.DoubleVector{x, y} {
			if !v.IsNull(row) && math.IsNaN(v.Values[row]) {
				return "a NaN bound"
			}
		}
		if !x.IsNull(row) && !y.IsNull(row) && x.Values[row] > y.Values[row] {
			return inverted(x.Values[row], y.Values[row])
		}
	case *orc.BytesVector:
		y := hi.(*orc.BytesVector)
		// Truncated bounds too: a lower bound is at most the minimum,
		// an upper bound at least the maximum.
		if !x.IsNull(row) && !y.IsNull(row) && bytes.Compare(x.Get(row), y.Get(row)) > 0 {
			return inverted(strconv.QuoteToASCII(trimFor(x.String(row))), strconv.QuoteToASCII(trimFor(y.String(row))))
		}
	case *orc.DecimalVector:
		y := hi.(*orc.DecimalVector)
		if !x.IsNull(row) && !y.IsNull(row) && x.Values[row].Cmp(y.Values[row]) > 0 {
			return inverted(orc.FormatDecimal(x.Values[row], x.Scale), orc.FormatDecimal(y.Values[row], y.Scale))
		}
	case *orc.TimestampVector:
		y := hi.(*orc.TimestampVector)
		for _, v := range []*orc.TimestampVector{x, y} {
			if !v.IsNull(row) && (v.Nanos[row] < 0 || v.Nanos[row] > 999_999_999) {
				return fmt.Sprintf("a bound with %d nanoseconds", v.Nanos[row])
			}
		}
		if !x.IsNull(row) && !y.IsNull(row) && (x.Seconds[row] > y.Seconds[row] ||
			x.Seconds[row] == y.Seconds[row] && x.Nanos[row] > y.Nanos[row]) {
			return "minimum timestamp above maximum"
		}
	}
	return ""
}

// trimFor shortens a text bound for a message.
func trimFor(s string) string {
	if len(s) > 32 {
		return s[:32] + "..."
	}
	return s
}

// entryStats rebuilds the statistics of indexed column i from an index
// row, as the file's footer gave them; nil when unknown. kind is the read
// schema's kind of the column.
func entryStats(b *orc.Batch, row, i int, t *orc.Schema, kind orc.Kind) *stats.Column {
	col := func(suffix string) orc.Vector { return b.Col(fmt.Sprintf("c%d_%s", i, suffix)) }
	vals, _ := col("values").(*orc.LongVector)
	nulls, _ := col("nulls").(*orc.LongVector)
	if vals == nil || nulls == nil || vals.IsNull(row) || vals.Values[row] < 0 {
		return nil
	}
	st := &stats.Column{Kind: kind, NumValues: uint64(vals.Values[row])}
	if !nulls.IsNull(row) {
		st.HasNullKnown = true
		st.HasNull = nulls.Values[row] > 0
	}
	if t.Kind == orc.Geometry {
		return geoEntryStats(b, row, i, st)
	}
	lo, hi := col("min"), col("max")
	if lo == nil || hi == nil {
		return nil
	}
	both := !orcNull(lo, row) && !orcNull(hi, row)
	switch t.Kind {
	case orc.Boolean:
		if both {
			mn, mx := lo.(*orc.LongVector).Values[row] != 0, hi.(*orc.LongVector).Values[row] != 0
			switch {
			case mn && !mx:
				return st // inconsistent: no range
			case mn:
				st.Bool = &stats.BoolStats{TrueCount: st.NumValues}
			case !mx:
				st.Bool = &stats.BoolStats{TrueCount: 0}
			case st.NumValues >= 2:
				st.Bool = &stats.BoolStats{TrueCount: 1}
			}
		}
	case orc.Byte, orc.Short, orc.Int, orc.Long:
		if both {
			st.Int = &stats.IntStats{Min: lo.(*orc.LongVector).Values[row], Max: hi.(*orc.LongVector).Values[row], HasMinMax: true}
		}
	case orc.Date:
		if both {
			a, z := lo.(*orc.LongVector).Values[row], hi.(*orc.LongVector).Values[row]
			if a == int64(int32(a)) && z == int64(int32(z)) {
				st.Date = &stats.DateStats{Min: int32(a), Max: int32(z), HasMinMax: true}
			}
		}
	case orc.Float, orc.Double:
		if both {
			st.Double = &stats.DoubleStats{Min: lo.(*orc.DoubleVector).Values[row], Max: hi.(*orc.DoubleVector).Values[row], HasMinMax: true}
		}
	case orc.Decimal:
		if both {
			lv, hv := lo.(*orc.DecimalVector), hi.(*orc.DecimalVector)
			st.Decimal = &stats.DecimalStats{Min: decimalValue{Unscaled: lv.Values[row], Scale: lv.Scale},
				Max: decimalValue{Unscaled: hv.Values[row], Scale: hv.Scale}, HasMinMax: true}
		}
	case orc.Timestamp, orc.TimestampInstant:
		if both {
			lv, hv := lo.(*orc.TimestampVector), hi.(*orc.TimestampVector)
			st.Timestamp = &stats.TimestampStats{MinSec: lv.Seconds[row], MinNanos: lv.Nanos[row],
				MaxSec: hv.Seconds[row], MaxNanos: hv.Nanos[row], HasMinMax: true}
		}
	case orc.String, orc.Varchar, orc.Char:
		ss := &stats.StringStats{}
		lb, _ := col("lower").(*orc.LongVector)
		ub, _ := col("upper").(*orc.LongVector)
		if lb == nil || ub == nil {
			return nil
		}
		if !orcNull(lo, row) {
			ss.Min, ss.HasMin = lo.(*orc.BytesVector).String(row), true
			ss.MinIsLowerBound = !lb.IsNull(row) && lb.Values[row] != 0
		}
		if !orcNull(hi, row) {
			ss.Max, ss.HasMax = hi.(*orc.BytesVector).String(row), true
			ss.MaxIsUpperBound = !ub.IsNull(row) && ub.Values[row] != 0
		}
		st.String = ss
	}
	return st
}

// orcNull reports whether row i of a vector is NULL.
func orcNull(v orc.Vector, i int) bool {
	switch x := v.(type) {
	case *orc.LongVector:
		return x.IsNull(i)
	case *orc.DoubleVector:
		return x.IsNull(i)
	case *orc.BytesVector:
		return x.IsNull(i)
	case *orc.DecimalVector:
		return x.IsNull(i)
	case *orc.TimestampVector:
		return x.IsNull(i)
	}
	return true
}

// ReadInfo reads the header of an index file (see FileName).
func ReadInfo(r io.ReaderAt, size int64) (Info, error) {
	ir, err := reader.Open(r, size)
	if err != nil {
		return Info{}, err
	}
	var h indexHeader
	found := false
	for _, m := range ir.UserMetadata() {
		if m.Key == MetadataKey {
			if err := json.Unmarshal(m.Value, &h); err != nil {
				return Info{}, fmt.Errorf("dataset: bad index header: %v", err)
			}
			found = true
		}
	}
	if !found {
		return Info{}, fmt.Errorf("dataset: not an orcgo dataset index (no %s metadata)", MetadataKey)
	}
	if h.Layout < 1 || h.Layout > indexLayout {
		return Info{}, fmt.Errorf("dataset: index layout version %d, this orcgo reads 1 to %d", h.Layout, indexLayout)
	}
	info := Info{Files: int(ir.NumRows()), Partitions: h.Partitions, Schema: h.Schema, Bytes: size}
	for _, c := range h.Columns {
		col := c.Name + " " + c.Type
		if c.Bloom {
			col += fmt.Sprintf(" (bloom filter, fpp %g)", h.BloomFPP)
		}
		info.Columns = append(info.Columns, col)
	}
	return info, nil
}
