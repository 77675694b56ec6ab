package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/writer"
)

// metaJSONKeys is every key path orc meta --json prints for the files of
// TestMetaJSONKeys ("[]" for an array element). It may grow; a key that
// changes or goes away breaks users' scripts.
var metaJSONKeys = []string{
	"calendar", "columns", "columns[].encrypted", "columns[].id", "columns[].kind", "columns[].name",
	"columns[].statistics", "columns[].statistics.count", "columns[].statistics.hasNull",
	"columns[].statistics.max", "columns[].statistics.maxChildren", "columns[].statistics.min",
	"columns[].statistics.minChildren", "columns[].statistics.sum", "columns[].statistics.totalChildren",
	"columns[].statistics.totalLength", "columns[].statistics.trueCount", "columns[].type",
	"compression", "compressionBlockSize", "file", "rowIndexStride", "rows", "schema", "size",
	"softwareVersion", "stripes", "stripes[].dataLength", "stripes[].encodings", "stripes[].encodings[].bloomEncoding",
	"stripes[].encodings[].column", "stripes[].encodings[].dictionarySize", "stripes[].encodings[].kind",
	"stripes[].footerLength", "stripes[].index", "stripes[].indexLength", "stripes[].offset", "stripes[].rows",
	"stripes[].statistics", "stripes[].statistics[].column", "stripes[].statistics[].count",
	"stripes[].statistics[].hasNull", "stripes[].statistics[].max", "stripes[].statistics[].maxChildren",
	"stripes[].statistics[].min", "stripes[].statistics[].minChildren", "stripes[].statistics[].sum",
	"stripes[].statistics[].totalChildren", "stripes[].statistics[].totalLength", "stripes[].statistics[].trueCount",
	"stripes[].streams", "stripes[].streams[].column", "stripes[].streams[].kind", "stripes[].streams[].length",
	"stripes[].streams[].offset", "stripes[].writerTimezone", "userMetadata", "userMetadata[].key",
	"userMetadata[].value", "version", "writer", "writerVersion",
	"columns[].statistics.bytesOnDisk", "stripes[].statistics[].bytesOnDisk",
	"stripes[].rowIndex", "stripes[].rowIndex[].column", "stripes[].rowIndex[].name", "stripes[].rowIndex[].entries",
	"stripes[].rowIndex[].entries[].group", "stripes[].rowIndex[].entries[].firstRow", "stripes[].rowIndex[].entries[].rows",
	"stripes[].rowIndex[].entries[].statistics", "stripes[].rowIndex[].entries[].statistics.count",
	"stripes[].rowIndex[].entries[].statistics.hasNull", "stripes[].rowIndex[].entries[].statistics.min",
	"stripes[].rowIndex[].entries[].statistics.max", "stripes[].rowIndex[].entries[].statistics.sum",
	"stripes[].rowIndex[].entries[].statistics.totalLength", "stripes[].rowIndex[].entries[].positions",
	"stripes[].rowIndex[].entries[].bloomFilter", "stripes[].rowIndex[].entries[].bloomFilter.hashFunctions",
	"stripes[].rowIndex[].entries[].bloomFilter.bits", "stripes[].rowIndex[].entries[].bloomFilter.bitsSet",
	"stripes[].rowIndex[].entries[].bloomFilter.falsePositive", "stripes[].rowIndex[].note", "stripes[].rowIndex[].entries[].bloomFilter.note",
	"stripes[].rowIndex[].entries[].bloomFilter.stream", "stripes[].rowIndex[].entries[].bloomFilter.layout",
	"stripes[].rowIndex[].entries[].bloomFilter.expectedEntries", "stripes[].rowIndex[].entries[].bloomFilter.fpp",
	// Not in these files:
	"columns[].statistics.lowerBound", "columns[].statistics.upperBound",
	"stripes[].statistics[].lowerBound", "stripes[].statistics[].upperBound",
}

// metaJSONKeysElsewhere are the keys of metaJSONKeys the test files lack
// (encrypted columns, dictionary encodings, truncated string bounds).
var metaJSONKeysElsewhere = []string{"columns[].encrypted", "stripes[].rowIndex[].note", "stripes[].rowIndex[].entries[].bloomFilter.note",
	"stripes[].rowIndex[].entries[].bloomFilter.layout", "stripes[].rowIndex[].entries[].bloomFilter.expectedEntries",
	"stripes[].rowIndex[].entries[].bloomFilter.fpp", "stripes[].encodings[].dictionarySize",
	"columns[].statistics.lowerBound", "columns[].statistics.upperBound",
	"stripes[].statistics[].lowerBound", "stripes[].statistics[].upperBound",
}

