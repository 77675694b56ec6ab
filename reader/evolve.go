package reader

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/sarg"
)

// Schema evolution (WithReadSchema). A scan with a read schema runs an
// inner scan of the file's own columns and converts each batch:
//
//   - the read schema is matched to the file's (mapType), giving a tree of
//     conversions, one per read column;
//   - the columns the caller asked for (and the predicate's) become file
//     column paths for the inner scan; columns the file lacks read as nulls;
//   - the predicate is translated to the file's columns (translate) where
//     that keeps its meaning exactly: same types, integer and decimal
//     widening, integers as decimals, and columns the file lacks, whose
//     leaves are constants (all their values are NULL). Any other leaf
//     becomes TRUE in the predicate's negation normal form, which can only
//     keep more rows: the inner scan's pruning stays sound, and the exact
//     filter, if asked for, then runs on the converted batch;
//   - conversions whose vectors agree (integer widening, float to double,
//     strings to string) cost nothing: the inner scan decodes straight
//     into the caller's vector.

// ErrSchemaMismatch is returned (wrapped, with the column and both types)
// when a read schema asks for a column in a type the file's column cannot
// be converted to.
var ErrSchemaMismatch = errors.New("orc: read schema does not match the file")

// WithReadSchema makes the scan return batches of schema s, a struct,
// whatever schema the file was written with: the schema evolution of Hive
// and Apache ORC. Columns are matched by name (exact, else a unique
// case-insensitive match), or by position with WithPositionalMatch and for
// files whose columns are named _col0, _col1, ... as old Hive writers named
// them. A column the file lacks reads as nulls. A column of another type
// is converted when the conversion widens:
//
//	tinyint -> smallint -> int -> bigint, and any of them -> float, double
//	or decimal(p,s) with p-s digits enough for the type
//	float -> double
//	decimal(p,s) -> decimal(p',s') with s' >= s and p'-s' >= p-s
//	string, varchar(n), char(n) -> one another (varchar truncates and char
//	pads or truncates to the read length, in characters)
//	date -> timestamp (midnight)
//
// Anything else is an error wrapping ErrSchemaMismatch that names the
// column and both types. WithColumns and WithSearchArgument name columns of
// s. Pruning stays sound: a predicate leaf on a converted column is
// evaluated on the file's statistics only where the conversion keeps the
// comparison's answer (see spec.md 7.14).
func WithReadSchema(s *orc.Schema) ScanOption {
	return func(c *scanConfig) error {
		if s == nil {
			c.readSchema = nil
			return nil
		}
		if s.Kind != orc.Struct {
			return fmt.Errorf("orc: WithReadSchema(%s): must be a struct", s)
		}
		if err := s.Validate(); err != nil {
			return fmt.Errorf("orc: WithReadSchema: %w", err)
		}
		c.readSchema = s.Copy()
		c.readSchema.Assign()
		return nil
	}
}

// WithPositionalMatch makes WithReadSchema match the top-level columns by
// position instead of by name, as Hive does for files written before it
// kept column names. Default off (by name).
func WithPositionalMatch(on bool) ScanOption {
	return func(c *scanConfig) error {
		c.byPosition = on
		return nil
	}
}

// convKind is how a read column is made from a file column.
type convKind uint8

const (
	cvSame            convKind = iota // the vectors agree: decoded in place
	cvMissing                         // the file has no such column: nulls
	cvLongToDouble                    // integer -> float or double
	cvLongToDecimal                   // integer -> decimal
	cvDecimal                         // decimal -> decimal of a larger scale
	cvBytes                           // string family -> varchar(n) or char(n)
	cvDateToTimestamp                 // date -> timestamp
	cvStruct                          // fields converted one by one
	cvList                            // list, map, union: children converted
	cvMap
	cvUnion
)

// evoNode is the conversion of one read column.
type evoNode struct {
	kind convKind
	read *orc.Schema // the read column (in the full read schema)
	file *orc.Schema // the file column, nil for cvMissing
	kids []*evoNode  // struct: per read field; list, map, union: per child
	// inner, for a struct: per read field, the index of its file field in
	// the inner scan's struct (whose fields are in file order), or -1.
	inner []int
}

// intRank orders the integer kinds by width; digits is how many decimal
// digits their values can have.
func intRank(k orc.Kind) (rank, digits int) {
	switch k {
	case orc.Byte:
		return 1, 3
	case orc.Short:
		return 2, 5
	case orc.Int:
		return 3, 10
	case orc.Long:
		return 4, 19
	}
	return 0, 0
}

func isStringKind(k orc.Kind) bool { return k == orc.String || k == orc.Varchar || k == orc.Char }

