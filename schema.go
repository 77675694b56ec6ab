package orc

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// MaxCharLength bounds char(n): values are padded to n characters, so a
// larger n is a length no real file can hold (Hive caps char at 255 and
// varchar at 65535; this bound is the larger of the two).
const MaxCharLength = 65535

// MaxVarcharLength bounds varchar(n): any length an int32 can count.
const MaxVarcharLength = 1<<31 - 1

// Schema is a node of the ORC type tree. A file's schema is the tree rooted at
// column 0; every node has a column id given by a pre-order walk. Build one
// with ParseSchema, or by hand and then call Assign.
type Schema struct {
	Kind Kind
	id   int32 // beside Kind in its word, as maxID beside Edges: a node is 112 bytes, not 128

	Children   []*Schema         // struct fields, list element, map key and value, union variants
	FieldNames []string          // struct field names, parallel to Children
	Precision  int               // decimal precision, 1..38 (0 for Hive 0.11 unbounded decimals)
	Scale      int               // decimal scale, 0..Precision
	MaxLength  int               // char and varchar length in characters
	Attributes map[string]string // type attributes, such as Iceberg field ids
	CRS        string            // geometry and geography: coordinate reference system ("" reads as DefaultCRS)
	Edges      EdgeAlgorithm     // geography: edge interpolation algorithm

	maxID int32
}

// ID returns the node's column id. It is valid after Assign or ParseSchema.
func (s *Schema) ID() int { return int(s.id) }

// MaxID returns the largest column id in the node's subtree.
func (s *Schema) MaxID() int { return int(s.maxID) }

// Assign numbers the tree in pre-order starting from 0 at s. A node whose
// numbers are right already is not written, so numbering a numbered tree
// is safe while other goroutines read it.
func (s *Schema) Assign() { s.assign(0) }

func (s *Schema) assign(next int32) int32 {
	if s.id != next {
		s.id = next
	}
	next++
	for _, c := range s.Children {
		next = c.assign(next)
	}
	if s.maxID != next-1 {
		s.maxID = next - 1
	}
	return next
}

// Walk calls fn for every node in pre-order (column id order).
func (s *Schema) Walk(fn func(*Schema)) {
	fn(s)
	for _, c := range s.Children {
		c.Walk(fn)
	}
}

// Columns returns every node in column id order.
func (s *Schema) Columns() []*Schema {
	// A numbered tree knows its size: a slice grown by appending left
	// four times its size behind it (3.5 MB for 100,000 columns).
	var out []*Schema
	if n := s.MaxID() - s.ID() + 1; n > 0 && n <= 1<<20 {
		out = make([]*Schema, 0, n)
	}
	s.Walk(func(n *Schema) { out = append(out, n) })
	return out
}

// Field returns the child of a struct with the given name, or nil.
func (s *Schema) Field(name string) *Schema {
	for i, n := range s.FieldNames {
		if n == name && i < len(s.Children) {
			return s.Children[i]
		}
	}
	return nil
}

// Find returns the node named by a dotted path such as "a.b.c" below a
// struct, or nil. A field name containing a dot can be quoted with backticks:
// "a.`b.c`".
func (s *Schema) Find(path string) *Schema {
	parts, err := splitPath(path)
	if err != nil {
		return nil
	}
	n := s
	for _, p := range parts {
		if n.Kind != Struct {
			return nil
		}
		if n = n.Field(p); n == nil {
			return nil
		}
	}
	return n
}

func splitPath(path string) ([]string, error) {
	var parts []string
	for len(path) > 0 {
		var part string
		if path[0] == '`' {
			end := strings.IndexByte(path[1:], '`')
			if end < 0 {
				return nil, fmt.Errorf("orc: unclosed backtick in %q", path)
			}
			part, path = path[1:end+1], path[end+2:]
		} else {
			end := strings.IndexByte(path, '.')
			if end < 0 {
				end = len(path)
			}
			part, path = path[:end], path[end:]
		}
		parts = append(parts, part)
		if len(path) > 0 {
			if path[0] != '.' {
				return nil, fmt.Errorf("orc: bad path near %q", path)
			}
			path = path[1:]
			if path == "" {
				return nil, fmt.Errorf("orc: path ends with a dot")
			}
		}
	}
	return parts, nil
}

