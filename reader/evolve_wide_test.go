package reader

import (
	"fmt"
	"testing"
	"time"

	"github.com/orcgo/orc"
)

// TestReadSchemaWideMatch matches a read schema of 100,000 fields, in
// reverse order, against a file's struct of the same names: one pass over
// the names (a search of the file's fields for each took tens of seconds).
// Every read field must find the file's field of its name.
func TestReadSchemaWideMatch(t *testing.T) {
	const n = 100_000
	file, read := &orc.Schema{Kind: orc.Struct}, &orc.Schema{Kind: orc.Struct}
	for i := range n {
		file.FieldNames = append(file.FieldNames, fmt.Sprintf("c%d", i))
		file.Children = append(file.Children, &orc.Schema{Kind: orc.Long})
		read.FieldNames = append(read.FieldNames, fmt.Sprintf("c%d", n-1-i))
		read.Children = append(read.Children, &orc.Schema{Kind: orc.Long})
	}
	// One name only in another case: found ignoring case.
	read.FieldNames[0] = "C99999"
	file.Assign()
	read.Assign()
	start := time.Now()
	node, err := mapType(read, file, "", false)
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("matching 100,000 fields took %v", d)
	}
	for i, k := range node.kids {
		if k.file != file.Children[n-1-i] {
			t.Fatalf("read field %d (%s) matched the wrong file column", i, read.FieldNames[i])
		}
	}
}