// mapType matches read column read with file column file (path names it in
// messages) and returns the conversion tree.
func mapType(read, file *orc.Schema, path string, byPos bool) (*evoNode, error) {
	n := &evoNode{read: read, file: file}
	mismatch := func() error {
		return fmt.Errorf("%w: column %s is %s in the file and cannot be read as %s", ErrSchemaMismatch, path, file, read)
	}
	if read.Kind != file.Kind {
		kind, ok := scalarConversion(read, file)
		if !ok {
			return nil, mismatch()
		}
		n.kind = kind
		return n, nil
	}
	switch read.Kind {
	case orc.Struct:
		return n, mapStruct(n, path, byPos)
	case orc.List, orc.Map, orc.Union:
		if len(read.Children) != len(file.Children) {
			return nil, mismatch()
		}
		return n, mapContainer(n, path)
	case orc.Decimal:
		switch {
		case read.Precision == file.Precision && read.Scale == file.Scale:
			n.kind = cvSame
		case file.Precision > 0 && read.Scale >= file.Scale && read.Precision-read.Scale >= file.Precision-file.Scale:
			n.kind = cvDecimal
		default:
			return nil, mismatch()
		}
	case orc.Char, orc.Varchar:
		n.kind = cvBytes
		if read.MaxLength == file.MaxLength {
			n.kind = cvSame
		}
	default:
		n.kind = cvSame
	}
	return n, nil
}

// childPath names field name of the column at path in messages.
func childPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// mapStruct matches the fields of struct n.read with those of n.file, by
// name or (byPos, or a file with Hive's _colN names) by position; a
// field the file lacks reads as nulls.
func mapStruct(n *evoNode, path string, byPos bool) error {
	read, file := n.read, n.file
	n.kind = cvStruct
	pos := byPos || hiveColumnNames(file)
	same := len(read.Children) == len(file.Children)
	taken := map[*orc.Schema]string{}
	fields := fieldFinder{s: file}
	for i, rc := range read.Children {
		name := read.FieldNames[i]
		var fc *orc.Schema
		if pos {
			if i < len(file.Children) {
				fc = file.Children[i]
			}
		} else {
			fc = fields.find(name)
		}
		if fc == nil {
			n.kids = append(n.kids, missingTree(rc))
			same = false
			continue
		}
		if other, dup := taken[fc]; dup {
			return fmt.Errorf("%w: read columns %s and %s both match the file's column %s",
				ErrSchemaMismatch, childPath(path, sarg.Col(other)), childPath(path, sarg.Col(name)), childPath(path, sarg.Col(fileFieldName(file, fc))))
		}
		taken[fc] = name
		k, err := mapType(rc, fc, childPath(path, sarg.Col(name)), false)
		if err != nil {
			return err
		}
		n.kids = append(n.kids, k)
		same = same && k.kind == cvSame && fc == file.Children[i] && file.FieldNames[i] == name
	}
	if same {
		n.kind = cvSame
	}
	return nil
}

// mapContainer matches the children of a list, map or union, which have
// as many children in the read schema as in the file's.
func mapContainer(n *evoNode, path string) error {
	read, file := n.read, n.file
	n.kind = map[orc.Kind]convKind{orc.List: cvList, orc.Map: cvMap, orc.Union: cvUnion}[read.Kind]
	same := true
	names := map[orc.Kind][]string{orc.List: {"_elem"}, orc.Map: {"_key", "_value"}}[read.Kind]
	for i := range read.Children {
		name := fmt.Sprintf("_%d", i)
		if names != nil {
			name = names[i]
		}
		k, err := mapType(read.Children[i], file.Children[i], childPath(path, name), false)
		if err != nil {
			return err
		}
		n.kids = append(n.kids, k)
		same = same && k.kind == cvSame
	}
	if same {
		n.kind = cvSame
	}
	return nil
}

// scalarConversion returns how a file column of one kind is read as a read
// column of another: widened integers, integers as floating point or
// decimal, float as double, strings among the string kinds, dates as
// timestamps; false for anything else.
func scalarConversion(read, file *orc.Schema) (convKind, bool) {
	fr, fd := intRank(file.Kind)
	rr, _ := intRank(read.Kind)
	switch {
	case fr > 0 && rr >= fr:
		return cvSame, true // both are LongVectors of the same values
	case fr > 0 && (read.Kind == orc.Double || read.Kind == orc.Float):
		return cvLongToDouble, true
	case fr > 0 && read.Kind == orc.Decimal && read.Precision-read.Scale >= fd:
		return cvLongToDecimal, true
	case file.Kind == orc.Float && read.Kind == orc.Double:
		return cvSame, true // float columns decode to the doubles of their values
	case isStringKind(file.Kind) && read.Kind == orc.String:
		return cvSame, true
	case isStringKind(file.Kind) && isStringKind(read.Kind):
		return cvBytes, true
	case file.Kind == orc.Date && read.Kind == orc.Timestamp:
		return cvDateToTimestamp, true
	}
	return 0, false
}