// Copy returns a deep copy of the tree, numbered from 0.
func (s *Schema) Copy() *Schema {
	c := s.copyNode()
	c.Assign()
	return c
}

func (s *Schema) copyNode() *Schema {
	c := *s
	c.Children = make([]*Schema, len(s.Children))
	for i, ch := range s.Children {
		c.Children[i] = ch.copyNode()
	}
	c.FieldNames = append([]string(nil), s.FieldNames...)
	if s.Attributes != nil {
		c.Attributes = make(map[string]string, len(s.Attributes))
		for k, v := range s.Attributes {
			c.Attributes[k] = v
		}
	}
	return &c
}

// String returns the type in ORC's syntax, such as
// "struct<a:int,b:map<string,array<decimal(10,2)>>>". Attributes are not shown.
func (s *Schema) String() string {
	var b strings.Builder
	s.write(&b, -1)
	return b.String()
}

// StringDepth returns the type as String does, but for compound types
// nested more than levels below s, written as struct<...>, array<...>,
// map<...> or uniontype<...>: StringDepth(1) is a column's type with its
// children's, not their descendants' (orc meta prints each column so, in
// output linear in the number of columns however deep they nest).
func (s *Schema) StringDepth(levels int) string {
	var b strings.Builder
	s.write(&b, max(levels, 0))
	return b.String()
}

// write writes the type, compound types nested below depth levels as
// kind<...> (depth < 0: all of it).
func (s *Schema) write(b *strings.Builder, depth int) {
	if depth == 0 {
		switch s.Kind {
		case List:
			b.WriteString("array<...>")
			return
		case Struct, Map, Union:
			b.WriteString(s.Kind.String() + "<...>")
			return
		}
	}
	switch s.Kind {
	case Decimal:
		fmt.Fprintf(b, "decimal(%d,%d)", s.Precision, s.Scale)
	case Char, Varchar:
		fmt.Fprintf(b, "%s(%d)", s.Kind, s.MaxLength)
	case Geometry, Geography:
		crs := s.CRS
		if crs == "" {
			crs = DefaultCRS
		}
		b.WriteString(s.Kind.String())
		b.WriteByte('(')
		if crsNeedsQuotes(crs) {
			b.WriteString("`" + strings.ReplaceAll(crs, "`", "``") + "`")
		} else {
			b.WriteString(crs)
		}
		if s.Kind == Geography {
			b.WriteByte(',')
			b.WriteString(s.Edges.String())
		}
		b.WriteByte(')')
	case List:
		b.WriteString("array<")
		if len(s.Children) > 0 {
			s.Children[0].write(b, depth-1)
		}
		b.WriteByte('>')
	case Map, Union:
		b.WriteString(s.Kind.String())
		b.WriteByte('<')
		for i, c := range s.Children {
			if i > 0 {
				b.WriteByte(',')
			}
			c.write(b, depth-1)
		}
		b.WriteByte('>')
	case Struct:
		b.WriteString("struct<")
		for i, c := range s.Children {
			if i > 0 {
				b.WriteByte(',')
			}
			name := ""
			if i < len(s.FieldNames) {
				name = s.FieldNames[i]
			}
			b.WriteString(quoteName(name))
			b.WriteByte(':')
			c.write(b, depth-1)
		}
		b.WriteByte('>')
	default:
		b.WriteString(s.Kind.String())
	}
}

func quoteName(n string) string {
	plain := n != ""
	for i := 0; i < len(n); i++ {
		c := n[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80) {
			plain = false
			break
		}
	}
	if plain {
		return n
	}
	return "`" + strings.ReplaceAll(n, "`", "``") + "`"
}

// Validate checks the tree's shape: children counts per kind, decimal
// precision and scale, char lengths, and distinct struct field names.
func (s *Schema) Validate() error {
	var err error
	s.Walk(func(n *Schema) {
		if err != nil {
			return
		}
		err = n.validateNode()
	})
	return err
}

