package ingest

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// InputFormat returns the format of an input to ingest, "csv", "json" (JSON
// Lines) or "orc": the one a --format flag names (csv, json, jsonl, ndjson
// or orc, any case), else the one its path's extension says (.csv, .json,
// .jsonl, .ndjson, .orc). Standard input ("-") has no extension and needs
// the flag.
func InputFormat(flag, path string) (string, error) {
	if flag != "" {
		if f, ok := formatNames[strings.ToLower(flag)]; ok {
			return f, nil
		}
		return "", fmt.Errorf("--format %q: want csv, json or orc", flag)
	}
	if ext := filepath.Ext(path); ext != "" {
		if f, ok := formatNames[strings.ToLower(ext[1:])]; ok {
			return f, nil
		}
	}
	if path == "-" {
		return "", errors.New("standard input (-) needs --format csv, json or orc")
	}
	return "", fmt.Errorf("%s: not .csv, .json, .jsonl, .ndjson or .orc: give --format", path)
}

// formatNames maps each name of an input format, as --format gives it and
// as a file's extension (without its dot), to the format.
var formatNames = map[string]string{
	"csv":    "csv",
	"json":   "json",
	"jsonl":  "json",
	"ndjson": "json",
	"orc":    "orc",
}
