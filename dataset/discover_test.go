package dataset_test

import (
	"testing"

	"github.com/orcgo/orc/dataset"
)

// DiscoverPartitioning infers each key=value column's type from all its
// values: integers, dates, timestamps, else strings; NULL fits any type;
// columns in the order first seen.
func TestDiscoverPartitioning(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string // "" for nil
	}{
		{[]string{"a.orc", "x/b.orc"}, ""},
		{[]string{"year=2024/month=01/a.orc", "year=2025/month=12/b.orc"}, "struct<year:bigint,month:bigint>"},
		{[]string{"zip=02134/a.orc", "zip=9021a/b.orc"}, "struct<zip:string>"},
		{[]string{"year=2024/month=1/a.orc", "year=2025/month=12/b.orc"}, "struct<year:bigint,month:bigint>"},
		{[]string{"dt=2024-03-01/a.orc", "dt=__HIVE_DEFAULT_PARTITION__/b.orc"}, "struct<dt:date>"},
		{[]string{"dt=2024-03-01/a.orc", "dt=2024-03/b.orc"}, "struct<dt:string>"},
		{[]string{"ts=2024-03-01 10%3A00%3A00/a.orc", "ts=2024-03-02 00%3A00%3A00.5/b.orc"}, "struct<ts:timestamp>"},
		{[]string{"n=-3/a.orc", "n=0/b.orc", "N=7/c.orc"}, "struct<n:bigint>"},
		{[]string{"n=1/a.orc", "n=1.5/b.orc"}, "struct<n:string>"},
		{[]string{"region=eu/a.orc", "region=us/dt=2024-01-01/b.orc"}, "struct<region:string,dt:date>"},
		{[]string{"k=__HIVE_DEFAULT_PARTITION__/a.orc"}, "struct<k:string>"},
	} {
		var files []dataset.File
		for _, n := range c.names {
			files = append(files, dataset.File{Name: n})
		}
		got := dataset.DiscoverPartitioning(files)
		if c.want == "" && got != nil || c.want != "" && (got == nil || got.String() != c.want) {
			t.Errorf("%q: %v, want %q", c.names, got, c.want)
		}
	}
}
