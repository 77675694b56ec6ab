package writer_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

func TestWriteFile(t *testing.T) {
	type row struct {
		ID    int64
		Name  string
		Price writer.Decimal `orc:"price,decimal(10,2)"`
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "rows.orc")
	var rows []row
	for i := range 3000 {
		d, _ := orc.DecimalOf("1.25")
		rows = append(rows, row{ID: int64(i), Name: "n", Price: d})
	}
	if err := writer.WriteFile(path, rows, writer.WithCompression(orc.CompressionZstd)); err != nil {
		t.Fatal(err)
	}
	back, err := reader.ReadFile[row](path)
	if err != nil || len(back) != 3000 || back[2999].ID != 2999 || back[5].Price.String() != "1.25" {
		t.Fatalf("read back: %d rows, %v", len(back), err)
	}
	// A failed write leaves nothing behind, not even a temporary file.
	type bad struct{ C chan int }
	if err := writer.WriteFile(filepath.Join(dir, "bad.orc"), []bad{{}}); err == nil {
		t.Fatal("a struct with a channel field was written")
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("the directory holds %d entries after a failed write", len(entries))
	}
}
