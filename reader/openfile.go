package reader

import (
	"fmt"
	"os"

	"github.com/orcgo/orc/format"
)

// WriterID names the software that wrote a file: the footer's writer
// field, such as format.WriterJava.
type WriterID uint32

// String returns the writer's name, such as "ORC Java" or "orcgo", or
// "writer N" for an id this package does not know.
func (w WriterID) String() string { return format.WriterName(uint32(w)) }

// Calendar is the calendar a file's dates and timestamps count days in,
// as its footer records it.
type Calendar int

// The calendars of ORC's footer.
const (
	// CalendarUnknown: not recorded (files of older writers). Apache's
	// readers take the hybrid calendar for them.
	CalendarUnknown Calendar = 0
	// CalendarJulianGregorian: Julian before 1582-10-15, Gregorian after
	// (Hive and older Spark).
	CalendarJulianGregorian Calendar = 1
	// CalendarProlepticGregorian: Gregorian throughout (orcgo, ORC Java
	// with proleptic dates, Spark 3).
	CalendarProlepticGregorian Calendar = 2
)

// String returns "unknown", "julian-gregorian", "proleptic-gregorian" or
// "calendar N".
func (c Calendar) String() string {
	switch c {
	case CalendarUnknown:
		return "unknown"
	case CalendarJulianGregorian:
		return "julian-gregorian"
	case CalendarProlepticGregorian:
		return "proleptic-gregorian"
	}
	return fmt.Sprintf("calendar %d", int(c))
}

// osFile is a file OpenFile opened, which Reader.Close closes.
type osFile struct{ *os.File }

// OpenFile opens the ORC file at path and reads its tail; Close closes
// the file. Errors name the path.
func OpenFile(path string, opts ...Option) (*Reader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	r, err := Open(osFile{f}, fi.Size(), opts...)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

// Close closes the file when OpenFile opened it; for a reader from Open
// it does nothing (the caller owns what it passed). Scans of a closed
// reader fail on their next read.
func (r *Reader) Close() error {
	if f, ok := r.r.(osFile); ok {
		return f.Close()
	}
	return nil
}
