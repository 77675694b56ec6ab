package iceberg

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	ice "github.com/apache/iceberg-go"
	"github.com/orcgo/orc"
)

// The text forms of a table's schema, partition spec and metrics modes, as
// orc iceberg create takes them (--schema, --partition-by, --metrics).

// SchemaFromText returns the Iceberg schema of text: an ORC type string
// (struct<id:bigint,ts:timestamp,...>, as orc convert --schema takes it)
// whose fields become optional columns with ids numbered from 1, a
// struct's fields before the fields nested in them (as Iceberg assigns
// ids), or an Iceberg schema in its JSON form ({"type":"struct",
// "fields":[...]}), which says which fields are required.
func SchemaFromText(text string) (*ice.Schema, error) {
	t := strings.TrimSpace(text)
	if strings.HasPrefix(t, "{") {
		var s ice.Schema
		if err := s.UnmarshalJSON([]byte(t)); err != nil {
			return nil, fmt.Errorf("iceberg: schema JSON: %w", err)
		}
		if len(s.Fields()) == 0 {
			return nil, errors.New("iceberg: schema JSON has no fields")
		}
		return &s, nil
	}
	o, err := orc.ParseSchema(t)
	if err != nil {
		return nil, fmt.Errorf("iceberg: schema %q: %w", text, err)
	}
	if o.Kind != orc.Struct || len(o.Children) == 0 {
		return nil, fmt.Errorf("iceberg: schema %q is not a struct of columns (struct<name:type,...>)", text)
	}
	id := 0
	var number func(n *orc.Schema)
	number = func(n *orc.Schema) {
		for _, c := range n.Children {
			id++
			c.Attributes = map[string]string{AttrID: strconv.Itoa(id), AttrRequired: "false"}
		}
		for _, c := range n.Children {
			number(c)
		}
	}
	number(o)
	return FromORC(o, 0)
}

// transformNames are the transforms ParsePartitionSpec knows, with the
// suffix of the partition field each names.
var transformNames = map[string]string{
	"identity": "", "year": "_year", "years": "_year", "month": "_month", "months": "_month",
	"day": "_day", "days": "_day", "hour": "_hour", "hours": "_hour",
	"bucket": "_bucket", "truncate": "_trunc", "void": "_null",
}

// ParsePartitionSpec returns the partition spec of text over schema s: a
// comma-separated list of terms, each a column (identity), or
// year(col), month(col), day(col), hour(col) (Spark's years, months,
// days, hours too), bucket(N, col), truncate(W, col) (or truncate(col,
// W)), identity(col) or void(col). Fields are named as Apache Iceberg
// names them: col, col_year, col_bucket, col_trunc, ... (a nested
// column's dots become underscores). An empty text is the unpartitioned
// spec.
func ParsePartitionSpec(s *ice.Schema, text string) (ice.PartitionSpec, error) {
	if strings.TrimSpace(text) == "" {
		return *ice.UnpartitionedSpec, nil
	}
	terms, err := splitTop(text)
	if err != nil {
		return ice.PartitionSpec{}, err
	}
	var opts []ice.PartitionOption
	for _, term := range terms {
		col, name, tr, err := parsePartitionTerm(s, term)
		if err != nil {
			return ice.PartitionSpec{}, err
		}
		opts = append(opts, ice.AddPartitionFieldByName(col, name, tr, s, nil))
	}
	spec, err := ice.NewPartitionSpecOpts(opts...)
	if err != nil {
		return ice.PartitionSpec{}, fmt.Errorf("iceberg: partition spec %q: %w", text, err)
	}
	return spec, nil
}

