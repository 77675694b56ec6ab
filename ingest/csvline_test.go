package ingest

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/orcgo/orc"
)

// readCSVAll reads in as CSV into a batch of schema s, with encoding/csv
// from the first line when viaCSV, and returns what each call to next
// gave and the rows read, as text.
func readCSVAll(in string, s *orc.Schema, opt Options, viaCSV bool) string {
	b := orc.NewBatch(s, 0)
	c := opt.config()
	rb := newRowBuilder(b, c.zone)
	text := c.text
	rb.env.text = &text
	src := newCSVSource(strings.NewReader(in), rb, c)
	if viaCSV && src.cr == nil {
		src.cr = src.newCSVReader(c.delimiter)
	}
	var out strings.Builder
	for range 100 {
		ok, err := src.next()
		fmt.Fprintf(&out, "%v %v next line %d\n", ok, err, src.nextLine)
		if !ok && err == nil {
			break
		}
		if _, isRow := err.(*RowError); err != nil && !isRow {
			break
		}
	}
	for i, v := range b.Cols {
		fmt.Fprintf(&out, "column %d:", i)
		switch v := v.(type) {
		case *orc.BytesVector:
			for r := range v.Len() {
				if v.IsNull(r) {
					fmt.Fprintf(&out, " null")
				} else {
					fmt.Fprintf(&out, " %q", v.String(r))
				}
			}
		case *orc.LongVector:
			for r := range v.Len() {
				if v.IsNull(r) {
					fmt.Fprintf(&out, " null")
				} else {
					fmt.Fprintf(&out, " %d", v.Values[r])
				}
			}
		}
		out.WriteByte('\n')
	}
	return out.String()
}

// TestCSVLinesAsEncodingCSV checks that the records csvSource reads
// itself (lines with no quote, readLine) read as encoding/csv reads them,
// rows and errors alike, over random inputs of delimiters, quotes, "\r",
// empty lines, invalid UTF-8, a header and short record bounds.
func TestCSVLinesAsEncodingCSV(t *testing.T) {
	tokens := []string{"a", "1", "22", "", ",", ",", ";", "\t", "é", "\n", "\n", "\r\n", "\r", `"`, "\xff", "x y", " ", "\\N", "-7"}
	schemas := []*orc.Schema{
		orc.MustParseSchema("struct<a:string,b:string,c:string>"),
		orc.MustParseSchema("struct<a:bigint,b:string>"),
		orc.MustParseSchema("struct<a:string>"),
	}
	rng := rand.New(rand.NewPCG(49, 10))
	fast := 0
	for k := range 20000 {
		var in strings.Builder
		for range rng.IntN(40) {
			tok := tokens[rng.IntN(len(tokens))]
			if tok == `"` && rng.IntN(4) > 0 {
				continue // most inputs stay unquoted, or quoted late
			}
			in.WriteString(tok)
		}
		opt := Options{Delimiter: []rune{',', ';', 'é', '\t', '"', '\n'}[rng.IntN(6)]}
		if rng.IntN(4) == 0 {
			opt.Header, opt.HeaderSet = true, true
		}
		if rng.IntN(8) == 0 {
			opt.MaxLine = 1 + rng.IntN(16)
		}
		s := schemas[rng.IntN(len(schemas))]
		if opt.Header {
			s = orc.MustParseSchema("struct<a:string,b:string>")
		}
		want := readCSVAll(in.String(), s, opt, true)
		got := readCSVAll(in.String(), s, opt, false)
		if got != want {
			t.Fatalf("case %d: %q (delimiter %q, header %v, max line %d): read\n%s\nencoding/csv read\n%s",
				k, in.String(), opt.Delimiter, opt.Header, opt.MaxLine, got, want)
		}
		if !strings.Contains(in.String(), `"`) {
			fast++
		}
	}
	t.Logf("%d inputs with no quote", fast)
}
