package writer_test

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

type profWriter struct {
	writes int
	peak   uint64
	prof   bytes.Buffer
}

func (s *profWriter) Write(p []byte) (int, error) {
	if s.writes++; s.writes%200 == 0 {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		if m.HeapAlloc > s.peak {
			s.peak = m.HeapAlloc
			s.prof.Reset()
			pprof.Lookup("heap").WriteTo(&s.prof, 0)
		}
	}
	return len(p), nil
}

func TestScratchClosePeak(t *testing.T) {
	if os.Getenv("SCRATCH_PROF") == "" {
		t.Skip()
	}
	const cols = 100000
	parts := make([]string, cols)
	for i := range parts {
		parts[i] = fmt.Sprintf("c%d:bigint", i)
	}
	s := orc.MustParseSchema("struct<" + strings.Join(parts, ",") + ">")
	b := orc.NewBatch(s, 1)
	for i, v := range b.Cols {
		v.(*orc.LongVector).Append(int64(i))
	}
	b.NumRows = 1
	out := &profWriter{}
	w, _ := writer.NewWriter(out, s, writer.WithCompression(orc.CompressionZstd))
	w.Write(b)
	runtime.GC()
	f, _ := os.Create(os.Getenv("SCRATCH_PROF") + ".write")
	pprof.Lookup("heap").WriteTo(f, 0)
	f.Close()
	w.Close()
	os.WriteFile(os.Getenv("SCRATCH_PROF"), out.prof.Bytes(), 0o644)
}