// keyPaths adds the key paths of v to set, and reports any key that is
// not camelCase.
func keyPaths(t *testing.T, v any, prefix string, set map[string]bool) {
	camel := regexp.MustCompile(`^[a-z][a-zA-Z0-9]*$`)
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if !camel.MatchString(k) {
				t.Errorf("key %q at %q is not camelCase", k, prefix)
			}
			p := k
			if prefix != "" {
				p = prefix + "." + k
			}
			set[p] = true
			keyPaths(t, x, p, set)
		}
	case []any:
		for _, x := range v {
			keyPaths(t, x, prefix+"[]", set)
		}
	}
}

// orc meta --json: camelCase keys throughout, the documented and stable
// key set, enums as names.
func TestMetaJSONKeys(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "rows.jsonl", strings.Join(nestedRows, "\n")+"\n")
	nested := filepath.Join(dir, "nested.orc")
	mustConvert(t, "--schema", nestedSchema, "--bloom-columns", "id,name", in, nested)

	// A file with user metadata and a tinyint column.
	withMeta := filepath.Join(dir, "meta.orc")
	s := orc.MustParseSchema("struct<a:tinyint>")
	f, err := os.Create(withMeta)
	if err != nil {
		t.Fatal(err)
	}
	w, err := writer.NewWriter(f, s)
	if err != nil {
		t.Fatal(err)
	}
	b := orc.NewBatch(s, 1)
	b.Cols[0].(*orc.LongVector).Append(7)
	b.NumRows = 1
	if err := w.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := w.AddUserMetadata("k", []byte("v")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()

	set := map[string]bool{}
	enumRE := map[string]*regexp.Regexp{
		"calendar":      regexp.MustCompile(`^(UNKNOWN_CALENDAR|JULIAN_GREGORIAN|PROLEPTIC_GREGORIAN)$`),
		"compression":   regexp.MustCompile(`^(NONE|ZLIB|SNAPPY|LZO|LZ4|ZSTD|BROTLI)$`),
		"writerVersion": regexp.MustCompile(`^(ORIGINAL|HIVE_\d+|ORC_\d+|FUTURE\(\d+\))$`),
	}
	for _, args := range [][]string{{"--rowindex", "id,name", nested}, {withMeta}} {
		path := args[len(args)-1]
		var out bytes.Buffer
		if err := runMeta(append([]string{"--json"}, args...), &out, &bytes.Buffer{}); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(out.String(), `\u003c`) {
			t.Errorf("the schema's < is escaped")
		}
		var doc map[string]any
		if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
			t.Fatalf("%s: %v\n%s", path, err, out.String())
		}
		keyPaths(t, doc, "", set)
		for k, re := range enumRE {
			if s, ok := doc[k].(string); !ok || !re.MatchString(s) {
				t.Errorf("%s: %s is %v, want a name", path, k, doc[k])
			}
		}
		for _, st := range doc["stripes"].([]any) {
			st := st.(map[string]any)
			for _, x := range st["streams"].([]any) {
				if k, _ := x.(map[string]any)["kind"].(string); !regexp.MustCompile(`^[A-Z_0-9]+$`).MatchString(k) {
					t.Errorf("stream kind %v", x)
				}
			}
			for _, x := range st["encodings"].([]any) {
				if k, _ := x.(map[string]any)["kind"].(string); !regexp.MustCompile(`^(DIRECT|DICTIONARY)(_V2)?$`).MatchString(k) {
					t.Errorf("encoding kind %v", x)
				}
			}
		}
		for _, c := range doc["columns"].([]any) {
			if k, _ := c.(map[string]any)["kind"].(string); !orcKindName(k) {
				t.Errorf("column kind %v", c)
			}
		}
	}
	var got []string
	for k := range set {
		got = append(got, k)
	}
	sort.Strings(got)
	want := slices.Clone(metaJSONKeys)
	sort.Strings(want)
	{
		for _, k := range got {
			if !slices.Contains(want, k) {
				t.Errorf("new key %q: add it to metaJSONKeys and the comment in meta.go", k)
			}
		}
		for _, k := range want {
			if !slices.Contains(got, k) && !slices.Contains(metaJSONKeysElsewhere, k) {
				t.Errorf("key %q is gone", k)
			}
		}
	}
}

func orcKindName(s string) bool {
	for k := orc.Boolean; k.Valid(); k++ {
		if k.String() == s {
			return true
		}
	}
	return false
}
