package writer_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// TestWriteReadsNoSpareCapacity: the dictionary and the text statistics
// read a value shorter than 8 bytes as a word, with the bytes after it.
// They must take those only from the vector's data, never from the
// capacity past its end, which a caller may be filling (with the next
// batch, say) while Write runs. Here a goroutine keeps writing into that
// capacity during the writes, for a dictionary column and a direct one:
// under -race a read of it is reported.
func TestWriteReadsNoSpareCapacity(t *testing.T) {
	schema := orc.MustParseSchema("struct<s:string>")
	for _, ratio := range []float64{0.8, 0} {
		b := orc.NewBatch(schema, 64)
		vec := b.Cols[0].(*orc.BytesVector)
		var data []byte
		offs := []int{0}
		for i := range 64 {
			data = fmt.Appendf(data, "%d", i%7*1000+i) // 1 to 4 bytes
			offs = append(offs, len(data))
		}
		data = append(make([]byte, 0, len(data)+64), data...)
		vec.Data, vec.Offsets = data, offs
		b.NumRows = 64

		stop, done := make(chan struct{}), make(chan struct{})
		go func() {
			defer close(done)
			spare := data[len(data):cap(data)]
			for {
				select {
				case <-stop:
					return
				default:
				}
				for i := range spare {
					spare[i]++
				}
			}
		}()
		w, err := writer.NewWriter(io.Discard, schema, writer.WithDictionaryKeyRatio(ratio), writer.WithRowIndexStride(100))
		if err != nil {
			t.Fatal(err)
		}
		for range 40 {
			if err := w.Write(b); err != nil {
				t.Fatal(err)
			}
		}
		close(stop)
		<-done
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
	}
}
