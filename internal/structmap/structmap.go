// Package structmap maps Go struct types to ORC schemas and moves rows of
// such structs into and out of the typed vectors of an orc.Batch. It is the
// engine behind writer.RowWriter and reader.RowReader.
//
// # Mapping
//
// Each exported field of a struct is one ORC struct field. Its name is the
// `orc:"name"` tag, or the Go field name as is when there is no tag or the
// tag's name is empty; `orc:"-"` leaves the field out. An untagged embedded
// struct has its fields promoted, as encoding/json does. Go types map to ORC
// types as follows (the write side; the read side accepts more, see below):
//
//	bool                      boolean
//	int8, int16, int32        tinyint, smallint, int
//	int64, int                bigint
//	uint8, uint16             smallint, int (the next wider signed type)
//	uint32, uint64, uint      bigint (uint64 and uint above 2^63-1 fail to write)
//	float32, float64          float, double
//	string                    string; with `,char(n)` or `,varchar(n)` those types
//	[]byte                    binary (so is any slice of a uint8 kind)
//	time.Time                 timestamp; with `,date` date; with `,instant`
//	                          timestamp with local time zone
//	Decimal                   decimal(38,10); with `,decimal(p,s)` decimal(p,s)
//	struct                    struct<...>
//	[]T                       array<T>
//	map[K]V                   map<K,V>; K a bool, integer, float or string type
//	*T                        T, nullable
//
// Named types map as their underlying type. Type options (date, instant,
// decimal, char, varchar) apply to the innermost value of the field, through
// pointers and slices and to map values. Channels, functions, interfaces,
// complex numbers, uintptr, unsafe.Pointer, arrays and recursive types are
// refused with an error naming the field.
//
// # Nulls
//
// Only pointers are nullable: a nil pointer writes a null, a null reads as
// a nil pointer. A null read into a non-pointer field gives the zero value.
// Nil and empty slices and maps both write an empty (not null) value; an
// empty or null list, map or binary value reads as a nil slice or map.
//
// # Time
//
// A TIMESTAMP holds a wall clock with no zone. time.Time values are written
// as their wall clock in UTC (t.UTC()), so the instant survives the round
// trip; they read back in UTC. A DATE is written as the calendar date of t
// in t's own location (t.Date()) and reads back as midnight UTC of that day.
// The calendar is the proleptic Gregorian one.
//
// # Reading
//
// Fields are matched to columns by name: an exact match first, else the
// only column whose name matches ignoring case. A field may read any
// integer column whose values fit it (checked per value), a float64 a float
// or double, a string a string, char or varchar, a []byte those and binary,
// a time.Time a timestamp (either kind) or a date, a Decimal any decimal
// (the Decimal carries the column's scale; tag precision and scale only
// shape the written schema).
//
// Strings read from one batch share one allocation per column, and pointer
// and slice targets are allocated per batch, so a kept value keeps its
// batch's block of that column alive.
//
// # Implementation
//
// A type is analysed once (the result is cached) into a tree of nodes that
// records each field's byte offset and kind. Encoders and decoders are
// built from that tree and work a column at a time: one call per column and
// batch, a tight loop per value reading or writing the field through its
// offset with package unsafe, no reflection per value except for map
// iteration and construction.
package structmap

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/orcgo/orc"
)

// Decimal is orc.DecimalValue, the Go value of decimal row fields.
type Decimal = orc.DecimalValue

// kind says how a node's Go value is laid out and converted.
type kind uint8

const (
	kBool kind = iota
	kInt       // signed integer of node.size bytes
	kUint      // unsigned integer of node.size bytes
	kFloat32
	kFloat64
	kString
	kBytes
	kTime // time.Time; node.schema.Kind says timestamp, instant or date
	kDecimal
	kStruct
	kSlice
	kMap
	kPtr
)

// node is the analysed form of one Go type in the context of one field:
// the same Go type can map to different ORC types under different tag
// options, so nodes belong to a root type's tree and are not shared.
type node struct {
	typ    reflect.Type
	kind   kind
	size   uintptr
	schema *orc.Schema // the type it writes as
	fields []field     // kStruct
	elem   *node       // kSlice element, kPtr target, kMap value
	key    *node       // kMap key
	path   string      // Go path for messages, such as "Order.Items[].Price"
}

// field is one ORC field of a struct node.
type field struct {
	name   string  // ORC field name
	offset uintptr // from the start of the struct, through promoted embeddings
	node   *node
}

