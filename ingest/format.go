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
	switch strings.ToLower(flag) {
	case "csv":
		return "csv", nil
	case "json", "jsonl", "ndjson":
		return "json", nil
	case "orc":
		return "orc", nil
	case "":
	default:
		return "", fmt.Errorf("--format %q: want csv, json or orc", flag)
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return "csv", nil
	case ".json", ".jsonl", ".ndjson":
		return "json", nil
	case ".orc":
		return "orc", nil
	}
	if path == "-" {
		return "", errors.New("standard input (-) needs --format csv, json or orc")
	}
	return "", fmt.Errorf("%s: not .csv, .json, .jsonl, .ndjson or .orc: give --format", path)
}
