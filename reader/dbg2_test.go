package reader_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/orcgo/orc/reader"
)

func TestDbgReads(t *testing.T) {
	data := storeTable(t, 200_000)
	path := filepath.Join(t.TempDir(), "f.orc")
	os.WriteFile(path, data, 0o644)
	f, _ := os.Open(path)
	defer f.Close()
	log := &rangeLog{f: f}
	r, _ := reader.Open(log, int64(len(data)))
	log.take()
	for _, par := range []int{1, 2} {
		_, _, st := storeScan(t, r, reader.WithParallelism(par))
		fmt.Println(par, st.ReadCalls, st.BytesRead, log.take())
	}
	s := r.Stripes()
	for _, x := range s {
		fmt.Println(x)
	}
}