// missingTree is the conversion of a read column the file lacks, with its
// subtree.
func missingTree(read *orc.Schema) *evoNode {
	n := &evoNode{kind: cvMissing, read: read}
	for _, c := range read.Children {
		n.kids = append(n.kids, missingTree(c))
	}
	return n
}

// hiveColumnNames reports whether a struct's fields are all named _colN, the
// names old Hive writers gave: such files are matched by position.
func hiveColumnNames(s *orc.Schema) bool {
	if len(s.FieldNames) == 0 {
		return false
	}
	for i, name := range s.FieldNames {
		if name != fmt.Sprintf("_col%d", i) {
			return false
		}
	}
	return true
}

// fieldByName finds a struct field by exact name, else by a unique
// case-insensitive match.
func fieldByName(s *orc.Schema, name string) *orc.Schema {
	for i, n := range s.FieldNames {
		if n == name && i < len(s.Children) {
			return s.Children[i]
		}
	}
	return foldedField(s, name)
}

// foldedField finds the one field of struct s whose name equals name
// ignoring case, or nil (none, or several).
func foldedField(s *orc.Schema, name string) *orc.Schema {
	var fold *orc.Schema
	folds := 0
	for i, n := range s.FieldNames {
		if strings.EqualFold(n, name) && i < len(s.Children) {
			fold = s.Children[i]
			folds++
		}
	}
	if folds == 1 {
		return fold
	}
	return nil
}

// fieldFinder finds the fields of a struct as fieldByName does, an exact
// name of a wide struct in constant time (a map of its names, made at the
// first lookup), so that a read schema of 100,000 fields is matched in
// one pass over them, not a search of the file's fields for each.
type fieldFinder struct {
	s     *orc.Schema
	exact map[string]int // each name's first index
}

func (f *fieldFinder) find(name string) *orc.Schema {
	if len(f.s.FieldNames) <= 16 {
		return fieldByName(f.s, name)
	}
	if f.exact == nil {
		f.exact = make(map[string]int, len(f.s.FieldNames))
		for i, n := range f.s.FieldNames {
			if _, ok := f.exact[n]; !ok && i < len(f.s.Children) {
				f.exact[n] = i
			}
		}
	}
	if i, ok := f.exact[name]; ok {
		return f.s.Children[i]
	}
	return foldedField(f.s, name)
}

// evolution is the state of a scan with a read schema.
type evolution struct {
	inner   *BatchReader
	read    *orc.Schema      // the full read schema
	byRead  map[int]*evoNode // read column id -> conversion
	out     *orc.Schema      // the batches' schema: the read schema, projected
	top     *evoNode         // conversion of the root (out's fields only)
	batches map[*orc.Batch]*orc.Batch
	order   []*orc.Batch // batches in the order they were first seen

	// The exact filter, when the inner scan cannot apply it.
	bound   *sarg.Bound
	matcher *sarg.Matcher
	paths   map[int][]int
	vecs    sarg.ColumnVectors
	matches []bool
	idx     []int32
	rows    int64 // rows returned
	dropped int64 // rows the filter removed here
}

// newEvolved starts a scan of the file through read schema cfg.readSchema.
func (r *Reader) newEvolved(cfg scanConfig) (scanner, *orc.Schema, error) {
	read := cfg.readSchema
	if !cfg.byPosition && read.String() == r.tail.Schema.String() {
		// The file has the read schema: a plain scan, with nothing to
		// convert (most files of a dataset).
		cfg.readSchema = nil
		return r.newScan(cfg)
	}
	ev, err := r.newEvolution(cfg)
	if err != nil {
		return nil, nil, err
	}
	return ev, ev.out, nil
}

// newEvolution makes the conversion of the file's columns to cfg's read
// schema, over a scan of those columns.
func (r *Reader) newEvolution(cfg scanConfig) (*evolution, error) {
	ev, sel, err := r.newEvolutionScan(cfg)
	if err != nil {
		return nil, err
	}
	if ev.matcher != nil {
		ev.paths = map[int][]int{}
		ev.vecs = sarg.ColumnVectors{}
		for _, col := range ev.bound.Columns() {
			ev.paths[col] = pathIn(cfg.readSchema, sel, col)
		}
	}
	return ev, nil
}

