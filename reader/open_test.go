package reader_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/orcgo/orc/internal/examples"
	"github.com/orcgo/orc/reader"
)

// countingReaderAt counts ReadAt calls and bytes.
type countingReaderAt struct {
	r     io.ReaderAt
	calls int
	bytes int64
}

func (c *countingReaderAt) ReadAt(p []byte, off int64) (int, error) {
	c.calls++
	c.bytes += int64(len(p))
	return c.r.ReadAt(p, off)
}

// Open reads the tail with one ReadAt of the last 16 KiB when the tail fits,
// and with two when it does not.
func TestOpenReadsTailOnce(t *testing.T) {
	dir := examples.Dir(t)
	for _, c := range []struct {
		name  string
		calls int
	}{
		{"TestOrcFile.test1.orc", 1},
		{"demo-12-zlib.orc", 1},
		{"TestOrcFile.testSeek.orc", 1},
		{"TestOrcFile.metaData.orc", 2}, // a 40 KB user metadata value
	} {
		data, err := os.ReadFile(filepath.Join(dir, c.name))
		if err != nil {
			t.Fatal(err)
		}
		cr := &countingReaderAt{r: bytes.NewReader(data)}
		if _, err := reader.Open(cr, int64(len(data))); err != nil {
			t.Fatal(err)
		}
		if cr.calls != c.calls {
			t.Errorf("%s: Open made %d ReadAt calls (%d bytes), want %d", c.name, cr.calls, cr.bytes, c.calls)
		}
		if c.calls == 1 && cr.bytes > 16<<10 {
			t.Errorf("%s: Open read %d bytes", c.name, cr.bytes)
		}
	}
}
