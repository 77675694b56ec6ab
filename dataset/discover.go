package dataset

import (
	"net/url"
	"path"
	"strings"

	"github.com/orcgo/orc"
)

// DiscoverPartitioning returns the partition columns that the key=value
// directories in the files' names give, for WithPartitioning, or nil when
// no file lies below such a directory. Each column's type is inferred from
// all its values, as DuckDB and Spark do: bigint when every value is an
// integer, date when every value is a date (2006-01-02), timestamp when
// every value is a timestamp (2006-01-02 15:04:05[.nnnnnnnnn]), else
// string. As there, month=01 is the integer 1 (declare the column a
// string with WithPartitioning to keep a code such as 007 as written);
// NULL (HivePartitionDefault) fits every type. Columns come in the order their
// directories first appear, outer directories first; keys that differ only
// in case are one column, named as first seen.
func DiscoverPartitioning(files []File) *orc.Schema {
	type column struct {
		name                      string
		isInt, isDate, isTime, ok bool // every value so far parses as...
	}
	var cols []*column
	find := func(k string) *column {
		for _, c := range cols {
			if strings.EqualFold(c.name, k) {
				return c
			}
		}
		c := &column{name: k, isInt: true, isDate: true, isTime: true}
		cols = append(cols, c)
		return c
	}
	for _, f := range files {
		for _, dir := range strings.Split(path.Dir(f.Name), "/") {
			k, v, ok := strings.Cut(dir, "=")
			if !ok || k == "" {
				continue
			}
			if uk, err := url.PathUnescape(k); err == nil {
				k = uk
			}
			c := find(k)
			if v == HivePartitionDefault {
				continue
			}
			if uv, err := url.PathUnescape(v); err == nil {
				v = uv
			}
			c.ok = true
			if c.isInt {
				_, err := parseValue(&orc.Schema{Kind: orc.Long}, v)
				c.isInt = err == nil && !strings.HasPrefix(v, "+")
			}
			if c.isDate {
				_, err := parseValue(&orc.Schema{Kind: orc.Date}, v)
				c.isDate = err == nil
			}
			if c.isTime {
				_, err := parseValue(&orc.Schema{Kind: orc.Timestamp}, v)
				c.isTime = err == nil
			}
		}
	}
	if len(cols) == 0 {
		return nil
	}
	s := &orc.Schema{Kind: orc.Struct}
	for _, c := range cols {
		kind := orc.String
		switch {
		case !c.ok: // only NULLs
		case c.isInt:
			kind = orc.Long
		case c.isDate:
			kind = orc.Date
		case c.isTime:
			kind = orc.Timestamp
		}
		s.Children = append(s.Children, &orc.Schema{Kind: kind})
		s.FieldNames = append(s.FieldNames, c.name)
	}
	s.Assign()
	return s
}
