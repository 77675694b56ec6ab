package dataset_test

import (
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/sarg"
)

// dataset.New discovers key=value partition columns by default, as the
// orc command does; a key that is also a column of the files is the files'
// column; WithPartitioning(struct<>) turns discovery off (issue 48, item 9).
func TestNewDiscoversPartitions(t *testing.T) {
	data := orcBytes(t, "struct<id:bigint,v:string>", 4)
	names := []string{"dt=2024-01-01/id=7/a.orc", "dt=2024-01-02/id=8/b.orc"}
	d, err := memDataset(t, names, [][]byte{data, data})
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Schema().String(); got != "struct<id:bigint,v:string,dt:date>" {
		t.Errorf("schema %s, want the discovered dt after the files' columns (id stays the files')", got)
	}
	s, err := d.Scan(dataset.WithSearchArgument(sarg.MustParse("dt = DATE '2024-01-02'")))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for b, err := range s.All() {
		if err != nil {
			t.Fatal(err)
		}
		n += b.NumRows
	}
	s.Close()
	if n != 4 || s.Stats().FilesOpened != 1 {
		t.Errorf("dt = 2024-01-02: %d rows, %d files opened; want 4 and 1", n, s.Stats().FilesOpened)
	}
	d, err = memDataset(t, names, [][]byte{data, data}, dataset.WithPartitioning(orc.MustParseSchema("struct<>")))
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Schema().String(); got != "struct<id:bigint,v:string>" {
		t.Errorf("WithPartitioning(struct<>): schema %s", got)
	}
}
