package main

// Per-column sizes of the written files (flag -columns): what each
// column's data takes on disk, compressed, summed over stripes or row
// groups.
//
// orcgo: the data streams of the column (PRESENT, DATA, LENGTH,
// DICTIONARY_DATA, SECONDARY), chunk headers included; its index streams
// (row index, bloom filters) are counted apart. Parquet: the column
// chunks' total compressed size (data and dictionary pages with their page
// headers); bloom filters, column and offset indexes are not in it.

import (
	"fmt"
	"io"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/parquet-go/parquet-go"

	"github.com/orcgo/orc/reader"
)

// ColumnSizes is the per-column size of one file.
type ColumnSizes struct {
	Side  string  `json:"side"`
	Data  []int64 `json:"data_bytes"`            // by column, in schema order
	Index []int64 `json:"index_bytes,omitempty"` // orcgo: row index and bloom filter streams, by column
}

// orcColumnSizes sums the stream lengths of an ORC file by top-level column.
func orcColumnSizes(path string) (ColumnSizes, error) {
	f, err := openCounting(path)
	if err != nil {
		return ColumnSizes{}, err
	}
	defer f.Close()
	r, err := reader.Open(f, f.size)
	if err != nil {
		return ColumnSizes{}, err
	}
	cs := ColumnSizes{Data: make([]int64, numCols), Index: make([]int64, numCols)}
	for i := range r.Stripes() {
		d, err := r.StripeDetail(i)
		if err != nil {
			return ColumnSizes{}, err
		}
		for _, s := range d.Streams {
			// every field is a primitive: column id = field number + 1
			col := s.Column - 1
			if col < 0 || col >= numCols {
				continue
			}
			switch s.Kind {
			case "ROW_INDEX", "BLOOM_FILTER", "BLOOM_FILTER_UTF8":
				cs.Index[col] += s.Length
			default:
				cs.Data[col] += s.Length
			}
		}
	}
	return cs, nil
}

// pqgoColumnSizes sums the column chunks' compressed sizes with parquet-go.
func pqgoColumnSizes(path string) (ColumnSizes, error) {
	f, err := openCounting(path)
	if err != nil {
		return ColumnSizes{}, err
	}
	defer f.Close()
	pf, err := parquet.OpenFile(f, f.size)
	if err != nil {
		return ColumnSizes{}, err
	}
	cs := ColumnSizes{Data: make([]int64, numCols)}
	for i, cd := range columns {
		lc, ok := pf.Schema().Lookup(cd.name)
		if !ok {
			return ColumnSizes{}, fmt.Errorf("parquet-go: no column %s", cd.name)
		}
		for _, rg := range pf.Metadata().RowGroups {
			cs.Data[i] += rg.Columns[lc.ColumnIndex].MetaData.TotalCompressedSize
		}
	}
	return cs, nil
}

// arrowColumnSizes sums the column chunks' compressed sizes with arrow-go.
func arrowColumnSizes(path string) (ColumnSizes, error) {
	f, err := openCounting(path)
	if err != nil {
		return ColumnSizes{}, err
	}
	defer f.Close()
	r, err := file.NewParquetReader(f)
	if err != nil {
		return ColumnSizes{}, err
	}
	cs := ColumnSizes{Data: make([]int64, numCols)}
	md := r.MetaData()
	for rg := range md.NumRowGroups() {
		for col := range numCols {
			cc, err := md.RowGroup(rg).ColumnChunk(col)
			if err != nil {
				return ColumnSizes{}, err
			}
			cs.Data[col] += cc.TotalCompressedSize()
		}
	}
	return cs, nil
}

// writeColumnsMarkdown prints the per-column sizes, one row per column
// and one column per file, in MiB.
func writeColumnsMarkdown(w io.Writer, r *Report) {
	if len(r.Columns) == 0 {
		return
	}
	fmt.Fprintln(w, "### Column sizes (MiB)")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Compressed data of each column; orcgo's row index and bloom filter streams are in the last row, Parquet's page indexes and bloom filters are not counted.")
	fmt.Fprintln(w)
	fmt.Fprint(w, "| column |")
	sep := "| --- |"
	for _, cs := range r.Columns {
		fmt.Fprintf(w, " %s |", cs.Side)
		sep += " ---: |"
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, sep)
	sums := make([]int64, len(r.Columns))
	for col := range len(r.ColumnNames) {
		fmt.Fprintf(w, "| %s |", r.ColumnNames[col])
		for i, cs := range r.Columns {
			var n int64
			if col < len(cs.Data) {
				n = cs.Data[col]
			}
			sums[i] += n
			fmt.Fprintf(w, " %.2f |", mib(n))
		}
		fmt.Fprintln(w)
	}
	fmt.Fprint(w, "| (all columns) |")
	for i := range r.Columns {
		fmt.Fprintf(w, " %.2f |", mib(sums[i]))
	}
	fmt.Fprintln(w)
	fmt.Fprint(w, "| (orcgo index streams) |")
	for _, cs := range r.Columns {
		if cs.Index == nil {
			fmt.Fprint(w, " – |")
			continue
		}
		var n int64
		for _, x := range cs.Index {
			n += x
		}
		fmt.Fprintf(w, " %.2f |", mib(n))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w)
}
