package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/internal/rowfmt"
)

// Output formats of cat and scan (--format): JSON lines, CSV, TSV, or a
// table for a terminal, printed by package rowfmt (shared with
// orc-iceberg). Timestamps with local time zone (instants) are printed in
// --timezone with their offset, in every format; timestamps without zone
// are wall clocks and print as stored.

// outputOptions are the flags that shape printed rows.
type outputOptions struct {
	format string // json, csv, tsv or table
	zone   *time.Location
	wkbHex bool // geometry as WKB in hex, not WKT (orc cat --wkb-hex)
	// columns are the --columns asked: csv, tsv and table print a nested
	// field asked by its path as a column of that name.
	columns []string
}

// outputFlags are --format and --timezone.
type outputFlags struct{ format, zone *string }

func addOutputFlags(fs *flag.FlagSet) outputFlags {
	return outputFlags{
		format: fs.String("format", rowfmt.JSON, rowfmt.FormatUsage),
		zone:   fs.String("timezone", "UTC", rowfmt.ZoneUsage),
	}
}

// parse checks the flags.
func (f outputFlags) parse() (outputOptions, error) { return parseOutputFlags(*f.format, *f.zone) }

// parseOutputFlags checks --format and --timezone.
func parseOutputFlags(format, zone string) (outputOptions, error) {
	o, err := rowfmt.ParseOptions(format, zone)
	if err != nil {
		return outputOptions{}, fmt.Errorf("%w: %v", errUsage, err)
	}
	return outputOptions{format: o.Format, zone: o.Zone}, nil
}

// newFormatter returns the formatter of o for rows of schema s.
func newFormatter(o outputOptions, s *orc.Schema) rowfmt.Formatter {
	return rowfmt.New(rowfmt.Options{Format: o.format, Zone: o.zone, WKBHex: o.wkbHex, Columns: o.columns}, s)
}
