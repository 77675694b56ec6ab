package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

func init() {
	register(command{name: "schema", usage: "schema FILE|DIR|URL... [--json]", run: runSchema,
		desc: "print a file's type, as --schema and convert take it (--json: the type tree with column ids)",
		help: `--json prints the type tree as Apache ORC's tools give it: per type its category,
column id and largest id below it, precision and scale of decimals, length of
char and varchar, the fields of a struct (name: type, in order) and the
children of a list, map or union.`})
}

func runSchema(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("schema", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "print the type tree as JSON")
	return onFile(fs, args, true, stdout, stderr, runSchema, func(_ string, r *reader.Reader, _ io.ReaderAt) error {
		return printSchema(stdout, r, *asJSON)
	})
}

// printSchema prints the schema of r, as JSON or as a type string.
func printSchema(stdout io.Writer, r *reader.Reader, asJSON bool) error {
	w := bufio.NewWriter(stdout)
	if asJSON {
		w.Write(appendTypeJSON(nil, r.Schema(), ""))
		w.WriteByte('\n')
	} else {
		fmt.Fprintln(w, r.Schema())
	}
	return w.Flush()
}

// appendTypeJSON appends the type tree of s as JSON, nested lines indented
// by indent and two spaces per level.
func appendTypeJSON(dst []byte, s *orc.Schema, indent string) []byte {
	dst = append(dst, `{"category": `...)
	dst = strconv.AppendQuote(dst, s.Kind.String())
	dst = append(dst, `, "id": `...)
	dst = strconv.AppendInt(dst, int64(s.ID()), 10)
	dst = append(dst, `, "max": `...)
	dst = strconv.AppendInt(dst, int64(s.MaxID()), 10)
	switch s.Kind {
	case orc.Decimal:
		dst = append(dst, `, "precision": `...)
		dst = strconv.AppendInt(dst, int64(s.Precision), 10)
		dst = append(dst, `, "scale": `...)
		dst = strconv.AppendInt(dst, int64(s.Scale), 10)
	case orc.Char, orc.Varchar:
		dst = append(dst, `, "length": `...)
		dst = strconv.AppendInt(dst, int64(s.MaxLength), 10)
	case orc.Geometry, orc.Geography:
		// Java's keys, with the values quoted (Java leaves them bare).
		crs := s.CRS
		if crs == "" {
			crs = orc.DefaultCRS
		}
		dst = append(dst, `, "crs": `...)
		dst = strconv.AppendQuote(dst, crs)
		if s.Kind == orc.Geography {
			dst = append(dst, `, "edge_interpolation_algorithm": `...)
			dst = strconv.AppendQuote(dst, s.Edges.String())
		}
	}
	if len(s.Children) > 0 {
		key := "children"
		if s.Kind == orc.Struct {
			key = "fields"
		}
		dst = append(dst, `, "`+key+`": [`...)
		for i, c := range s.Children {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = append(dst, "\n  "+indent...)
			if s.Kind == orc.Struct {
				dst = append(dst, '{')
				dst = strconv.AppendQuote(dst, s.FieldNames[i])
				dst = append(dst, ": "...)
				dst = appendTypeJSON(dst, c, indent+"  ")
				dst = append(dst, '}')
			} else {
				dst = appendTypeJSON(dst, c, indent+"  ")
			}
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}