// fileColumns appends to files the names of the file columns behind read
// node n (at path in the file) and its selected fields.
func (ev *evolution) fileColumns(n *evoNode, path, files []string) []string {
	if n.kind == cvMissing {
		return files
	}
	if n.read.Kind != orc.Struct || n != ev.top && !anyMapped(n) {
		return append(files, sarg.Col(path...))
	}
	for _, k := range n.kids { // projected: every field is selected
		if k.kind != cvMissing {
			files = ev.fileColumns(k, append(path[:len(path):len(path)], fileFieldName(n.file, k.file)), files)
		}
	}
	return files
}

// newEvolutionScan maps the read schema onto the file's and starts the
// inner scan of the file columns behind the selected read columns, which
// it returns with the evolution (by read column id).
func (r *Reader) newEvolutionScan(cfg scanConfig) (*evolution, []bool, error) {
	read := cfg.readSchema
	root, err := mapType(read, r.tail.Schema, "", cfg.byPosition)
	if err != nil {
		return nil, nil, err
	}
	ev := &evolution{read: read, byRead: map[int]*evoNode{}, batches: map[*orc.Batch]*orc.Batch{}}
	var index func(n *evoNode)
	index = func(n *evoNode) {
		ev.byRead[n.read.ID()] = n
		for _, k := range n.kids {
			index(k)
		}
	}
	index(root)

	// The read columns the batches hold.
	sel := make([]bool, read.MaxID()+1)
	sel[0] = true
	if cfg.allCols {
		for i := range sel {
			sel[i] = true
		}
	}
	for _, name := range cfg.columns {
		node := read.Find(name)
		if node == nil {
			return nil, nil, fmt.Errorf("orc: no column %q in the read schema %s", name, read)
		}
		markWithAncestors(read, node.ID(), sel)
	}
	var where *sarg.Expr
	exact := true
	if cfg.where != nil {
		b, err := sarg.Bind(*cfg.where, read)
		if err != nil {
			return nil, nil, err
		}
		for _, col := range b.Columns() {
			markWithAncestors(read, col, sel)
		}
		t, ok := ev.translate(sarg.Normalize(*cfg.where), r)
		exact = ok
		where = &t
		if cfg.filter.exact() && !exact {
			ev.bound = b
			ev.matcher = b.NewMatcher()
		}
	}
	ev.out, ev.top = projectEvo(root, sel)
	ev.out.Assign()

	// The inner scan: the file columns behind the selected read columns.
	files := ev.fileColumns(ev.top, nil, nil)
	icfg := cfg
	icfg.readSchema, icfg.byPosition = nil, false
	icfg.columns, icfg.allCols = files, false
	icfg.where = where
	icfg.filter = 0 // the rows are converted and compacted here
	if cfg.filter.exact() && exact && where != nil {
		icfg.filter = filterExact
	}
	inner, innerSchema, err := r.newScan(icfg)
	if err != nil {
		return nil, nil, err
	}
	ev.inner = &BatchReader{scan: inner, schema: innerSchema, batchSize: icfg.batchSize, ctx: icfg.ctx}
	return ev, sel, nil
}

// anyMapped reports whether some field below a struct conversion has a file
// column.
func anyMapped(n *evoNode) bool {
	for _, k := range n.kids {
		if k.kind != cvMissing {
			return true
		}
	}
	return false
}

// fileFieldName returns the name of field fc of file struct f.
func fileFieldName(f, fc *orc.Schema) string {
	for i, c := range f.Children {
		if c == fc {
			return f.FieldNames[i]
		}
	}
	return ""
}

// pathIn returns the field path of read column col in the batches, whose
// struct levels keep the selected fields only.
func pathIn(read *orc.Schema, sel []bool, col int) []int {
	var path []int
	n := read
	for n.ID() != col {
		j := 0
		var next *orc.Schema
		for _, c := range n.Children {
			if !sel[c.ID()] {
				continue
			}
			if col >= c.ID() && col <= c.MaxID() {
				next = c
				break
			}
			j++
		}
		if next == nil {
			return nil
		}
		path = append(path, j)
		n = next
	}
	return path
}

