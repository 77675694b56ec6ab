package reader_test

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// A RowReader fills structs from a file, reading only the columns the
// struct names.
func ExampleNewRowReader() {
	type Reading struct {
		Sensor string         `orc:"sensor"`
		At     time.Time      `orc:"at"`
		Value  reader.Decimal `orc:"value,decimal(6,2)"`
		Alert  *bool          `orc:"alert"`
		Tags   []string       `orc:"tags"`
	}
	// Write a small file to read.
	var buf bytes.Buffer
	rw, err := writer.NewRowWriter[Reading](&buf)
	if err != nil {
		log.Fatal(err)
	}
	yes := true
	at := time.Date(2024, 7, 1, 12, 0, 0, 0, time.UTC)
	for i := range 5 {
		r := Reading{Sensor: fmt.Sprintf("s%d", i%2), At: at.Add(time.Duration(i) * time.Minute),
			Value: reader.Decimal{Unscaled: orc.Int128FromInt64(int64(2000 + 25*i)), Scale: 2}}
		if i == 3 {
			r.Alert, r.Tags = &yes, []string{"hot"}
		}
		if err := rw.Write(r); err != nil {
			log.Fatal(err)
		}
	}
	if err := rw.Close(); err != nil {
		log.Fatal(err)
	}

	// Read back only two of the columns.
	type Slim struct {
		Sensor string         `orc:"sensor"`
		Value  reader.Decimal `orc:"value"`
	}
	r, err := reader.Open(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		log.Fatal(err)
	}
	rr, err := reader.NewRowReader[Slim](r)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(rr.Schema())
	rows := make([]Slim, 2)
	for {
		n, err := rr.Read(rows)
		if err == io.EOF {
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		for _, row := range rows[:n] {
			fmt.Println(row.Sensor, row.Value)
		}
	}
	// Output:
	// struct<sensor:string,value:decimal(6,2)>
	// s0 20.00
	// s1 20.25
	// s0 20.50
	// s1 20.75
	// s0 21.00
}
