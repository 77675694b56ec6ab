package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Report is everything one benchmark run measured (the -json output).
type Report struct {
	Table        string             `json:"table"`
	SF           float64            `json:"sf"`
	Rows         int64              `json:"rows"`
	Runs         int                `json:"runs"`
	Batch        int                `json:"batch"`
	Seed         uint64             `json:"seed"`
	RowGroupRows int64              `json:"parquet_row_group_rows"`
	StripeSize   int64              `json:"orc_stripe_size"`
	GoVersion    string             `json:"go_version"`
	GOOS         string             `json:"goos"`
	GOARCH       string             `json:"goarch"`
	NumCPU       int                `json:"num_cpu"`
	GOMAXPROCS   int                `json:"gomaxprocs"`
	Queries      []QueryInfo        `json:"queries"`
	Write        []WriteResult      `json:"write"`
	Read         []ReadResult       `json:"read"`
	ColumnNames  []string           `json:"column_names,omitempty"` // with -columns
	Columns      []ColumnSizes      `json:"columns,omitempty"`      // with -columns
	Decompress   []DecompressResult `json:"decompress_only,omitempty"`
	Mismatches   []string           `json:"mismatches,omitempty"`
	// the range server's cap, bytes per second per connection (0: uncapped
	// or no HTTP rows)
	HTTPBandwidth int64 `json:"http_bandwidth,omitempty"`
}

// QueryInfo names a query.
type QueryInfo struct {
	ID   string `json:"id"`
	Desc string `json:"desc"`
}

// WriteResult is the writing of one file (times are medians).
type WriteResult struct {
	Side       string    `json:"side"`
	Lib        string    `json:"lib"`
	Codec      string    `json:"codec"`
	Bytes      int64     `json:"bytes"`
	Seconds    float64   `json:"seconds"`
	RowsPerSec float64   `json:"rows_per_sec"`
	PeakHeap   int64     `json:"peak_heap_bytes"`
	Runs       []float64 `json:"run_seconds"`
}

// ReadResult is one query on one file (time and heap are medians).
type ReadResult struct {
	Query       string      `json:"query"`
	Side        string      `json:"side"`
	Lib         string      `json:"lib"`
	Codec       string      `json:"codec"`
	Parallel    int         `json:"parallel"` // goroutines the query read on
	Seconds     float64     `json:"seconds"`
	BytesRead   int64       `json:"bytes_read"`
	ReadCalls   int64       `json:"readat_calls"`
	RowsDecoded int64       `json:"rows_decoded"`
	PeakHeap    int64       `json:"peak_heap_bytes"`
	LiveHeap    int64       `json:"live_heap_bytes,omitempty"` // -live-heap: the most found live after a forced collection
	Matched     int64       `json:"matched_rows"`
	Checksum    string      `json:"checksum"`
	Runs        []float64   `json:"run_seconds"`
	HTTP        *RemoteRead `json:"http,omitempty"` // the query read over HTTP (BytesRead: bytes the server sent)
	S3          *RemoteRead `json:"s3,omitempty"`   // the query read from S3 (BytesRead: bytes the proxy passed on)
	// ConsumeSeconds is the median time the bench spent on the returned
	// rows (QueryResult.Consume; orcgo only, 0 elsewhere).
	ConsumeSeconds float64 `json:"consume_seconds,omitempty"`
}

// remote returns what reading over HTTP or from S3 added to x, or nil for
// a local read.
func (x ReadResult) remote() *RemoteRead {
	if x.HTTP != nil {
		return x.HTTP
	}
	return x.S3
}

// RemoteRead is what a query over HTTP or from S3 adds to its ReadResult.
type RemoteRead struct {
	Latency        string  `json:"latency"` // "20ms"
	LatencySeconds float64 `json:"latency_seconds"`
	Requests       int64   `json:"requests"` // received by the server (S3: by the proxy), the open's included
}

func writeJSON(w io.Writer, r *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// ratio formats v/base as "×1.23"; "" when there is no base.
func ratio(v, base float64, ok bool) string {
	if !ok || base == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", v/base)
}

func mibs(n float64) string {
	switch {
	case n >= 100<<20:
		return fmt.Sprintf("%.0f", n/(1<<20))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f", n/(1<<20))
	}
	return fmt.Sprintf("%.2f", n/(1<<20))
}

func count(n float64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.2fM", n/1e6)
	case n >= 1e4:
		return fmt.Sprintf("%.0fk", n/1e3)
	}
	return fmt.Sprintf("%.0f", n)
}

func msec(s float64) string {
	ms := s * 1e3
	switch {
	case ms >= 100:
		return fmt.Sprintf("%.0f", ms)
	case ms >= 10:
		return fmt.Sprintf("%.1f", ms)
	}
	return fmt.Sprintf("%.2f", ms)
}