// projectEvo cuts a conversion tree to the selected read columns (struct
// fields only: lists, maps and unions keep their children), returning the
// projected read schema and the conversion of its root.
func projectEvo(n *evoNode, sel []bool) (*orc.Schema, *evoNode) {
	r := n.read
	proj := &orc.Schema{Kind: r.Kind, Precision: r.Precision, Scale: r.Scale, MaxLength: r.MaxLength, Attributes: r.Attributes}
	pn := &evoNode{kind: n.kind, read: proj, file: n.file}
	for i, k := range n.kids {
		if r.Kind == orc.Struct && !sel[k.read.ID()] {
			continue
		}
		cs, ck := projectEvo(k, sel)
		proj.Children = append(proj.Children, cs)
		if r.Kind == orc.Struct {
			proj.FieldNames = append(proj.FieldNames, r.FieldNames[i])
		}
		pn.kids = append(pn.kids, ck)
	}
	if r.Kind == orc.Struct && n.kind == cvSame && len(pn.kids) != len(n.kids) {
		pn.kind = cvStruct // a projection of the struct: the fields map one by one
	}
	if r.Kind == orc.Struct {
		pn.inner = innerOrder(pn)
	}
	return proj, pn
}

// innerOrder returns, per field of a struct conversion, the index of its
// file field among the mapped fields in file order (the inner scan's
// order), or -1 for a missing field.
func innerOrder(n *evoNode) []int {
	pos := func(fc *orc.Schema) int {
		for j, c := range n.file.Children {
			if c == fc {
				return j
			}
		}
		return -1
	}
	order := make([]int, len(n.kids))
	for i, k := range n.kids {
		order[i] = -1
		if k.kind == cvMissing || n.file == nil {
			continue
		}
		rank, at := 0, pos(k.file)
		for _, m := range n.kids {
			if m.kind != cvMissing && pos(m.file) < at {
				rank++
			}
		}
		order[i] = rank
	}
	return order
}

// translate rewrites a predicate in negation normal form on read columns to
// one on the file's columns; exact reports that it has the same value on
// every row, rather than being TRUE on more rows.
func (ev *evolution) translate(e sarg.Expr, r *Reader) (sarg.Expr, bool) {
	switch e.Op {
	case sarg.OpAnd, sarg.OpOr:
		kids := make([]sarg.Expr, len(e.Children))
		exact := true
		for i, c := range e.Children {
			var ok bool
			kids[i], ok = ev.translate(c, r)
			exact = exact && ok
		}
		if e.Op == sarg.OpAnd {
			return sarg.And(kids...), exact
		}
		return sarg.Or(kids...), exact
	case sarg.OpNot:
		t, ok := ev.translate(e.Children[0], r)
		if !ok {
			return sarg.True(), false
		}
		return sarg.Not(t), true
	case sarg.OpLeaf:
		return ev.translateLeaf(e.Leaf, r)
	}
	return e, true
}

// translateLeaf rewrites one leaf (see translate).
func (ev *evolution) translateLeaf(l *sarg.Leaf, r *Reader) (sarg.Expr, bool) {
	if l.Other != "" || l.Func != nil {
		// A comparison of two columns, or a function of a column: left to
		// the exact filter on the converted batch.
		return sarg.True(), false
	}
	n := ev.byRead[ev.read.Find(l.Column).ID()] // Bind checked the name
	if n.kind == cvMissing {
		// Every value is NULL.
		switch {
		case l.Op == sarg.LeafIsNull:
			return sarg.True(), true
		case l.Op == sarg.LeafNullSafeEquals:
			if l.Literals[0].IsNull() {
				return sarg.True(), true
			}
			return sarg.False(), true
		}
		return sarg.NullExpr(), true
	}
	exactKind := false
	switch n.kind {
	case cvSame:
		fk, rk := n.file.Kind, n.read.Kind
		// Not char -> string: a char literal is padded, a string one not.
		fr, _ := intRank(fk)
		exactKind = fk == rk || fr > 0 || (fk == orc.Float && rk == orc.Double) ||
			(rk == orc.String && fk == orc.Varchar)
	case cvDecimal, cvLongToDecimal:
		exactKind = true
	}
	if !exactKind {
		return sarg.True(), false
	}
	fl := *l
	fl.Column = filePath(r.tail.Schema, n.file)
	e := sarg.Expr{Op: sarg.OpLeaf, Leaf: &fl}
	if _, err := sarg.Bind(e, r.tail.Schema); err != nil {
		return sarg.True(), false
	}
	return e, true
}

// filePath returns the dotted path of file column c.
func filePath(root, c *orc.Schema) string {
	var names []string
	n := root
	for n != c {
		var next *orc.Schema
		for i, k := range n.Children {
			if c.ID() >= k.ID() && c.ID() <= k.MaxID() {
				next = k
				names = append(names, n.FieldNames[i])
				break
			}
		}
		if next == nil {
			return ""
		}
		n = next
	}
	return sarg.Col(names...)
}

