package writer_test

import (
	"bytes"
	"fmt"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// Writing rows with the batch API: fill the typed vectors, set NumRows,
// Write, and Close to write the file tail.
func ExampleNewWriter() {
	schema := orc.MustParseSchema("struct<id:bigint,name:string,tags:array<string>>")
	var out bytes.Buffer
	w, err := writer.NewWriter(&out, schema,
		writer.WithCompression(orc.CompressionZstd),
		writer.WithBloomFilterColumns("name"))
	if err != nil {
		panic(err)
	}
	b := orc.NewBatch(schema, 1024)
	ids := b.Cols[0].(*orc.LongVector)
	names := b.Cols[1].(*orc.BytesVector)
	tags := b.Cols[2].(*orc.ListVector)
	elems := tags.Elem.(*orc.BytesVector)
	tags.Offsets = append(tags.Offsets, 0)
	for i := 0; i < 3; i++ {
		ids.Values = append(ids.Values, int64(i))
		if i == 1 {
			names.AppendNull()
		} else {
			names.AppendString(fmt.Sprintf("user-%d", i))
		}
		for k := 0; k < i; k++ {
			elems.AppendString("t")
		}
		tags.Offsets = append(tags.Offsets, int64(elems.Len()))
	}
	b.NumRows = 3
	if err := w.Write(b); err != nil {
		panic(err)
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	fmt.Println(string(out.Bytes()[:3]), out.Len() > 100)
	// Output: ORC true
}