func writeMarkdown(w io.Writer, r *Report) {
	fmt.Fprintf(w, "Table %s, SF %g (%d rows), median of %d runs, batch %d rows; Parquet row groups of %d rows (orcgo stripes of %d MiB); %s %s/%s, GOMAXPROCS %d.\n",
		r.Table, r.SF, r.Rows, r.Runs, r.Batch, r.RowGroupRows, r.StripeSize>>20, r.GoVersion, r.GOOS, r.GOARCH, r.GOMAXPROCS)
	fmt.Fprintf(w, "Ratios (×) are to orcgo with the same codec (for queries: and the same parallelism, where orcgo ran at it); below 1 means smaller or faster than orcgo. \"x2\": the query read on 2 goroutines.\n\n")

	worc := map[string]WriteResult{}
	for _, x := range r.Write {
		if x.Lib == "orcgo" {
			worc[x.Codec] = x
		}
	}
	fmt.Fprintln(w, "### Writing")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| file | size MiB | × | write s | × | rows/s | peak heap MiB | × |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	for _, x := range r.Write {
		b, ok := worc[x.Codec]
		fmt.Fprintf(w, "| %s | %s | %s | %.2f | %s | %s | %s | %s |\n", x.Side,
			mibs(float64(x.Bytes)), ratio(float64(x.Bytes), float64(b.Bytes), ok),
			x.Seconds, ratio(x.Seconds, b.Seconds, ok), count(x.RowsPerSec),
			mibs(float64(x.PeakHeap)), ratio(float64(x.PeakHeap), float64(b.PeakHeap), ok))
	}
	fmt.Fprintln(w)
	writeColumnsMarkdown(w, r)

	// a query's base is orcgo with the same codec and parallelism, or else
	// orcgo's first row with the codec
	type k struct {
		q, codec string
		par      int
	}
	rorc := map[k]ReadResult{}
	for _, x := range r.Read {
		if x.Lib == "orcgo" && x.remote() == nil {
			rorc[k{x.Query, x.Codec, x.Parallel}] = x
			if _, ok := rorc[k{x.Query, x.Codec, 0}]; !ok {
				rorc[k{x.Query, x.Codec, 0}] = x
			}
		}
	}
	fmt.Fprintln(w, "### Queries")
	fmt.Fprintln(w)
	for _, q := range r.Queries {
		fmt.Fprintf(w, "- **%s**: %s\n", q.ID, q.Desc)
	}
	fmt.Fprintln(w)
	liveCols := slices.ContainsFunc(r.Read, func(x ReadResult) bool { return x.LiveHeap > 0 })
	head := "| query | file | ms | × | MiB read | × | ReadAt | × | rows decoded | × | peak heap MiB | × |"
	rule := "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
	if liveCols {
		head += " live heap MiB | × |"
		rule += " ---: | ---: |"
	}
	fmt.Fprintln(w, head+" matched |")
	fmt.Fprintln(w, rule+" ---: |")
	for _, x := range r.Read {
		if x.remote() != nil {
			continue // writeRemoteMarkdown
		}
		b, ok := rorc[k{x.Query, x.Codec, x.Parallel}]
		if !ok {
			b, ok = rorc[k{x.Query, x.Codec, 0}]
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %d | %s | %s | %s | %s | %s |",
			x.Query, x.Side,
			msec(x.Seconds), ratio(x.Seconds, b.Seconds, ok),
			mibs(float64(x.BytesRead)), ratio(float64(x.BytesRead), float64(b.BytesRead), ok),
			x.ReadCalls, ratio(float64(x.ReadCalls), float64(b.ReadCalls), ok),
			count(float64(x.RowsDecoded)), ratio(float64(x.RowsDecoded), float64(b.RowsDecoded), ok),
			mibs(float64(x.PeakHeap)), ratio(float64(x.PeakHeap), float64(b.PeakHeap), ok))
		if liveCols {
			fmt.Fprintf(w, " %s | %s |", mibs(float64(x.LiveHeap)), ratio(float64(x.LiveHeap), float64(b.LiveHeap), ok && b.LiveHeap > 0))
		}
		fmt.Fprintf(w, " %d |\n", x.Matched)
	}
	fmt.Fprintln(w)
	writeHTTPMarkdown(w, r)
	writeS3Markdown(w, r)
	writeDecompressMarkdown(w, r)
	if len(r.Mismatches) > 0 {
		fmt.Fprintf(w, "\n**The files disagree:**\n\n- %s\n", strings.Join(r.Mismatches, "\n- "))
	}
}
