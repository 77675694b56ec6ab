package dataset_test

import (
	"strings"
	"testing"

	"github.com/orcgo/orc/dataset"
)

// A field of the row type whose tag names no column of the table is an
// error naming the field and the column, not a column of zero values;
// WithLenientFields asks for the zero values (issue 48, item 6).
func TestRowsStrictFields(t *testing.T) {
	d, err := memDataset(t, []string{"a.orc"}, [][]byte{orcBytes(t, "struct<id:bigint,sym:string>", 3)})
	if err != nil {
		t.Fatal(err)
	}
	type row struct {
		ID  int64  `orc:"id"`
		Sym string `orc:"symbol"`
	}
	rows, err := dataset.ReadAll[row](d)
	if err == nil || !strings.Contains(err.Error(), "symbol") || !strings.Contains(err.Error(), "WithLenientFields") {
		t.Errorf("a tag naming no column: %d rows, %v; want an error naming symbol and WithLenientFields", len(rows), err)
	}
	rows, err = dataset.ReadAll[row](d, dataset.WithLenientFields())
	if err != nil || len(rows) != 3 || rows[2].ID != 2 || rows[2].Sym != "" {
		t.Errorf("WithLenientFields: %v %+v", err, rows)
	}
	type good struct {
		ID  int64  `orc:"id"`
		Sym string `orc:"sym"`
	}
	if g, err := dataset.ReadAll[good](d); err != nil || len(g) != 3 || g[1].Sym != "x" {
		t.Errorf("every tag a column: %v %+v", err, g)
	}
}
