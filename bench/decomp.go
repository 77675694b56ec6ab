package main

// The physical limit of a scan: the time to do nothing but decompress the
// data streams of an orcgo file, with the orcgo library's own stream reader
// (format.InStream, over a format.NewDecompressor of the file's codec), on
// one goroutine. A reader has to do at least this to return the values of
// those streams, so a query's time over it says how much the rest (decoding
// runs, varints, strings; the consumer) costs on top.
//
// The stripes and their streams come from the reader package's public API:
// reader.Open, Reader.Stripes and Reader.StripeDetail. A data stream is one
// in the stripe's data area (index streams, row indexes and bloom filters,
// precede it). Reading the stored bytes (ReadAt, from the page cache here)
// is timed apart and not part of the limit.

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/reader"
)

// decompMeasure is one decompress-only pass over a file's data streams.
type decompMeasure struct {
	streams      int
	stored       int64 // stored bytes of the streams (chunk headers included)
	decompressed int64 // bytes they decompress to
	dur          time.Duration
	read         time.Duration // ReadAt of the stored bytes, not in dur
}

// decompressOnly decompresses every data stream of the ORC file at path
// whose column is one of cols (bench column numbers; nil: all columns).
func decompressOnly(path string, cols []int) (decompMeasure, error) {
	var m decompMeasure
	f, err := openCounting(path)
	if err != nil {
		return m, err
	}
	defer f.Close()
	r, err := reader.Open(f, f.size)
	if err != nil {
		return m, err
	}
	comp, block := r.Compression(), r.CompressionBlockSize()
	var dec format.Decompressor
	if comp != orc.CompressionNone {
		if dec, err = format.NewDecompressor(comp); err != nil {
			return m, err
		}
	}
	var in *format.InStream
	var buf []byte
	for i := range r.Stripes() {
		d, err := r.StripeDetail(i)
		if err != nil {
			return m, err
		}
		dataStart := d.Offset + d.IndexLength
		for _, s := range d.Streams {
			if s.Offset < dataStart {
				continue // an index stream
			}
			// every field is a primitive: column id = bench column + 1
			if cols != nil && !slices.Contains(cols, s.Column-1) {
				continue
			}
			buf = slices.Grow(buf[:0], int(s.Length))[:s.Length]
			t := time.Now()
			if _, err := f.ReadAt(buf, s.Offset); err != nil {
				return m, fmt.Errorf("stripe %d, %s stream of column %d: %w", i, s.Kind, s.Column, err)
			}
			m.read += time.Since(t)
			t = time.Now()
			info := format.StreamInfo{Name: s.Kind, FileOffset: s.Offset, Stripe: i, Column: s.Column, Length: uint64(s.Length)}
			if in == nil {
				in = format.NewInStream(info, buf, comp, block, dec)
			} else {
				in.Reset(info, buf)
			}
			for {
				c, err := in.NextChunk()
				if err == io.EOF {
					break
				}
				if err != nil {
					return m, err
				}
				m.decompressed += int64(len(c))
			}
			m.dur += time.Since(t)
			m.streams++
			m.stored += s.Length
		}
	}
	return m, nil
}

// DecompressResult is the decompress-only limit of one orcgo file, for all
// its columns or for one query's (times are medians).
type DecompressResult struct {
	Side              string    `json:"side"`
	Codec             string    `json:"codec"`
	Scope             string    `json:"scope"` // "all columns" or "Q2 columns"
	Query             string    `json:"query"` // the query it is the limit of: Q1 or Q2
	Streams           int       `json:"streams"`
	StoredBytes       int64     `json:"stored_bytes"`
	DecompressedBytes int64     `json:"decompressed_bytes"`
	Seconds           float64   `json:"seconds"`      // decompression only
	ReadSeconds       float64   `json:"read_seconds"` // ReadAt of the stored bytes, apart
	Runs              []float64 `json:"run_seconds"`
	QuerySeconds      float64   `json:"query_seconds,omitempty"` // the query's median time on this file, serial
	Ratio             float64   `json:"query_ratio,omitempty"`   // QuerySeconds / Seconds
	// ConsumeSeconds is the bench's own time on the query's rows
	// (ReadResult.ConsumeSeconds), and RatioLessConsume the query's time
	// without it as a multiple of Seconds: what the reader itself costs
	// over the limit.
	ConsumeSeconds   float64 `json:"consume_seconds,omitempty"`
	RatioLessConsume float64 `json:"query_ratio_less_consume,omitempty"`
	// AlsoRatios holds, for the other queries whose limit this is too
	// (Q5 and Q6 decompress every column's chunks, as Q1 does: each row
	// group holds matches), their serial times as multiples of Seconds.
	AlsoRatios map[string]float64 `json:"also_ratios,omitempty"`
}