// parsePartitionTerm reads one term of a partition spec.
func parsePartitionTerm(s *ice.Schema, term string) (col, name string, tr ice.Transform, err error) {
	fn, args := "identity", []string{term}
	if open := strings.IndexByte(term, '('); open >= 0 {
		if !strings.HasSuffix(term, ")") {
			return "", "", nil, fmt.Errorf("iceberg: partition term %q: no closing parenthesis", term)
		}
		fn = strings.ToLower(strings.TrimSpace(term[:open]))
		args = strings.Split(term[open+1:len(term)-1], ",")
		for i := range args {
			args[i] = strings.TrimSpace(args[i])
		}
	}
	suffix, known := transformNames[fn]
	if !known {
		return "", "", nil, fmt.Errorf("iceberg: partition term %q: unknown transform %q (identity, year, month, day, hour, bucket(N, col), truncate(W, col), void)", term, fn)
	}
	var n int
	switch fn {
	case "bucket", "truncate":
		if len(args) != 2 {
			return "", "", nil, fmt.Errorf("iceberg: partition term %q: %s takes a number and a column, %s(N, col)", term, fn, fn)
		}
		k, err := strconv.Atoi(args[0])
		if err != nil && fn == "truncate" {
			k, err = strconv.Atoi(args[1])
			args[0], args[1] = args[1], args[0]
		}
		if err != nil || k <= 0 {
			return "", "", nil, fmt.Errorf("iceberg: partition term %q: %s needs a positive whole number, %s(N, col)", term, fn, fn)
		}
		n, col = k, args[1]
	default:
		if len(args) != 1 {
			return "", "", nil, fmt.Errorf("iceberg: partition term %q: %s takes one column", term, fn)
		}
		col = args[0]
	}
	f, ok := s.FindFieldByName(col)
	if !ok {
		return "", "", nil, fmt.Errorf("iceberg: partition term %q: the schema has no column %q", term, col)
	}
	tr = map[string]ice.Transform{"identity": ice.IdentityTransform{}, "year": ice.YearTransform{},
		"years": ice.YearTransform{}, "month": ice.MonthTransform{}, "months": ice.MonthTransform{},
		"day": ice.DayTransform{}, "days": ice.DayTransform{}, "hour": ice.HourTransform{},
		"hours": ice.HourTransform{}, "bucket": ice.BucketTransform{NumBuckets: n},
		"truncate": ice.TruncateTransform{Width: n}, "void": ice.VoidTransform{}}[fn]
	if !tr.CanTransform(f.Type) {
		return "", "", nil, fmt.Errorf("iceberg: partition term %q: %s cannot partition column %s of type %s", term, tr, col, f.Type)
	}
	return col, strings.ReplaceAll(col, ".", "_") + suffix, tr, nil
}

// ParseMetricsModes returns the table properties of text over schema s: a
// comma-separated list of default=MODE (PropMetricsDefault) and
// column=MODE (PropMetricsColumnPrefix+column) with modes none, counts,
// truncate(N) or full, as orc iceberg create --metrics takes them.
func ParseMetricsModes(s *ice.Schema, text string) (map[string]string, error) {
	props := map[string]string{}
	if strings.TrimSpace(text) == "" {
		return props, nil
	}
	items, err := splitTop(text)
	if err != nil {
		return nil, err
	}
	for _, item := range items {
		key, val, ok := strings.Cut(item, "=")
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if !ok || key == "" {
			return nil, fmt.Errorf("iceberg: metrics %q: want default=MODE or column=MODE", item)
		}
		m, err := ParseMetricsMode(val)
		if err != nil {
			return nil, fmt.Errorf("iceberg: metrics %q: %s", item, strings.TrimPrefix(err.Error(), "iceberg: "))
		}
		prop := PropMetricsDefault
		if key != "default" {
			if _, ok := s.FindFieldByName(key); !ok {
				return nil, fmt.Errorf("iceberg: metrics %q: the schema has no column %q", item, key)
			}
			prop = PropMetricsColumnPrefix + key
		}
		if _, dup := props[prop]; dup {
			return nil, fmt.Errorf("iceberg: metrics %q: %s is given twice", item, key)
		}
		props[prop] = m.String()
	}
	if _, err := NewMetricsConfig(s, props); err != nil {
		return nil, err
	}
	return props, nil
}

// splitTop splits a list at the commas outside parentheses, trimming each
// item; an empty item is an error.
func splitTop(text string) ([]string, error) {
	var out []string
	depth, start := 0, 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) {
			switch text[i] {
			case '(':
				depth++
				continue
			case ')':
				if depth--; depth < 0 {
					return nil, fmt.Errorf("iceberg: %q: unbalanced parentheses", text)
				}
				continue
			case ',':
				if depth > 0 {
					continue
				}
			default:
				continue
			}
		}
		item := strings.TrimSpace(text[start:i])
		if item == "" {
			return nil, fmt.Errorf("iceberg: %q: an empty item in the list", text)
		}
		out = append(out, item)
		start = i + 1
	}
	if depth != 0 {
		return nil, fmt.Errorf("iceberg: %q: unbalanced parentheses", text)
	}
	return out, nil
}