var (
	timeType    = reflect.TypeFor[time.Time]()
	decimalType = reflect.TypeFor[Decimal]()
)

// analysed is a cache entry.
type analysed struct {
	root *node
	err  error
}

var cache sync.Map // reflect.Type -> *analysed

// analyse returns the node tree of struct type t, from the cache when it
// was built before.
func analyse(t reflect.Type) (*node, error) {
	if e, ok := cache.Load(t); ok {
		a := e.(*analysed)
		return a.root, a.err
	}
	if t == nil || t.Kind() != reflect.Struct || t == timeType || t == decimalType {
		return nil, fmt.Errorf("orc: row type %v is not a struct type", t)
	}
	an := &analyser{visiting: map[reflect.Type]bool{}}
	root, err := an.node(t, nil, typeName(t))
	if err == nil {
		if err = root.schema.Validate(); err != nil {
			err = fmt.Errorf("orc: row type %v: %w", t, err)
		}
	}
	if err != nil {
		root = nil
	} else {
		root.schema.Assign()
	}
	e, _ := cache.LoadOrStore(t, &analysed{root: root, err: err})
	a := e.(*analysed)
	return a.root, a.err
}

// SchemaOf returns the ORC schema that struct type t writes as. The schema
// is shared: callers must not modify it.
func SchemaOf(t reflect.Type) (*orc.Schema, error) {
	n, err := analyse(t)
	if err != nil {
		return nil, err
	}
	return n.schema, nil
}

type analyser struct {
	visiting map[reflect.Type]bool // struct types on the current path
}

// tagOptions are the type options of one field's tag, consumed by the
// innermost value.
type tagOptions struct {
	time      orc.Kind // Timestamp, Date or TimestampInstant; 0 when not given
	timeOpt   string
	decimal   bool
	precision int
	scale     int
	text      orc.Kind // Char or Varchar; 0 when not given
	textOpt   string
	maxLength int
}

// parseTag splits `name,opt,opt` where options may hold commas inside
// parentheses, as in decimal(10,2).
func parseTag(tag string) (name string, opts []string) {
	depth, start := 0, 0
	var parts []string
	for i := 0; i < len(tag); i++ {
		switch tag[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, tag[start:i])
				start = i + 1
			}
		}
	}
	parts = append(parts, tag[start:])
	return parts[0], parts[1:]
}

// parseOptions reads a field's type options.
func parseOptions(opts []string, path string) (*tagOptions, error) {
	if len(opts) == 0 {
		return nil, nil
	}
	o := &tagOptions{}
	bad := func(opt, why string) error {
		return fmt.Errorf("orc: field %s: tag option %q: %s", path, opt, why)
	}
	args := func(opt, prefix string) ([]int, error) {
		inner, ok := strings.CutPrefix(opt, prefix+"(")
		if !ok || !strings.HasSuffix(inner, ")") {
			return nil, bad(opt, "want "+prefix+"(...)")
		}
		var out []int
		for _, a := range strings.Split(strings.TrimSuffix(inner, ")"), ",") {
			v, err := strconv.Atoi(strings.TrimSpace(a))
			if err != nil {
				return nil, bad(opt, "arguments must be integers")
			}
			out = append(out, v)
		}
		return out, nil
	}
	for _, raw := range opts {
		opt := strings.TrimSpace(raw)
		word := opt
		if i := strings.IndexByte(opt, '('); i >= 0 {
			word = opt[:i]
		}
		switch strings.ToLower(word) {
		case "timestamp", "date", "instant":
			if o.time != 0 {
				return nil, bad(opt, "a second time option")
			}
			o.time = map[string]orc.Kind{"timestamp": orc.Timestamp, "date": orc.Date, "instant": orc.TimestampInstant}[strings.ToLower(word)]
			o.timeOpt = opt
		case "decimal":
			if o.decimal {
				return nil, bad(opt, "a second decimal option")
			}
			a := []int{38, 10}
			if strings.ToLower(opt) != "decimal" {
				var err error
				if a, err = args(strings.ToLower(opt), "decimal"); err != nil {
					return nil, err
				}
			}
			if len(a) > 2 {
				return nil, bad(opt, "want decimal(precision,scale)")
			}
			o.decimal, o.precision = true, a[0]
			if len(a) == 2 {
				o.scale = a[1]
			}
			if o.precision < 1 || o.precision > 38 || o.scale < 0 || o.scale > o.precision {
				return nil, bad(opt, "precision must be 1..38 and scale 0..precision")
			}
		case "char", "varchar":
			if o.text != 0 {
				return nil, bad(opt, "a second char or varchar option")
			}
			w := strings.ToLower(word)
			a, err := args(strings.ToLower(opt), w)
			if err != nil {
				return nil, err
			}
			if len(a) != 1 || a[0] < 1 {
				return nil, bad(opt, "want "+w+"(n) with n >= 1")
			}
			o.text, o.textOpt, o.maxLength = orc.Char, opt, a[0]
			if w == "varchar" {
				o.text = orc.Varchar
			}
		case "":
		default:
			return nil, bad(opt, "unknown option (know date, instant, timestamp, decimal(p,s), char(n), varchar(n))")
		}
	}
	return o, nil
}

