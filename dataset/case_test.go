package dataset_test

import (
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
)

// WithColumns matches names as a predicate does: exactly, else the one
// column equal ignoring case (issue 48, item 10).
func TestColumnsIgnoreCase(t *testing.T) {
	d, err := memDataset(t, []string{"K=1/a.orc"}, [][]byte{orcBytes(t, "struct<id:bigint,sku:string>", 3)},
		dataset.WithPartitioning(orc.MustParseSchema("struct<k:bigint>")))
	if err != nil {
		t.Fatal(err)
	}
	s, err := d.Scan(dataset.WithColumns("SKU", "Id", "K"))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if got := s.Schema().String(); got != "struct<sku:string,id:bigint,k:bigint>" {
		t.Errorf("schema %s", got)
	}
	n := 0
	for b, err := range s.All() {
		if err != nil {
			t.Fatal(err)
		}
		n += b.NumRows
	}
	if n != 3 {
		t.Errorf("%d rows", n)
	}
}