// next fills b, a batch of the read schema.
func (ev *evolution) next(b *orc.Batch) error {
	ib := ev.innerBatch(b)
	for {
		if err := ev.inner.Next(ib); err != nil {
			return err
		}
		n := ib.NumRows
		b.NumRows = n
		for i, k := range ev.top.kids {
			var in orc.Vector
			if j := ev.top.inner[i]; j >= 0 {
				in = ib.Cols[j]
			}
			b.Cols[i] = convert(k, b.Cols[i], in, n)
		}
		if ev.matcher == nil {
			ev.rows += int64(n)
			return nil
		}
		for col, path := range ev.paths {
			v := b.Cols[path[0]]
			for _, p := range path[1:] {
				v = v.(*orc.StructVector).Fields[p]
			}
			ev.vecs[col] = v
		}
		var err error
		ev.matches, err = ev.matcher.Match(ev.vecs, n, ev.matches[:0])
		if err != nil {
			return err
		}
		kept := countTrue(ev.matches[:n])
		ev.dropped += int64(n - kept)
		if kept == 0 {
			continue
		}
		if kept < n {
			ev.idx = selection(ev.matches[:n], ev.idx[:0])
			for _, c := range b.Cols {
				orc.Compact(c, ev.idx)
			}
			b.NumRows = kept
		}
		ev.rows += int64(kept)
		return nil
	}
}

// innerBatch returns the inner scan's batch that goes with caller batch b:
// its vectors are b's where the conversion is cvSame, so those columns
// decode in place, and private ones elsewhere. The inner batch's fields
// are the file's, in file order (evoNode.inner maps them).
func (ev *evolution) innerBatch(b *orc.Batch) *orc.Batch {
	if ib, ok := ev.batches[b]; ok {
		// The caller may have swapped b's vectors since (a parallel scan
		// hands its workers' vectors over): point the shared slots at
		// b's vectors again.
		for i, k := range ev.top.kids {
			if j := ev.top.inner[i]; j >= 0 {
				ib.Cols[j] = relink(k, b.Cols[i], ib.Cols[j])
			}
		}
		return ib
	}
	is := ev.inner.Schema()
	ib := &orc.Batch{Schema: is, Cols: make([]orc.Vector, len(is.Children))}
	for i, k := range ev.top.kids {
		if j := ev.top.inner[i]; j >= 0 {
			ib.Cols[j] = innerVector(k, b.Cols[i], is.Children[j], ev.inner.batchSize)
		}
	}
	for j, c := range ib.Cols {
		if c == nil { // a file column no read column asked for
			ib.Cols[j] = orc.NewVector(is.Children[j], ev.inner.batchSize)
		}
	}
	if len(ev.order) >= 8 { // a caller cycling through many batches
		delete(ev.batches, ev.order[0])
		ev.order = ev.order[1:]
	}
	ev.batches[b] = ib
	ev.order = append(ev.order, b)
	return ib
}

// innerVector returns the vector the inner scan fills for conversion n,
// whose result goes to out.
func innerVector(n *evoNode, out orc.Vector, t *orc.Schema, capacity int) orc.Vector {
	switch n.kind {
	case cvSame:
		return out
	case cvStruct:
		sv := &orc.StructVector{Fields: make([]orc.Vector, len(t.Children))}
		o := out.(*orc.StructVector)
		for i, k := range n.kids {
			if j := n.inner[i]; j >= 0 {
				sv.Fields[j] = innerVector(k, o.Fields[i], t.Children[j], capacity)
			}
		}
		for j, f := range sv.Fields {
			if f == nil {
				sv.Fields[j] = orc.NewVector(t.Children[j], capacity)
			}
		}
		return sv
	case cvList:
		return &orc.ListVector{Elem: innerVector(n.kids[0], out.(*orc.ListVector).Elem, t.Children[0], capacity)}
	case cvMap:
		o := out.(*orc.MapVector)
		return &orc.MapVector{Keys: innerVector(n.kids[0], o.Keys, t.Children[0], capacity),
			Values: innerVector(n.kids[1], o.Values, t.Children[1], capacity)}
	case cvUnion:
		o := out.(*orc.UnionVector)
		uv := &orc.UnionVector{}
		for i, k := range n.kids {
			uv.Children = append(uv.Children, innerVector(k, o.Children[i], t.Children[i], capacity))
		}
		return uv
	}
	return orc.NewVector(t, capacity)
}