// node analyses type t reached by path, with the tag options of its field.
func (an *analyser) node(t reflect.Type, opts *tagOptions, path string) (*node, error) {
	n := &node{typ: t, size: t.Size(), path: path}
	switch {
	case t == timeType:
		if err := opts.fit(t, path, true, false, false); err != nil {
			return nil, err
		}
		n.kind = kTime
		n.schema = &orc.Schema{Kind: orc.Timestamp}
		if opts != nil && opts.time != 0 {
			n.schema.Kind = opts.time
		}
		return n, nil
	case t == decimalType:
		if err := opts.fit(t, path, false, true, false); err != nil {
			return nil, err
		}
		n.kind = kDecimal
		n.schema = &orc.Schema{Kind: orc.Decimal, Precision: 38, Scale: 10}
		if opts != nil && opts.decimal {
			n.schema.Precision, n.schema.Scale = opts.precision, opts.scale
		}
		return n, nil
	}
	switch t.Kind() {
	case reflect.String:
		if err := opts.fit(t, path, false, false, true); err != nil {
			return nil, err
		}
		n.kind = kString
		n.schema = &orc.Schema{Kind: orc.String}
		if opts != nil && opts.text != 0 {
			n.schema.Kind, n.schema.MaxLength = opts.text, opts.maxLength
		}
		return n, nil
	case reflect.Ptr:
		if t.Elem().Kind() == reflect.Ptr {
			return nil, fmt.Errorf("orc: field %s: type %v: a pointer to a pointer is not supported", path, t)
		}
		elem, err := an.node(t.Elem(), opts, path)
		if err != nil {
			return nil, err
		}
		n.kind, n.elem, n.schema = kPtr, elem, elem.schema
		return n, nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			if err := opts.fit(t, path, false, false, false); err != nil {
				return nil, err
			}
			n.kind = kBytes
			n.schema = &orc.Schema{Kind: orc.Binary}
			return n, nil
		}
		elem, err := an.node(t.Elem(), opts, path+"[]")
		if err != nil {
			return nil, err
		}
		n.kind, n.elem = kSlice, elem
		n.schema = &orc.Schema{Kind: orc.List, Children: []*orc.Schema{elem.schema}}
		return n, nil
	case reflect.Map:
		key, err := an.node(t.Key(), nil, path+"[key]")
		if err != nil {
			return nil, err
		}
		switch key.kind {
		case kBool, kInt, kUint, kFloat32, kFloat64, kString:
		default:
			return nil, fmt.Errorf("orc: field %s: map key type %v is not supported (use a bool, integer, float or string type)", path, t.Key())
		}
		val, err := an.node(t.Elem(), opts, path+"[value]")
		if err != nil {
			return nil, err
		}
		n.kind, n.key, n.elem = kMap, key, val
		n.schema = &orc.Schema{Kind: orc.Map, Children: []*orc.Schema{key.schema, val.schema}}
		return n, nil
	case reflect.Struct:
		if err := opts.fit(t, path, false, false, false); err != nil {
			return nil, err
		}
		if an.visiting[t] {
			return nil, fmt.Errorf("orc: field %s: type %v is recursive", path, t)
		}
		an.visiting[t] = true
		defer delete(an.visiting, t)
		n.kind = kStruct
		n.schema = &orc.Schema{Kind: orc.Struct}
		if err := an.fields(n, t, 0, path); err != nil {
			return nil, err
		}
		seen := map[string]bool{}
		for _, f := range n.fields {
			if seen[f.name] {
				return nil, fmt.Errorf("orc: field %s: ORC field name %q appears twice (rename with a tag)", path, f.name)
			}
			seen[f.name] = true
			n.schema.FieldNames = append(n.schema.FieldNames, f.name)
			n.schema.Children = append(n.schema.Children, f.node.schema)
		}
		return n, nil
	}
	if err := opts.fit(t, path, false, false, false); err != nil {
		return nil, err
	}
	switch t.Kind() {
	case reflect.Bool:
		n.kind, n.schema = kBool, &orc.Schema{Kind: orc.Boolean}
	case reflect.Int8:
		n.kind, n.schema = kInt, &orc.Schema{Kind: orc.Byte}
	case reflect.Int16:
		n.kind, n.schema = kInt, &orc.Schema{Kind: orc.Short}
	case reflect.Int32:
		n.kind, n.schema = kInt, &orc.Schema{Kind: orc.Int}
	case reflect.Int64, reflect.Int:
		n.kind, n.schema = kInt, &orc.Schema{Kind: orc.Long}
	case reflect.Uint8:
		n.kind, n.schema = kUint, &orc.Schema{Kind: orc.Short}
	case reflect.Uint16:
		n.kind, n.schema = kUint, &orc.Schema{Kind: orc.Int}
	case reflect.Uint32, reflect.Uint64, reflect.Uint:
		n.kind, n.schema = kUint, &orc.Schema{Kind: orc.Long}
	case reflect.Float32:
		n.kind, n.schema = kFloat32, &orc.Schema{Kind: orc.Float}
	case reflect.Float64:
		n.kind, n.schema = kFloat64, &orc.Schema{Kind: orc.Double}
	default:
		return nil, fmt.Errorf("orc: field %s: type %v is not supported (use bool, integers, floats, string, []byte, time.Time, Decimal, structs, slices, maps or pointers to them)", path, t)
	}
	return n, nil
}

