package reader_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/reader"
)

func TestEncryptedFiles(t *testing.T) {
	dir := examples.Dir(t)
	for _, name := range []string{"sample1.orc", "sample2.orc"} {
		t.Run(name, func(t *testing.T) {
			r := openFile(t, filepath.Join(dir, "encrypted", name))
			var encrypted, plain []string
			for _, n := range r.Schema().FieldNames {
				if r.IsEncrypted(r.Schema().Field(n).ID()) {
					encrypted = append(encrypted, n)
				} else {
					plain = append(plain, n)
				}
			}
			if len(encrypted) == 0 || len(plain) == 0 {
				t.Fatalf("want both encrypted and plain columns, got %v and %v", encrypted, plain)
			}
			// The default scan reads the unencrypted columns only.
			br, err := r.NewBatchReader()
			if err != nil {
				t.Fatal(err)
			}
			if got := br.Schema().FieldNames; strings.Join(got, ",") != strings.Join(plain, ",") {
				t.Fatalf("default columns %v, want %v", got, plain)
			}
			var rows []string
			n, err := forEachRow(r, func(line []byte) error { rows = append(rows, string(line)); return nil })
			if err != nil {
				t.Fatal(err)
			}
			if n != r.NumRows() || n == 0 {
				t.Fatalf("read %d rows, footer says %d", n, r.NumRows())
			}
			if !strings.Contains(rows[0], "Hyun") {
				t.Fatalf("unexpected first row %s", rows[0])
			}
			for _, e := range encrypted {
				_, err := r.NewBatchReader(reader.WithColumns(e))
				if !errors.Is(err, orc.ErrUnsupported) || !strings.Contains(err.Error(), e) {
					t.Fatalf("asking for %s: got %v, want ErrUnsupported naming it", e, err)
				}
			}
		})
	}
}
