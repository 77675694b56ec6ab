package reader_test

// TestScanPeakHeap writes a file of about 1 GB (ZSTD, 64 MiB stripes) and
// scans it whole, half of it, and with two stripes decoded at once,
// measuring the peak live heap. It runs only with ORC_PEAK_HEAP=1 (outside
// -short) and takes a few minutes:
//
//	ORC_PEAK_HEAP=1 go test ./reader -run TestScanPeakHeap -v -timeout 30m
//
// ORC_SCAN_FILE=path keeps the generated file there (and reuses it).

import (
	"encoding/binary"
	"encoding/hex"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

const wideSchema = "struct<id:bigint,qty:int,price:double,amount:decimal(12,2),day:date,ts:timestamp," +
	"flag:string,name:string,comment:string,tags:array<int>>"

// writeBigFile writes rows to path until the file holds at least size bytes.
func writeBigFile(t *testing.T, path string, size int64) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s := orc.MustParseSchema(wideSchema)
	w, err := writer.NewWriter(f, s)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 11))
	words := []string{"furiously", "quickly", "carefully", "blithely", "slyly", "regular", "final", "pending",
		"ironic", "express", "bold", "even", "silent", "unusual", "special", "packages", "deposits", "accounts"}
	b := orc.NewBatch(s, 1024)
	var raw [24]byte
	var hexed [48]byte
	row := int64(0)
	for {
		b.Reset()
		id := b.Cols[0].(*orc.LongVector)
		qty := b.Cols[1].(*orc.LongVector)
		price := b.Cols[2].(*orc.DoubleVector)
		amount := b.Cols[3].(*orc.DecimalVector)
		day := b.Cols[4].(*orc.LongVector)
		ts := b.Cols[5].(*orc.TimestampVector)
		flag := b.Cols[6].(*orc.BytesVector)
		name := b.Cols[7].(*orc.BytesVector)
		comment := b.Cols[8].(*orc.BytesVector)
		tags := b.Cols[9].(*orc.ListVector)
		elems := tags.Elem.(*orc.LongVector)
		tags.Offsets = append(tags.Offsets[:0], 0)
		for i := 0; i < 1024; i++ {
			id.Values = append(id.Values, row)
			qty.Values = append(qty.Values, 1+rng.Int64N(50))
			price.Values = append(price.Values, float64(rng.IntN(10_000_000))/100)
			amount.Values = append(amount.Values, orc.Int128{Lo: uint64(rng.IntN(100_000_000))})
			day.Values = append(day.Values, 8000+rng.Int64N(2500))
			ts.Seconds = append(ts.Seconds, 1_500_000_000+rng.Int64N(200_000_000))
			ts.Nanos = append(ts.Nanos, rng.Int32N(1_000_000)*1000)
			flag.AppendString([]string{"A", "N", "R"}[rng.IntN(3)])
			binary.LittleEndian.PutUint64(raw[0:], rng.Uint64())
			binary.LittleEndian.PutUint64(raw[8:], rng.Uint64())
			binary.LittleEndian.PutUint64(raw[16:], rng.Uint64())
			hex.Encode(hexed[:], raw[:])
			name.Append(hexed[:])
			c := comment.Data
			for k := 3 + rng.IntN(6); k > 0; k-- {
				c = append(append(c, words[rng.IntN(len(words))]...), ' ')
			}
			if len(comment.Offsets) == 0 {
				comment.Offsets = append(comment.Offsets, 0)
			}
			comment.Data = c
			comment.Offsets = append(comment.Offsets, len(c))
			for k := rng.IntN(4); k > 0; k-- {
				elems.Values = append(elems.Values, rng.Int64N(1000))
			}
			tags.Offsets = append(tags.Offsets, int64(len(elems.Values)))
			row++
		}
		amount.Scale = 2
		b.NumRows = 1024
		if err := w.Write(b); err != nil {
			t.Fatal(err)
		}
		if row%(256<<10) == 0 {
			if fi, err := f.Stat(); err != nil {
				t.Fatal(err)
			} else if fi.Size() >= size {
				break
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// scanPeak scans r with opts, forcing a garbage collection every 32
// batches to measure the live heap, and returns the peak above the heap
// before the scan, and the rows read.
func scanPeak(t *testing.T, r *reader.Reader, opts ...reader.ScanOption) (peak uint64, rows int64, elapsed time.Duration) {
	live := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	base := live()
	start := time.Now()
	br, err := r.NewBatchReader(opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer br.Close()
	b := br.NewBatch()
	var maxLive uint64
	for n := 0; ; n++ {
		if err := br.Next(b); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		rows += int64(b.NumRows)
		if n%32 == 0 {
			maxLive = max(maxLive, live())
		}
	}
	elapsed = time.Since(start)
	if maxLive > base {
		peak = maxLive - base
	}
	return peak, rows, elapsed
}

func TestScanPeakHeap(t *testing.T) {
	if testing.Short() || os.Getenv("ORC_PEAK_HEAP") == "" {
		t.Skip("set ORC_PEAK_HEAP=1 to write a 1 GB file and measure the scan's peak heap")
	}
	path := os.Getenv("ORC_SCAN_FILE")
	if path == "" {
		path = filepath.Join(t.TempDir(), "big.orc")
	}
	if _, err := os.Stat(path); err != nil {
		start := time.Now()
		writeBigFile(t, path, 1<<30)
		t.Logf("wrote %s in %v", path, time.Since(start).Round(time.Second))
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	r, err := reader.Open(f, fi.Size())
	if err != nil {
		t.Fatal(err)
	}
	var largest int64
	for _, s := range r.Stripes() {
		largest = max(largest, s.Length())
	}
	t.Logf("file %.1f MiB, %d rows, %d stripes, largest stripe %.1f MiB",
		float64(fi.Size())/(1<<20), r.NumRows(), len(r.Stripes()), float64(largest)/(1<<20))
	mib := func(v uint64) float64 { return float64(v) / (1 << 20) }
	half, halfRows, _ := scanPeak(t, r, reader.WithRange(0, fi.Size()/2))
	whole, rows, el := scanPeak(t, r)
	par, parRows, parEl := scanPeak(t, r, reader.WithParallelism(2))
	t.Logf("whole file: peak live heap %.1f MiB = %.2f x largest stripe, %d rows in %v", mib(whole), float64(whole)/float64(largest), rows, el.Round(time.Millisecond))
	t.Logf("first half: peak live heap %.1f MiB, %d rows", mib(half), halfRows)
	t.Logf("2 stripes at once: peak live heap %.1f MiB = %.2f x largest stripe, %d rows in %v", mib(par), float64(par)/float64(largest), parRows, parEl.Round(time.Millisecond))
	if rows != int64(r.NumRows()) || parRows != rows {
		t.Fatalf("read %d and %d rows, file has %d", rows, parRows, r.NumRows())
	}
	// Bounded by one stripe's buffers: the fetched bytes and what they
	// decode to at once (dictionaries, decompression blocks, a batch).
	if limit := 2*uint64(largest) + 16<<20; whole > limit {
		t.Errorf("peak live heap %.1f MiB over 2 x largest stripe + 16 MiB", mib(whole))
	}
	if limit := 4*uint64(largest) + 32<<20; par > limit {
		t.Errorf("parallel peak live heap %.1f MiB over 4 x largest stripe + 32 MiB", mib(par))
	}
	// Flat in the file's size: the whole file needs no more than its half.
	if float64(whole) > 1.1*float64(half)+4<<20 {
		t.Errorf("peak grows with the file: %.1f MiB for all of it, %.1f MiB for half", mib(whole), mib(half))
	}
}