// fit reports the first option of o that does not apply to a value of type
// t, which accepts the time, decimal or text options as told. A nil o fits.
func (o *tagOptions) fit(t reflect.Type, path string, time, decimal, text bool) error {
	switch {
	case o == nil:
	case o.time != 0 && !time:
		return fmt.Errorf("orc: field %s: tag option %q applies to time.Time, not %v", path, o.timeOpt, t)
	case o.decimal && !decimal:
		return fmt.Errorf("orc: field %s: tag option decimal applies to Decimal, not %v", path, t)
	case o.text != 0 && !text:
		return fmt.Errorf("orc: field %s: tag option %q applies to string, not %v", path, o.textOpt, t)
	}
	return nil
}

// fields adds the ORC fields of struct type t, found at offset base inside
// the node's struct, promoting untagged embedded structs.
func (an *analyser) fields(n *node, t reflect.Type, base uintptr, path string) error {
	for i := 0; i < t.NumField(); i++ {
		sf := t.Field(i)
		tag, tagged := sf.Tag.Lookup("orc")
		if tag == "-" {
			continue
		}
		name, rawOpts := parseTag(tag)
		fpath := sf.Name
		if path != "" {
			fpath = path + "." + sf.Name
		}
		if sf.Anonymous && !tagged {
			ft := sf.Type
			if ft.Kind() == reflect.Struct && ft != timeType && ft != decimalType {
				if an.visiting[ft] {
					return fmt.Errorf("orc: field %s: type %v is recursive", fpath, ft)
				}
				an.visiting[ft] = true
				err := an.fields(n, ft, base+sf.Offset, fpath)
				delete(an.visiting, ft)
				if err != nil {
					return err
				}
				continue
			}
			if ft.Kind() == reflect.Ptr && ft.Elem().Kind() == reflect.Struct && sf.IsExported() {
				return fmt.Errorf("orc: field %s: embedded pointer %v is not supported; give it a tag to make it a nested struct", fpath, ft)
			}
		}
		if !sf.IsExported() {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		opts, err := parseOptions(rawOpts, fpath)
		if err != nil {
			return err
		}
		fn, err := an.node(sf.Type, opts, fpath)
		if err != nil {
			return err
		}
		n.fields = append(n.fields, field{name: name, offset: base + sf.Offset, node: fn})
	}
	return nil
}

// typeName names a root type in paths: its name, or nothing for unnamed
// types, whose paths start at the field.
func typeName(t reflect.Type) string { return t.Name() }
