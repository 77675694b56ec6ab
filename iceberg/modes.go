package iceberg

import (
	"fmt"
	"strconv"
	"strings"

	ice "github.com/apache/iceberg-go"
)

// Table properties that set metrics modes, as Apache Iceberg names them.
const (
	// PropMetricsDefault is the mode of every column no other property names.
	PropMetricsDefault = "write.metadata.metrics.default"
	// PropMetricsColumnPrefix followed by a column's full name (a.b.c) sets
	// that column's mode.
	PropMetricsColumnPrefix = "write.metadata.metrics.column."
	// PropMetricsMaxInferred is how many columns get the default mode when
	// PropMetricsDefault is not set (100 unless set); the others get none.
	PropMetricsMaxInferred = "write.metadata.metrics.max-inferred-column-defaults"
)

// modeKind is which metrics a mode keeps.
type modeKind uint8

const (
	modeTruncate modeKind = iota // counts and bounds cut to n characters or bytes
	modeNone                     // nothing
	modeCounts                   // value, null and NaN counts and the column's size
	modeFull                     // counts and whole bounds
)

// MetricsMode says which metrics a data file's manifest entry keeps for a
// column: none, counts (value, null and NaN counts and the column's size),
// truncate(n) (counts, and bounds cut to n characters or bytes) or full
// (counts and whole bounds). The zero value is truncate(16), Iceberg's
// default.
type MetricsMode struct {
	kind modeKind
	n    int // truncate's length, minus 16 (so that the zero value is truncate(16))
}

// Metrics modes without a length.
var (
	MetricsNone   = MetricsMode{kind: modeNone}
	MetricsCounts = MetricsMode{kind: modeCounts}
	MetricsFull   = MetricsMode{kind: modeFull}
)

// MetricsTruncate returns truncate(n); n must be positive.
func MetricsTruncate(n int) (MetricsMode, error) {
	if n <= 0 {
		return MetricsMode{}, fmt.Errorf("iceberg: truncate(%d): the length must be positive", n)
	}
	return MetricsMode{kind: modeTruncate, n: n - 16}, nil
}

// ParseMetricsMode parses a mode as table properties write it: "none",
// "counts", "full" or "truncate(n)", in any case.
func ParseMetricsMode(s string) (MetricsMode, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	switch t {
	case "none":
		return MetricsNone, nil
	case "counts":
		return MetricsCounts, nil
	case "full":
		return MetricsFull, nil
	}
	if rest, ok := strings.CutPrefix(t, "truncate("); ok && strings.HasSuffix(rest, ")") {
		n, err := strconv.Atoi(strings.TrimSuffix(rest, ")"))
		if err == nil {
			return MetricsTruncate(n)
		}
	}
	return MetricsMode{}, fmt.Errorf("iceberg: metrics mode %q is not none, counts, truncate(n) or full", s)
}

// String returns the mode as table properties write it.
func (m MetricsMode) String() string {
	switch m.kind {
	case modeNone:
		return "none"
	case modeCounts:
		return "counts"
	case modeFull:
		return "full"
	}
	return fmt.Sprintf("truncate(%d)", m.n+16)
}

// counts reports whether the mode keeps counts and sizes.
func (m MetricsMode) counts() bool { return m.kind != modeNone }

// bounds reports whether the mode keeps bounds, and their length (0: whole).
func (m MetricsMode) bounds() (keep bool, length int) {
	switch m.kind {
	case modeTruncate:
		return true, m.n + 16
	case modeFull:
		return true, 0
	}
	return false, 0
}

// MetricsConfig is the metrics mode of each column of a table.
type MetricsConfig struct {
	def   MetricsMode
	modes map[int]MetricsMode // by field id
}

// DefaultMetricsConfig is truncate(16) for every column.
func DefaultMetricsConfig() *MetricsConfig { return &MetricsConfig{} }

// Mode returns the mode of field id.
func (c *MetricsConfig) Mode(id int) MetricsMode {
	if c == nil {
		return MetricsMode{}
	}
	if m, ok := c.modes[id]; ok {
		return m
	}
	return c.def
}

// NewMetricsConfig reads the metrics modes of a table from its properties:
// PropMetricsDefault, PropMetricsColumnPrefix+name and
// PropMetricsMaxInferred. Without PropMetricsDefault, the first 100 fields
// (counted breadth-first: every top-level field, then their children, as
// Apache Iceberg counts them) keep truncate(16) and the rest none. A
// property naming a column the schema lacks, or a mode that does not parse,
// is an error.
func NewMetricsConfig(schema *ice.Schema, props map[string]string) (*MetricsConfig, error) {
	c := &MetricsConfig{modes: map[int]MetricsMode{}}
	if v, ok := props[PropMetricsDefault]; ok {
		m, err := ParseMetricsMode(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", PropMetricsDefault, err)
		}
		c.def = m
	} else {
		limit := 100
		if v, ok := props[PropMetricsMaxInferred]; ok {
			n, err := strconv.Atoi(v)
			if err != nil || n < 0 {
				return nil, fmt.Errorf("iceberg: %s %q is not a count", PropMetricsMaxInferred, v)
			}
			limit = n
		}
		if ids := breadthFirstIDs(schema); len(ids) > limit {
			c.def = MetricsNone
			for _, id := range ids[:limit] {
				c.modes[id] = MetricsMode{}
			}
		}
	}
	for k, v := range props {
		name, ok := strings.CutPrefix(k, PropMetricsColumnPrefix)
		if !ok {
			continue
		}
		f, found := schema.FindFieldByName(name)
		if !found {
			return nil, fmt.Errorf("iceberg: %s names column %q, which the table does not have", k, name)
		}
		m, err := ParseMetricsMode(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		c.modes[f.ID] = m
	}
	return c, nil
}

// breadthFirstIDs lists the schema's field ids level by level.
func breadthFirstIDs(s *ice.Schema) []int {
	var ids []int
	level := s.Fields()
	for len(level) > 0 {
		var next []ice.NestedField
		for _, f := range level {
			ids = append(ids, f.ID)
			switch t := f.Type.(type) {
			case *ice.StructType:
				next = append(next, t.FieldList...)
			case *ice.ListType:
				next = append(next, t.ElementField())
			case *ice.MapType:
				next = append(next, t.KeyField(), t.ValueField())
			}
		}
		level = next
	}
	return ids
}
