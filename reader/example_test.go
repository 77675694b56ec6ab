package reader_test

import (
	"bytes"
	"fmt"
	"io"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// exampleFile writes 10,000 orders in row groups of 1,000 rows.
func exampleFile() []byte {
	schema := orc.MustParseSchema("struct<id:bigint,city:string,amount:decimal(8,2)>")
	var buf bytes.Buffer
	w, err := writer.NewWriter(&buf, schema, writer.WithRowIndexStride(1000), writer.WithBloomFilterColumns("city"))
	if err != nil {
		panic(err)
	}
	b := orc.NewBatch(schema, 1000)
	cities := []string{"Lisbon", "Oslo", "Quito", "Lima"}
	for start := 0; start < 10000; start += 1000 {
		b.Reset()
		ids := b.Cols[0].(*orc.LongVector)
		city := b.Cols[1].(*orc.BytesVector)
		amount := b.Cols[2].(*orc.DecimalVector)
		for i := start; i < start+1000; i++ {
			ids.Values = append(ids.Values, int64(i))
			city.AppendString(cities[i%len(cities)])
			amount.Values = append(amount.Values, orc.Int128FromInt64(int64(i%500)*25))
		}
		b.NumRows = 1000
		if err := w.Write(b); err != nil {
			panic(err)
		}
	}
	if err := w.Close(); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// Reading a file batch by batch.
func ExampleReader_NewBatchReader() {
	data := exampleFile()
	r, err := reader.Open(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Schema(), r.NumRows())
	br, err := r.NewBatchReader(reader.WithBatchSize(4096))
	if err != nil {
		panic(err)
	}
	defer br.Close() // stops the scan's goroutines and frees its buffers if it ends early
	b := br.NewBatch()
	var rows int
	for {
		if err := br.Next(b); err == io.EOF {
			break
		} else if err != nil {
			panic(err)
		}
		rows += b.NumRows
	}
	fmt.Println(rows, "rows read")
	// Output:
	// struct<id:bigint,city:string,amount:decimal(8,2)> 10000
	// 10000 rows read
}

// Reading some columns only: the others' streams are not read.
func ExampleWithColumns() {
	data := exampleFile()
	r, _ := reader.Open(bytes.NewReader(data), int64(len(data)))
	br, err := r.NewBatchReader(reader.WithColumns("amount"), reader.WithBatchSize(3))
	if err != nil {
		panic(err)
	}
	defer br.Close() // stops the scan's goroutines and frees its buffers if it ends early
	b := br.NewBatch()
	if err := br.Next(b); err != nil {
		panic(err)
	}
	fmt.Println(br.Schema())
	for i := 0; i < b.NumRows; i++ {
		fmt.Println(string(reader.AppendJSONRow(nil, b, i)))
	}
	// Output:
	// struct<amount:decimal(8,2)>
	// {"amount": 0.00}
	// {"amount": 0.25}
	// {"amount": 0.50}
}

// A search argument skips the row groups that cannot match, and with exact
// filtering only matching rows come back.
func ExampleWithSearchArgument() {
	data := exampleFile()
	r, _ := reader.Open(bytes.NewReader(data), int64(len(data)))
	where := sarg.MustParse("id BETWEEN 4990 AND 5001 AND city = 'Oslo'")
	br, err := r.NewBatchReader(reader.WithSearchArgument(where), reader.WithExactFilter(true))
	if err != nil {
		panic(err)
	}
	defer br.Close() // stops the scan's goroutines and frees its buffers if it ends early
	b := br.NewBatch()
	for br.Next(b) == nil {
		for i := 0; i < b.NumRows; i++ {
			fmt.Println(string(reader.AppendJSONRow(nil, b, i)))
		}
	}
	st := br.Stats()
	fmt.Printf("row groups: %d of %d skipped\n", st.GroupsSkipped, st.GroupsConsidered)
	// Output:
	// {"id": 4993, "city": "Oslo", "amount": 123.25}
	// {"id": 4997, "city": "Oslo", "amount": 124.25}
	// {"id": 5001, "city": "Oslo", "amount": 0.25}
	// row groups: 8 of 10 skipped
}

// With selections, a batch keeps the rows it decoded and lists the
// matching ones (Batch.Selected) instead of moving them together, where
// they are dense; Row maps a row of the batch to its place in the vectors.
func ExampleWithSelection() {
	data := exampleFile()
	r, _ := reader.Open(bytes.NewReader(data), int64(len(data)))
	where := sarg.MustParse("city <> 'Oslo'")
	br, err := r.NewBatchReader(reader.WithSearchArgument(where), reader.WithSelection(), reader.WithBatchSize(8))
	if err != nil {
		panic(err)
	}
	defer br.Close()
	b := br.NewBatch()
	if err := br.Next(b); err != nil {
		panic(err)
	}
	fmt.Println(b.NumRows, "rows, selection", b.Selected)
	for i := range b.NumRows {
		fmt.Println(string(reader.AppendJSONRow(nil, b, i)))
	}
	// Output:
	// 6 rows, selection [0 2 3 4 6 7]
	// {"id": 0, "city": "Lisbon", "amount": 0.00}
	// {"id": 2, "city": "Quito", "amount": 0.50}
	// {"id": 3, "city": "Lima", "amount": 0.75}
	// {"id": 4, "city": "Lisbon", "amount": 1.00}
	// {"id": 6, "city": "Quito", "amount": 1.50}
	// {"id": 7, "city": "Lima", "amount": 1.75}
}
