package ingest_test

import (
	"bufio"
	"errors"
	"fmt"
	"strings"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/ingest"
)

// Infer a schema from CSV text, then read its rows into a batch, skipping
// a bad row within a budget.
func Example() {
	text := "id,name,day\n1,ann,2024-02-29\ntwo,bob,2024-03-01\n3,cy,2024-03-02\n"
	opt := ingest.Options{InferRows: 2}
	inf, src, err := ingest.Infer(bufio.NewReader(strings.NewReader(text)), ingest.CSV, opt)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(inf.Schema, "header guessed:", inf.HeaderGuessed)
	opt.Header = opt.Header || inf.HeaderGuessed
	b := orc.NewBatch(inf.Schema, 0)
	r := ingest.NewReader(src, ingest.CSV, b, opt)
	budget := ingest.ErrorBudget{Max: 1}
	for {
		ok, err := r.Next()
		if skip, err := budget.Skip(err); skip {
			continue
		} else if err != nil {
			fmt.Println(err)
			return
		}
		if !ok {
			break
		}
		b.NumRows++
	}
	fmt.Println(b.NumRows, "rows,", budget.Skipped, "skipped")
	// Output:
	// struct<id:bigint,name:string,day:date> header guessed: true
	// 2 rows, 1 skipped
}

// ExampleReader_Next shows a row that does not read as the schema.
func ExampleReader_Next() {
	s := orc.MustParseSchema("struct<a:int,b:timestamp>")
	b := orc.NewBatch(s, 0)
	r := ingest.NewReader(strings.NewReader(`{"a": 1, "b": "2024-01-01 10:00:00"}`+"\n"+`{"a": "x"}`+"\n"), ingest.JSONLines, b, ingest.Options{})
	for {
		ok, err := r.Next()
		var re *ingest.RowError
		if errors.As(err, &re) {
			fmt.Println("bad row:", re)
			continue
		}
		if err != nil || !ok {
			break
		}
		b.NumRows++
	}
	fmt.Println(b.NumRows, "row read")
	// Output:
	// bad row: line 2, column "a": bad int "x": not an integer
	// 1 row read
}