// decompScopes are the column sets measured: all columns, the limit of Q1
// and of Q5 and Q6 (whose every row group holds matches, so every chunk of
// every column is decompressed), and Q2's projection. Q3 and Q4 read a few
// row groups, whose limit is not measured.
var decompScopes = []struct {
	scope, query string
	also         []string
	cols         []int
}{
	{"all columns", "Q1", []string{"Q5", "Q6"}, nil},
	{"Q2 columns", "Q2", nil, []int{cExtendedPrice, cDiscount, cShipDate}},
}

// multiple formats a query's time as a multiple of its limit.
func multiple(x float64) string {
	if x >= 100 {
		return fmt.Sprintf("%.0fx", x)
	}
	return fmt.Sprintf("%.1fx", x)
}

// writeDecompressMarkdown prints one line per orcgo file: its decompress-only
// times and the serial Q1 and Q2 times as multiples of them.
func writeDecompressMarkdown(w io.Writer, r *Report) {
	if len(r.Decompress) == 0 {
		return
	}
	fmt.Fprintln(w, "### Decompress only")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Time to only decompress the data streams of each compressed orcgo file (format.InStream, one goroutine; reading the bytes is not counted), with the serial times of the queries it bounds as multiples of it (Q5 and Q6 decompress every chunk of every column, as Q1 does; Q3 and Q4 read a few row groups, whose limit is not measured), and the streams' stored and decompressed sizes. Q1 and Q2 also get a multiple without the time the bench itself spends on the rows orcgo returns (converting to integers, the filter, the checksum), work every library's query does.")
	fmt.Fprintln(w)
	for i := 0; i < len(r.Decompress); {
		side := r.Decompress[i].Side
		var parts, sizes []string
		for ; i < len(r.Decompress) && r.Decompress[i].Side == side; i++ {
			x := r.Decompress[i]
			t := fmt.Sprintf("%s %s ms", x.Scope, msec(x.Seconds))
			if x.Ratio > 0 {
				q := fmt.Sprintf("%s = %s", x.Query, multiple(x.Ratio))
				if x.RatioLessConsume > 0 {
					q += fmt.Sprintf(" or %s less the bench's %s ms on its rows", multiple(x.RatioLessConsume), msec(x.ConsumeSeconds))
				}
				for _, id := range slices.Sorted(maps.Keys(x.AlsoRatios)) {
					q += fmt.Sprintf(", %s = %s", id, multiple(x.AlsoRatios[id]))
				}
				t += " (" + q + ")"
			}
			parts = append(parts, t)
			sizes = append(sizes, fmt.Sprintf("%s %s -> %s MiB in %d streams", x.Scope,
				mibs(float64(x.StoredBytes)), mibs(float64(x.DecompressedBytes)), x.Streams))
		}
		fmt.Fprintf(w, "- decompress-only: %s %s; %s\n", side, strings.Join(parts, ", "), strings.Join(sizes, ", "))
	}
	fmt.Fprintln(w)
}

// relate sets x's query ratios from the serial local runs of lib on x's
// codec in reads: x.Query's (with and without the bench's own time on its
// rows) and those of also, the other queries x is the limit of.
func (x *DecompressResult) relate(reads []ReadResult, lib string, also []string) {
	if x.Seconds <= 0 {
		return
	}
	for _, q := range reads {
		if q.Lib != lib || q.Codec != x.Codec || q.Parallel != 1 || q.remote() != nil {
			continue
		}
		switch {
		case q.Query == x.Query:
			x.QuerySeconds = q.Seconds
			x.Ratio = q.Seconds / x.Seconds
			if q.ConsumeSeconds > 0 && q.ConsumeSeconds < q.Seconds {
				x.ConsumeSeconds = q.ConsumeSeconds
				x.RatioLessConsume = (q.Seconds - q.ConsumeSeconds) / x.Seconds
			}
		case slices.Contains(also, q.Query):
			if x.AlsoRatios == nil {
				x.AlsoRatios = map[string]float64{}
			}
			x.AlsoRatios[q.Query] = q.Seconds / x.Seconds
		}
	}
}