// repeatedName returns the index of the first name that an earlier one
// equals, or -1. Many names are sorted by index, not put in a map: a
// struct of 100,000 fields made 3.4 MB of map in the writer's NewWriter,
// 400 KB of indexes now.
func repeatedName(names []string) int {
	if len(names) <= 16 {
		for j := 1; j < len(names); j++ {
			if slices.Contains(names[:j], names[j]) {
				return j
			}
		}
		return -1
	}
	if len(names) <= 1<<31-1 {
		return repeatedIn(names, make([]int32, len(names)))
	}
	return repeatedIn(names, make([]int, len(names)))
}

// repeatedIn is repeatedName with idx, as long as names, for the sorting.
func repeatedIn[I int | int32](names []string, idx []I) int {
	for i := range idx {
		idx[i] = I(i)
	}
	slices.SortFunc(idx, func(a, b I) int {
		if c := strings.Compare(names[a], names[b]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	first := -1
	for k := 1; k < len(idx); k++ {
		if j := int(idx[k]); names[j] == names[idx[k-1]] && (first < 0 || j < first) {
			first = j
		}
	}
	return first
}

func (s *Schema) validateNode() error {
	switch s.Kind {
	case List:
		if len(s.Children) != 1 {
			return fmt.Errorf("orc: array needs 1 element type, has %d", len(s.Children))
		}
	case Map:
		if len(s.Children) != 2 {
			return fmt.Errorf("orc: map needs key and value types, has %d", len(s.Children))
		}
	case Union:
		if len(s.Children) == 0 || len(s.Children) > 256 {
			return fmt.Errorf("orc: uniontype needs 1 to 256 variants, has %d", len(s.Children))
		}
	case Struct:
		if len(s.FieldNames) != len(s.Children) {
			return fmt.Errorf("orc: struct has %d fields but %d names", len(s.Children), len(s.FieldNames))
		}
		if j := repeatedName(s.FieldNames); j >= 0 {
			return fmt.Errorf("orc: struct field %q appears twice", s.FieldNames[j])
		}
	case Decimal:
		if s.Precision < 1 || s.Precision > 38 || s.Scale < 0 || s.Scale > s.Precision {
			return fmt.Errorf("orc: bad decimal(%d,%d): precision 1..38, scale 0..precision", s.Precision, s.Scale)
		}
	case Char, Varchar:
		if s.MaxLength < 1 {
			return fmt.Errorf("orc: %s length must be positive, is %d", s.Kind, s.MaxLength)
		}
		if s.Kind == Char && s.MaxLength > MaxCharLength {
			return fmt.Errorf("orc: char(%d): the length must be at most %d", s.MaxLength, MaxCharLength)
		}
		if s.MaxLength > MaxVarcharLength {
			return fmt.Errorf("orc: %s(%d): the length must be at most %d", s.Kind, s.MaxLength, MaxVarcharLength)
		}
	case Geometry, Geography:
		if !s.Edges.Valid() {
			return fmt.Errorf("orc: %s has unknown edge interpolation algorithm %d", s.Kind, s.Edges)
		}
		if s.Kind == Geometry && s.Edges != Spherical {
			return fmt.Errorf("orc: geometry has planar edges; only geography takes an edge algorithm (%s)", s.Edges)
		}
		if len(s.Children) != 0 {
			return fmt.Errorf("orc: %s cannot have children", s.Kind)
		}
	default:
		if !s.Kind.Valid() {
			return fmt.Errorf("orc: unknown type kind %d", s.Kind)
		}
		if len(s.Children) != 0 {
			return fmt.Errorf("orc: %s cannot have children", s.Kind)
		}
	}
	return nil
}

// MustParseSchema is ParseSchema that panics on error, for constants in
// programs and tests.
func MustParseSchema(s string) *Schema {
	t, err := ParseSchema(s)
	if err != nil {
		panic(err)
	}
	return t
}

// ParseSchema parses a type in ORC's syntax, such as
// "struct<a:int,b:map<string,array<decimal(10,2)>>,c:uniontype<int,string>>".
// Type names are case-insensitive; field names may be quoted with backticks.
// "decimal" alone means decimal(38,10), and char and varchar need a length.
func ParseSchema(text string) (*Schema, error) {
	p := &schemaParser{s: text}
	t, err := p.parseType(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.s) {
		return nil, p.errorf("unexpected %q after the type", p.s[p.pos:])
	}
	if err := t.Validate(); err != nil {
		return nil, err
	}
	t.Assign()
	return t, nil
}

type schemaParser struct {
	s   string
	pos int
}

func (p *schemaParser) errorf(format string, args ...any) error {
	return fmt.Errorf("orc: bad type at position %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *schemaParser) skipSpace() {
	for p.pos < len(p.s) && (p.s[p.pos] == ' ' || p.s[p.pos] == '\t' || p.s[p.pos] == '\n' || p.s[p.pos] == '\r') {
		p.pos++
	}
}

func (p *schemaParser) word() string {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.s) {
		c := p.s[p.pos]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80 {
			p.pos++
		} else {
			break
		}
	}
	return p.s[start:p.pos]
}

func (p *schemaParser) expect(c byte) error {
	p.skipSpace()
	if p.pos >= len(p.s) || p.s[p.pos] != c {
		if p.pos >= len(p.s) {
			return p.errorf("expected %q, found end of text", c)
		}
		return p.errorf("expected %q, found %q", c, p.s[p.pos])
	}
	p.pos++
	return nil
}

func (p *schemaParser) peek(c byte) bool {
	p.skipSpace()
	return p.pos < len(p.s) && p.s[p.pos] == c
}

func (p *schemaParser) number() (int, error) {
	p.skipSpace()
	start := p.pos
	for p.pos < len(p.s) && p.s[p.pos] >= '0' && p.s[p.pos] <= '9' {
		p.pos++
	}
	if start == p.pos {
		return 0, p.errorf("expected a number")
	}
	n, err := strconv.Atoi(p.s[start:p.pos])
	if err != nil || n > 1<<30 {
		return 0, p.errorf("number %q out of range", p.s[start:p.pos])
	}
	return n, nil
}

const maxSchemaDepth = 200

// primitiveKinds are the types named by one word.
var primitiveKinds = map[string]Kind{
	"boolean": Boolean, "tinyint": Byte, "smallint": Short, "int": Int, "bigint": Long,
	"float": Float, "double": Double, "string": String, "binary": Binary, "date": Date,
}

func (p *schemaParser) parseType(depth int) (*Schema, error) {
	if depth > maxSchemaDepth {
		return nil, p.errorf("types nested deeper than %d", maxSchemaDepth)
	}
	start := p.pos
	name := strings.ToLower(p.word())
	if k, ok := primitiveKinds[name]; ok {
		return &Schema{Kind: k}, nil
	}
	switch name {
	case "timestamp":
		return p.parseTimestamp()
	case "char", "varchar":
		return p.parseChar(name)
	case "decimal":
		return p.parseDecimal()
	case "geometry", "geography":
		return p.parseGeo(name)
	case "array":
		return p.parseChildren(&Schema{Kind: List}, depth, 1)
	case "map":
		return p.parseChildren(&Schema{Kind: Map}, depth, 2)
	case "uniontype":
		return p.parseChildren(&Schema{Kind: Union}, depth, 0)
	case "struct":
		return p.parseStruct(depth)
	case "":
		p.pos = start
		p.skipSpace()
		if p.pos >= len(p.s) {
			return nil, p.errorf("expected a type, found end of text")
		}
		return nil, p.errorf("expected a type, found %q", p.s[p.pos])
	}
	p.pos = start
	p.skipSpace()
	return nil, p.errorf("unknown type %q", name)
}

// parseTimestamp parses what follows "timestamp": nothing, or "with local
// time zone".
func (p *schemaParser) parseTimestamp() (*Schema, error) {
	save := p.pos
	if strings.EqualFold(p.word(), "with") {
		if strings.EqualFold(p.word(), "local") && strings.EqualFold(p.word(), "time") && strings.EqualFold(p.word(), "zone") {
			return &Schema{Kind: TimestampInstant}, nil
		}
		return nil, p.errorf("expected \"with local time zone\"")
	}
	p.pos = save
	return &Schema{Kind: Timestamp}, nil
}

// parseChar parses the length of char(n) or varchar(n).
func (p *schemaParser) parseChar(name string) (*Schema, error) {
	t := &Schema{Kind: Char}
	if name == "varchar" {
		t.Kind = Varchar
	}
	if err := p.expect('('); err != nil {
		return nil, err
	}
	n, err := p.number()
	if err != nil {
		return nil, err
	}
	t.MaxLength = n
	return t, p.expect(')')
}

// parseDecimal parses what follows "decimal": nothing (38, 10), (p) or
// (p, s).
func (p *schemaParser) parseDecimal() (*Schema, error) {
	t := &Schema{Kind: Decimal, Precision: 38, Scale: 10}
	if !p.peek('(') {
		return t, nil
	}
	p.pos++
	var err error
	if t.Precision, err = p.number(); err != nil {
		return nil, err
	}
	t.Scale = 0
	if p.peek(',') {
		p.pos++
		if t.Scale, err = p.number(); err != nil {
			return nil, err
		}
	}
	return t, p.expect(')')
}

// parseChildren parses the types of t's children between angle brackets,
// separated by commas: exactly n of them, or one or more when n is 0.
func (p *schemaParser) parseChildren(t *Schema, depth, n int) (*Schema, error) {
	if err := p.expect('<'); err != nil {
		return nil, err
	}
	for {
		c, err := p.parseType(depth + 1)
		if err != nil {
			return nil, err
		}
		t.Children = append(t.Children, c)
		if len(t.Children) == n || n == 0 && !p.peek(',') {
			return t, p.expect('>')
		}
		if err := p.expect(','); err != nil {
			return nil, err
		}
	}
}

// parseStruct parses a struct's fields between angle brackets: name, a
// colon and a type each, separated by commas; none for struct<>.
func (p *schemaParser) parseStruct(depth int) (*Schema, error) {
	if err := p.expect('<'); err != nil {
		return nil, err
	}
	t := &Schema{Kind: Struct}
	if p.peek('>') {
		p.pos++
		return t, nil
	}
	for {
		fname, err := p.fieldName()
		if err != nil {
			return nil, err
		}
		if err := p.expect(':'); err != nil {
			return nil, err
		}
		c, err := p.parseType(depth + 1)
		if err != nil {
			return nil, err
		}
		t.FieldNames = append(t.FieldNames, fname)
		t.Children = append(t.Children, c)
		if !p.peek(',') {
			return t, p.expect('>')
		}
		p.pos++
	}
}

func (p *schemaParser) fieldName() (string, error) {
	p.skipSpace()
	if p.peek('`') {
		p.pos++
		var b strings.Builder
		for {
			if p.pos >= len(p.s) {
				return "", p.errorf("unclosed backtick")
			}
			c := p.s[p.pos]
			p.pos++
			if c == '`' {
				if p.pos < len(p.s) && p.s[p.pos] == '`' {
					b.WriteByte('`')
					p.pos++
					continue
				}
				return b.String(), nil
			}
			b.WriteByte(c)
		}
	}
	w := p.word()
	if w == "" {
		return "", p.errorf("expected a field name")
	}
	return w, nil
}

// parseGeo parses the rest of "geometry", "geometry(crs)", "geography" and
// "geography(crs,algorithm)" (also "geography(crs)"). A CRS is the text up to
// the next ',' or ')', spaces trimmed, or a backtick-quoted name.
func (p *schemaParser) parseGeo(name string) (*Schema, error) {
	t := &Schema{Kind: Geometry, CRS: DefaultCRS}
	if name == "geography" {
		t.Kind = Geography
	}
	if !p.peek('(') {
		return t, nil
	}
	p.pos++
	p.skipSpace()
	if p.peek('`') {
		crs, err := p.fieldName()
		if err != nil {
			return nil, err
		}
		t.CRS = crs
	} else {
		start := p.pos
		for p.pos < len(p.s) && !strings.ContainsRune("(),<>`", rune(p.s[p.pos])) {
			p.pos++
		}
		t.CRS = strings.TrimSpace(p.s[start:p.pos])
		if t.CRS == "" {
			return nil, p.errorf("%s needs a coordinate reference system inside the parentheses", name)
		}
	}
	if t.Kind == Geography && p.peek(',') {
		p.pos++
		w := p.word()
		a, ok := ParseEdgeAlgorithm(w)
		if !ok {
			return nil, p.errorf("unknown edge interpolation algorithm %q (spherical, vincenty, thomas, andoyer or karney)", w)
		}
		t.Edges = a
	}
	return t, p.expect(')')
}
