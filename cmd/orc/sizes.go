package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/orcgo/orc/reader"
)

func init() {
	register(command{name: "sizes", usage: "sizes FILE|DIR|URL...",
		desc: "print the bytes of each column and of each stream kind, and their share of the file",
		run:  runSizes})
}

// runSizes sums the stream lengths of every stripe by column and by stream
// kind (as orc-tools sizes does), with the footers and the file tail apart.
func runSizes(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("sizes", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return onFile(fs, args, true, stdout, stderr, runSizes, func(_ string, r *reader.Reader, _ io.ReaderAt) error {
		return printSizes(stdout, r)
	})
}

// printSizes prints r's bytes by column and by stream kind.
func printSizes(stdout io.Writer, r *reader.Reader) error {
	names := columnNames(r.Schema())
	byCol := make([]int64, len(names))
	byKind := map[string]int64{}
	var footers, streams int64
	for i := range r.Stripes() {
		sd, err := r.StripeDetail(i)
		if err != nil {
			return fmt.Errorf("stripe %d: %w", i, err)
		}
		footers += sd.FooterLength
		for _, st := range sd.Streams {
			if st.Column >= 0 && st.Column < len(byCol) {
				byCol[st.Column] += st.Length
			}
			byKind[st.Kind] += st.Length
			streams += st.Length
		}
	}
	size := r.Size()
	share := func(n int64) string {
		if size == 0 {
			return "-"
		}
		return fmt.Sprintf("%.2f%%", 100*float64(n)/float64(size))
	}
	w := bufio.NewWriter(stdout)
	fmt.Fprintf(w, "file: %s, %s, %s\n\nby column:\n", plural(size, "byte"), plural(int64(len(r.Stripes())), "stripe"), plural(r.NumRows(), "row"))
	fmt.Fprintf(w, "%12s  %7s  %s\n", "bytes", "share", "column")
	for id, n := range byCol {
		fmt.Fprintf(w, "%12d  %7s  %d %s\n", n, share(n), id, names[id])
	}
	fmt.Fprintln(w, "\nby stream kind:")
	kinds := make([]string, 0, len(byKind))
	for k := range byKind {
		kinds = append(kinds, k)
	}
	slices.SortFunc(kinds, func(a, b string) int {
		if byKind[a] != byKind[b] {
			return int(byKind[b] - byKind[a])
		}
		return strings.Compare(a, b)
	})
	fmt.Fprintf(w, "%12s  %7s  %s\n", "bytes", "share", "kind")
	for _, k := range kinds {
		fmt.Fprintf(w, "%12d  %7s  %s\n", byKind[k], share(byKind[k]), k)
	}
	tail := size - streams - footers - 3 // the rest: "ORC" header and the file tail
	fmt.Fprintf(w, "\nstreams %d (%s), stripe footers %d (%s), header and file tail %d (%s)\n",
		streams, share(streams), footers, share(footers), tail, share(tail))
	return w.Flush()
}
