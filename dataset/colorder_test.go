package dataset_test

import (
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/sarg"
)

// WithColumns gives the columns in the order asked and only those asked:
// a predicate on another column filters without adding it to the batches,
// and a partition column asked first comes first (issue 48, item 7).
func TestColumnsAsAsked(t *testing.T) {
	d, err := memDataset(t, []string{"k=1/a.orc", "k=2/b.orc"},
		[][]byte{orcBytes(t, "struct<id:bigint,sku:string,qty:bigint>", 5), orcBytes(t, "struct<id:bigint,sku:string,qty:bigint>", 5)},
		dataset.WithPartitioning(orc.MustParseSchema("struct<k:bigint>")))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cols []string
		want string
		rows int
	}{
		{[]string{"sku", "id"}, "struct<sku:string,id:bigint>", 6},
		{[]string{"k", "sku"}, "struct<k:bigint,sku:string>", 6},
		{[]string{"id", "k"}, "struct<id:bigint,k:bigint>", 6},
		{[]string{"qty", "k", "id"}, "struct<qty:bigint,k:bigint,id:bigint>", 6},
	} {
		s, err := d.Scan(dataset.WithColumns(tc.cols...), dataset.WithSearchArgument(sarg.MustParse("qty > 1 AND k >= 1")))
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Schema().String(); got != tc.want {
			t.Errorf("WithColumns%q: schema %s, want %s", tc.cols, got, tc.want)
		}
		rows := 0
		for b, err := range s.All() {
			if err != nil {
				t.Fatalf("WithColumns%q: %v", tc.cols, err)
			}
			if b.Schema.String() != tc.want || len(b.Cols) != len(tc.cols) {
				t.Fatalf("WithColumns%q: a batch of %s", tc.cols, b.Schema)
			}
			for i := range b.NumRows {
				for c, name := range tc.cols {
					v := b.Cols[c]
					switch name {
					case "sku":
						if got := v.(*orc.BytesVector).String(i); got != "x" {
							t.Fatalf("WithColumns%q: row %d sku %q", tc.cols, i, got)
						}
					case "id", "qty":
						if got := v.(*orc.LongVector).Values[i]; got < 2 || got > 4 {
							t.Fatalf("WithColumns%q: row %d %s %d", tc.cols, i, name, got)
						}
					case "k":
						if got := v.(*orc.LongVector).Values[i]; got != 1 && got != 2 {
							t.Fatalf("WithColumns%q: row %d k %d", tc.cols, i, got)
						}
					}
				}
			}
			rows += b.NumRows
		}
		s.Close()
		if rows != tc.rows {
			t.Errorf("WithColumns%q: %d rows, want %d", tc.cols, rows, tc.rows)
		}
	}
}
