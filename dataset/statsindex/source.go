package statsindex

import (
	"io"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

// Source is a dataset as the index sees it: its read schema, its
// partition columns and its files as listed. dataset.Dataset.IndexSource
// returns the one of a dataset; Write, Update and Check read it and do not
// keep it.
type Source struct {
	// Schema is the dataset's read schema, a struct with its column IDs
	// assigned (orc.Schema.Assign).
	Schema *orc.Schema
	// Partitions are the partition columns, a struct, or nil for none.
	Partitions *orc.Schema
	// ByPosition: the files' columns are matched to the read schema's by
	// position, so a file's statistics are not recorded (the entry's
	// columns are unknown).
	ByPosition bool
	// Files are the data files, in any order.
	Files []SourceFile
}

// SourceFile is one data file of a Source.
type SourceFile struct {
	// Name is the slash-separated path below the dataset's root, as
	// dataset.File.Name.
	Name string
	// Size and Version are what the listing reports (dataset.File). An
	// entry is taken over by Update only when both match it, and a
	// Version of "" never matches.
	Size    int64
	Version string
	// Partition holds the file's partition values, one per partition
	// column, in the types sarg.EvalRow takes (nil for NULL).
	Partition []any
	// Open opens the file, checked against the read schema as a scan
	// would check it; c (nil when there is nothing to close) is closed
	// when its footer has been read.
	Open func() (r *reader.Reader, c io.Closer, err error)
}
