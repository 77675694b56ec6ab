package writer_test

import (
	"bytes"
	"fmt"
	"log"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// Rows of a struct type become an ORC file; the schema comes from the
// struct's orc tags.
func ExampleNewRowWriter() {
	type Order struct {
		ID       int64             `orc:"id"`
		Customer string            `orc:"customer,varchar(40)"`
		Total    writer.Decimal    `orc:"total,decimal(10,2)"`
		Placed   time.Time         `orc:"placed"`
		Shipped  *time.Time        `orc:"shipped,date"` // nil writes a null
		Items    []string          `orc:"items"`
		Extra    map[string]string `orc:"extra"`
		Note     string            `orc:"-"` // not stored
	}
	placed := time.Date(2024, 5, 1, 9, 30, 0, 0, time.UTC)
	shipped := placed.AddDate(0, 0, 2)

	var buf bytes.Buffer
	rw, err := writer.NewRowWriter[Order](&buf, writer.WithCompression(orc.CompressionZstd))
	if err != nil {
		log.Fatal(err)
	}
	err = rw.Write(
		Order{ID: 1, Customer: "Ada", Total: writer.Decimal{Unscaled: orc.Int128FromInt64(1999), Scale: 2},
			Placed: placed, Shipped: &shipped, Items: []string{"pen", "ink"}},
		Order{ID: 2, Customer: "Grace", Total: writer.Decimal{Unscaled: orc.Int128FromInt64(5), Scale: 0},
			Placed: placed.Add(time.Hour), Extra: map[string]string{"gift": "yes"}},
	)
	if err != nil {
		log.Fatal(err)
	}
	if err := rw.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(rw.Schema())
	fmt.Println(bytes.HasPrefix(buf.Bytes(), []byte("ORC")))
	// Output:
	// struct<id:bigint,customer:varchar(40),total:decimal(10,2),placed:timestamp,shipped:date,items:array<string>,extra:map<string,string>>
	// true
}