// relink points the shared slots of in, the inner vector for conversion n,
// at out's vectors, and returns what the inner slot holds.
func relink(n *evoNode, out, in orc.Vector) orc.Vector {
	switch n.kind {
	case cvSame:
		return out
	case cvStruct:
		sv, o := in.(*orc.StructVector), out.(*orc.StructVector)
		for i, k := range n.kids {
			if j := n.inner[i]; j >= 0 {
				sv.Fields[j] = relink(k, o.Fields[i], sv.Fields[j])
			}
		}
	case cvList:
		lv := in.(*orc.ListVector)
		lv.Elem = relink(n.kids[0], out.(*orc.ListVector).Elem, lv.Elem)
	case cvMap:
		mv, o := in.(*orc.MapVector), out.(*orc.MapVector)
		mv.Keys = relink(n.kids[0], o.Keys, mv.Keys)
		mv.Values = relink(n.kids[1], o.Values, mv.Values)
	case cvUnion:
		uv, o := in.(*orc.UnionVector), out.(*orc.UnionVector)
		for i, k := range n.kids {
			uv.Children[i] = relink(k, o.Children[i], uv.Children[i])
		}
	}
	return in
}

// convert fills out, a vector of n.read's type, from in (the inner scan's
// vector, nil for a missing column) with rows rows, and returns the vector
// the caller's batch holds from now on: in itself where the vectors agree
// (a serial inner scan decoded into out already; a parallel one hands over
// its workers' vectors), out elsewhere.
func convert(n *evoNode, out, in orc.Vector, rows int) orc.Vector {
	switch n.kind {
	case cvSame:
		return in
	case cvMissing:
		fillNulls(out, rows)
		return out
	case cvStruct, cvList, cvMap, cvUnion:
		convertNested(n, out, in, rows)
	default:
		convertValues(n, out, in, rows)
	}
	return out
}

// copyNulls sets dst to the null flags of src's first rows rows (none when
// src has no null).
func copyNulls(dst *orc.Nulls, src orc.Vector, rows int) {
	dst.Nulls = dst.Nulls[:0]
	if hasNulls(src) {
		for i := 0; i < rows; i++ {
			dst.Nulls = append(dst.Nulls, src.IsNull(i))
		}
	}
}

// convertNested is convert for a struct, list, map or union: the children
// converted in turn.
func convertNested(n *evoNode, out, in orc.Vector, rows int) {
	switch n.kind {
	case cvStruct:
		o, s := out.(*orc.StructVector), in.(*orc.StructVector)
		copyNulls(&o.Nulls, s, rows)
		o.N = rows
		for i, k := range n.kids {
			var src orc.Vector
			if j := n.inner[i]; j >= 0 {
				src = s.Fields[j]
			}
			o.Fields[i] = convert(k, o.Fields[i], src, rows)
		}
	case cvList:
		o, s := out.(*orc.ListVector), in.(*orc.ListVector)
		copyNulls(&o.Nulls, s, rows)
		o.Offsets = append(o.Offsets[:0], s.Offsets[:min(len(s.Offsets), rows+1)]...)
		o.Elem = convert(n.kids[0], o.Elem, s.Elem, s.Elem.Len())
	case cvMap:
		o, s := out.(*orc.MapVector), in.(*orc.MapVector)
		copyNulls(&o.Nulls, s, rows)
		o.Offsets = append(o.Offsets[:0], s.Offsets[:min(len(s.Offsets), rows+1)]...)
		o.Keys = convert(n.kids[0], o.Keys, s.Keys, s.Keys.Len())
		o.Values = convert(n.kids[1], o.Values, s.Values, s.Values.Len())
	case cvUnion:
		o, s := out.(*orc.UnionVector), in.(*orc.UnionVector)
		copyNulls(&o.Nulls, s, rows)
		o.Tags = append(o.Tags[:0], s.Tags[:rows]...)
		for i, k := range n.kids {
			o.Children[i] = convert(k, o.Children[i], s.Children[i], rows)
		}
	}
}

// convertValues is convert for a primitive column read as another type.
func convertValues(n *evoNode, out, in orc.Vector, rows int) {
	switch n.kind {
	case cvLongToDouble:
		o, s := out.(*orc.DoubleVector), in.(*orc.LongVector)
		copyNulls(&o.Nulls, s, rows)
		o.Values = o.Values[:0]
		f32 := n.read.Kind == orc.Float
		for _, v := range s.Values[:rows] {
			f := float64(v)
			if f32 {
				f = float64(float32(v))
			}
			o.Values = append(o.Values, f)
		}
	case cvLongToDecimal:
		o, s := out.(*orc.DecimalVector), in.(*orc.LongVector)
		copyNulls(&o.Nulls, s, rows)
		o.Values = o.Values[:0]
		for _, v := range s.Values[:rows] {
			o.Values = append(o.Values, orc.Int128FromInt64(v))
		}
		rescaleTo(o, 0, n.read.Scale)
	case cvDecimal:
		o, s := out.(*orc.DecimalVector), in.(*orc.DecimalVector)
		copyNulls(&o.Nulls, s, rows)
		o.Values = append(o.Values[:0], s.Values[:rows]...)
		rescaleTo(o, s.Scale, n.read.Scale)
	case cvBytes:
		o, s := out.(*orc.BytesVector), in.(*orc.BytesVector)
		o.Reset()
		for i := 0; i < rows; i++ {
			if s.IsNull(i) {
				o.AppendNull()
				continue
			}
			o.Append(fitChars(s.Get(i), n.read))
		}
	case cvDateToTimestamp:
		o, s := out.(*orc.TimestampVector), in.(*orc.LongVector)
		copyNulls(&o.Nulls, s, rows)
		o.Seconds, o.Nanos = o.Seconds[:0], o.Nanos[:0]
		for _, d := range s.Values[:rows] {
			o.Seconds = append(o.Seconds, d*86400)
			o.Nanos = append(o.Nanos, 0)
		}
	}
}

