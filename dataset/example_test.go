package dataset_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"sync"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// exampleTable writes a small partitioned table: region=eu and region=us,
// each with a file of 3 stripes.
func exampleTable() string {
	dir, err := os.MkdirTemp("", "orcgo-example")
	if err != nil {
		log.Fatal(err)
	}
	s := orc.MustParseSchema("struct<id:bigint,amount:double>")
	for _, region := range []string{"eu", "us"} {
		var buf bytes.Buffer
		w, _ := writer.NewWriter(&buf, s, writer.WithStripeRowLimit(1000))
		b := orc.NewBatch(s, 3000)
		for i := range 3000 {
			b.Cols[0].(*orc.LongVector).Values = append(b.Cols[0].(*orc.LongVector).Values, int64(i))
			b.Cols[1].(*orc.DoubleVector).Values = append(b.Cols[1].(*orc.DoubleVector).Values, float64(i)/4)
		}
		b.NumRows = 3000
		if err := w.Write(b); err != nil {
			log.Fatal(err)
		}
		w.Close()
		p := filepath.Join(dir, "region="+region, "part-0.orc")
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, buf.Bytes(), 0o644)
	}
	return dir
}

// countRows scans a dataset (or some splits of it) and counts the rows.
func countRows(s *dataset.Scanner) int64 {
	defer s.Close()
	var n int64
	b := s.NewBatch()
	for {
		err := s.Next(b)
		if err == io.EOF {
			return n
		}
		if err != nil {
			log.Fatal(err)
		}
		n += int64(b.NumRows)
	}
}

// A scan with a predicate on a partition column opens only the files of
// the matching directories.
func Example() {
	dir := exampleTable()
	defer os.RemoveAll(dir)
	files, err := dataset.Dir(dir)
	if err != nil {
		log.Fatal(err)
	}
	d, err := dataset.New(files, dataset.WithPartitioning(orc.MustParseSchema("struct<region:string>")))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(d.Schema())
	s, err := d.Scan(
		dataset.WithSearchArgument(sarg.And(sarg.Eq("region", sarg.String("us")), sarg.Lt("id", sarg.Int(10)))),
		dataset.WithExactFilter(true))
	if err != nil {
		log.Fatal(err)
	}
	n := countRows(s)
	st := s.Stats()
	fmt.Printf("%d rows; %d files opened, %d pruned by partition\n", n, st.FilesOpened, st.FilesPrunedByPartition)
	// Output:
	// struct<id:bigint,amount:double,region:string>
	// 10 rows; 1 files opened, 1 pruned by partition
}

// Splits divide a dataset between workers: here n goroutines, each taking
// every n-th split. Processes do the same with the splits as JSON: a
// coordinator calls Splits and hands each worker its share.
func ExampleDataset_Splits() {
	dir := exampleTable()
	defer os.RemoveAll(dir)
	files, _ := dataset.Dir(dir)
	d, err := dataset.New(files)
	if err != nil {
		log.Fatal(err)
	}
	splits, err := d.Splits(1) // a stripe each: 6 splits
	if err != nil {
		log.Fatal(err)
	}
	// A split is plain data: JSON carries it to another process.
	js, _ := json.Marshal(splits[0])
	var back dataset.Split
	if err := json.Unmarshal(js, &back); err != nil || back != splits[0] {
		log.Fatal("split JSON round trip: ", err)
	}
	fmt.Printf("%d splits; the first: %s from byte %d, %d rows\n", len(splits), back.File, back.Offset, back.Rows)

	const workers = 3
	var total int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []dataset.Split
			for i := w; i < len(splits); i += workers {
				mine = append(mine, splits[i])
			}
			s, err := d.Scan(dataset.WithSplits(mine...))
			if err != nil {
				log.Fatal(err)
			}
			n := countRows(s)
			mu.Lock()
			total += n
			mu.Unlock()
		}()
	}
	wg.Wait()
	fmt.Println(total, "rows, each once")
	// Output:
	// 6 splits; the first: region=eu/part-0.orc from byte 3, 1000 rows
	// 6000 rows, each once
}

// objectStore stands in for an S3, GCS or Azure client: what a dataset
// needs of one is a listing and a ranged read.
type objectStore struct{ objects map[string][]byte }

// rangeReader is an io.ReaderAt over one object: each ReadAt is one ranged
// GET. With the AWS SDK it would call GetObject with
// Range: fmt.Sprintf("bytes=%d-%d", off, off+int64(len(p))-1) and read the
// body into p; with cloud.google.com/go/storage, NewRangeReader(ctx, off,
// len(p)).
type rangeReader struct {
	store *objectStore
	key   string
}

func (r rangeReader) ReadAt(p []byte, off int64) (int, error) {
	obj := r.store.objects[r.key]
	if off >= int64(len(obj)) {
		return 0, io.EOF
	}
	n := copy(p, obj[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

// Files in an object store: the client lists the keys and FromOpeners turns
// each into a File whose Opener returns a ranged reader and the object's
// size (from the listing or a HEAD request).
func ExampleFromOpeners() {
	dir := exampleTable()
	defer os.RemoveAll(dir)
	store := &objectStore{objects: map[string][]byte{}}
	local, _ := dataset.Dir(dir)
	var keys []string
	for _, f := range local { // upload the example table
		ra, size, c, _ := f.Open()
		data := make([]byte, size)
		ra.ReadAt(data, 0)
		c.Close()
		store.objects["warehouse/t/"+f.Name] = data
		keys = append(keys, "warehouse/t/"+f.Name)
	}
	files := dataset.FromOpeners(keys, func(key string) (io.ReaderAt, int64, io.Closer, error) {
		return rangeReader{store, key}, int64(len(store.objects[key])), nil, nil
	})
	d, err := dataset.New(files, dataset.WithPartitioning(orc.MustParseSchema("struct<region:string>")))
	if err != nil {
		log.Fatal(err)
	}
	s, _ := d.Scan(dataset.WithSearchArgument(sarg.Eq("region", sarg.String("eu"))))
	fmt.Println(countRows(s), "rows in region=eu")
	// Output:
	// 3000 rows in region=eu
}
