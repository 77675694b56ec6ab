package orccloud_test

import (
	"context"
	"fmt"
	"log"

	"github.com/orcgo/orc"
	orccloud "github.com/orcgo/orc/cloud"
	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

// Reading one object: Open reads its tail with one request; the scan's
// reads are ranged GETs pinned to the object's version.
func ExampleOpen() {
	ctx := context.Background()
	f, err := orccloud.Open(ctx, "s3://my-bucket/trades/part-0.orc?region=eu-west-1")
	if err != nil {
		log.Fatal(err) // names the URL; errors.Is(err, fs.ErrNotExist), orccloud.ErrDenied
	}
	defer f.Close()
	r, err := reader.Open(f, f.Size())
	if err != nil {
		log.Fatal(err)
	}
	br, err := r.NewBatchReader(reader.WithContext(ctx), reader.WithSearchArgument(sarg.MustParse("sym = 'ORCL'")))
	if err != nil {
		log.Fatal(err)
	}
	defer br.Close()
	for b, err := range br.All() {
		if err != nil {
			log.Fatal(err) // a replaced object: errors.Is(err, orccloud.ErrChanged)
		}
		fmt.Println(b.NumRows)
	}
}

// Writing: the ORC writer streams into an upload, which appears only when
// Close succeeds; on any failure Abort leaves no object.
func ExampleCreate() {
	ctx := context.Background()
	up, err := orccloud.Create(ctx, "gs://my-bucket/trades/day=2026-12-07/part-0.orc")
	if err != nil {
		log.Fatal(err)
	}
	schema := orc.MustParseSchema("struct<id:bigint,sym:string>")
	w, err := writer.NewWriter(up, schema, writer.WithCompression(orc.CompressionZstd))
	if err != nil {
		up.Abort()
		log.Fatal(err)
	}
	b := orc.NewBatch(schema, 1024)
	// fill b ...
	if err := w.Write(b); err != nil {
		up.Abort()
		log.Fatal(err)
	}
	if err := w.Close(); err != nil {
		up.Abort()
		log.Fatal(err)
	}
	if err := up.Close(); err != nil { // the object appears here, whole
		log.Fatal(err)
	}
}

// A table: the objects below a prefix, key=value partitions, and the
// statistics index when the table has one.
func ExampleOpenDataset() {
	ctx := context.Background()
	d, store, err := orccloud.OpenDataset(ctx, "azblob://warehouse/lineitem/")
	if err != nil {
		log.Fatal(err)
	}
	defer store.Close()
	sc, err := d.Scan(dataset.WithSearchArgument(sarg.MustParse("l_shipmonth = DATE '1996-03-01'")))
	if err != nil {
		log.Fatal(err)
	}
	defer sc.Close()
	for b, err := range sc.All() {
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(b.NumRows)
	}
}
