package writer_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// The row example of the README, as written there.
func TestReadmeRowExample(t *testing.T) {
	type Trade struct {
		ID    int64          `orc:"id"`
		Sym   string         `orc:"sym"`
		Price writer.Decimal `orc:"price,decimal(12,4)"`
		At    time.Time      `orc:"at,timestamp"`
		Note  *string        `orc:"note"` // NULL when nil
	}
	p, _ := orc.DecimalOf("12.5")
	trades := []Trade{{1, "ORCL", p, time.Unix(1700000000, 0).UTC(), nil}, {2, "IBM", p, time.Unix(1700000001, 0).UTC(), nil}}
	path := filepath.Join(t.TempDir(), "trades.orc")
	if err := writer.WriteFile(path, trades, writer.WithCompression(orc.CompressionZstd)); err != nil {
		t.Fatal(err)
	}
	rows, err := reader.ReadFile[Trade](path, reader.WithSearchArgument(sarg.MustParse("sym = 'ORCL'")), reader.WithExactFilter(true))
	if err != nil || len(rows) != 1 || rows[0].ID != 1 || rows[0].Price.String() != "12.5000" || !rows[0].At.Equal(trades[0].At) {
		t.Fatalf("%+v %v", rows, err)
	}
}