// rescaleTo brings the values of o, at scale from, to scale to, which o
// then has: each value is what Rescale returns, lost digits and overflow
// not reported (the read schema's widening of integers and decimals).
func rescaleTo(o *orc.DecimalVector, from, to int) {
	o.Scale = to
	for i, v := range o.Values {
		o.Values[i], _, _ = orc.Rescale(v, from, to)
	}
}

// hasNulls reports whether some row of v is null.
func hasNulls(v orc.Vector) bool {
	n := orc.NullsOf(v)
	return n != nil && n.HasNulls()
}

// fitChars truncates a value to a varchar's or char's length in characters
// and pads a char's with spaces; other types take it as it is.
func fitChars(v []byte, t *orc.Schema) []byte {
	if t.Kind != orc.Varchar && t.Kind != orc.Char {
		return v
	}
	chars, cut := 0, len(v)
	for i := 0; i < len(v); {
		if chars == t.MaxLength {
			cut = i
			break
		}
		_, size := utf8.DecodeRune(v[i:])
		i += size
		chars++
	}
	v = v[:cut]
	if t.Kind == orc.Char && chars < t.MaxLength {
		pad := make([]byte, 0, len(v)+t.MaxLength-chars)
		pad = append(pad, v...)
		for ; chars < t.MaxLength; chars++ {
			pad = append(pad, ' ')
		}
		return pad
	}
	return v
}

// fillNulls makes v rows null rows, with placeholder values, down its
// children (a null struct's fields are null too).
func fillNulls(v orc.Vector, rows int) {
	v.Reset()
	all := func(n *orc.Nulls) {
		for i := 0; i < rows; i++ {
			n.Nulls = append(n.Nulls, true)
		}
	}
	switch x := v.(type) {
	case *orc.LongVector:
		all(&x.Nulls)
		x.Values = append(x.Values, make([]int64, rows)...)
	case *orc.DoubleVector:
		all(&x.Nulls)
		x.Values = append(x.Values, make([]float64, rows)...)
	case *orc.DecimalVector:
		all(&x.Nulls)
		x.Values = append(x.Values, make([]orc.Int128, rows)...)
	case *orc.TimestampVector:
		all(&x.Nulls)
		x.Seconds = append(x.Seconds, make([]int64, rows)...)
		x.Nanos = append(x.Nanos, make([]int32, rows)...)
	case *orc.BytesVector:
		for i := 0; i < rows; i++ {
			x.AppendNull()
		}
	case *orc.StructVector:
		all(&x.Nulls)
		x.N = rows
		for _, f := range x.Fields {
			fillNulls(f, rows)
		}
	case *orc.ListVector:
		all(&x.Nulls)
		x.Offsets = append(x.Offsets, make([]int64, rows+1)...)
	case *orc.MapVector:
		all(&x.Nulls)
		x.Offsets = append(x.Offsets, make([]int64, rows+1)...)
	case *orc.UnionVector:
		all(&x.Nulls)
		x.Tags = append(x.Tags, make([]uint8, rows)...)
		for _, c := range x.Children {
			fillNulls(c, rows)
		}
	}
}

// stats returns the scan statistics: the inner scan's, with the rows this
// layer's filter removed.
func (ev *evolution) scanStats() ScanStats {
	st := ev.inner.Stats()
	if ev.matcher != nil {
		st.RowsReturned = ev.rows
	}
	return st
}

// explainText returns the inner scan's explain.
func (ev *evolution) explainText() string { return ev.inner.Explain() }

// interrupt closes the inner scan, which stops it.
func (ev *evolution) interrupt() { ev.inner.Close() }

// release has nothing of its own to give back (interrupt closed the inner
// scan).
func (ev *evolution) release() { ev.inner.Close() }
