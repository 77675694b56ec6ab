package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The commands that write a file (convert, merge) take their arguments in
// one order: inputs first, OUT last, as cp and mv do; "-o OUT" names OUT
// explicitly, and then every argument is an input. An existing OUT is
// replaced only with --overwrite, and never when it is also an input
// (by name or through a link): --overwrite does not replace a file
// being read.

// parseOutArgs parses the flags of a command that writes a file, adding
// its -o flag to fs, and splits the positional arguments into the inputs
// and OUT (outArgs).
func parseOutArgs(fs *flag.FlagSet, args []string) (ins []string, out string, err error) {
	o := fs.String("o", "", "`OUT`: the file to write (default: the last argument; with -o every argument is an input)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return nil, "", err
	}
	return outArgs(pos, *o)
}

// outArgs splits a writing command's positional arguments into its inputs
// and OUT: -o's value when given, else the last argument.
func outArgs(pos []string, o string) (ins []string, out string, err error) {
	if o != "" {
		if len(pos) < 1 {
			return nil, "", errUsage
		}
		return pos, o, nil
	}
	if len(pos) < 2 {
		return nil, "", errUsage
	}
	return pos[:len(pos)-1], pos[len(pos)-1], nil
}

// checkOut refuses an OUT command cmd must not write: standard output, a
// file that is also an input, or an existing file without --overwrite.
// Its errors say which argument is OUT, so that following them cannot
// replace a file meant as an input.
func checkOut(cmd, out string, ins []string, overwrite bool) error {
	if out == "-" {
		return fmt.Errorf("%w: OUT is \"-\": orc %s writes a file (renamed into place when complete), not standard output", errUsage, cmd)
	}
	if f, ok := otherFormats[strings.ToLower(filepath.Ext(out))]; ok {
		return fmt.Errorf("%w: OUT %s is named as %s, but orc %s writes ORC: name it .orc%s", errUsage, out, f.name, cmd, f.hint)
	}
	if isStoreURL(out) {
		return checkStoreOut(cmd, out, ins, overwrite)
	}
	if in := sameFile(out, ins); in != "" {
		return fmt.Errorf("%w: %s is both OUT and an input, the same file: --overwrite never replaces a file being read", errUsage, in)
	}
	if !overwrite {
		if _, err := os.Lstat(out); err == nil {
			return fmt.Errorf("%w: %s exists; it is OUT, the file orc %s writes (its last argument, or -o OUT), and --overwrite replaces it", errUsage, out, cmd)
		}
	}
	return nil
}

// otherFormats are the extensions of formats other than ORC, which an OUT
// is refused under, and where to turn for them.
var otherFormats = map[string]struct{ name, hint string }{
	".parquet": {"Parquet", " (the arrow module's orc2parquet writes Parquet)"},
	".csv":     {"CSV", " (orc cat --format csv prints CSV)"},
	".tsv":     {"TSV", " (orc cat --format tsv prints TSV)"},
	".json":    {"JSON", " (orc cat prints JSON lines)"},
	".jsonl":   {"JSON lines", " (orc cat prints JSON lines)"},
	".ndjson":  {"JSON lines", " (orc cat prints JSON lines)"},
	".avro":    {"Avro", ""},
	".arrow":   {"Arrow", ""},
	".feather": {"Arrow", ""},
}
