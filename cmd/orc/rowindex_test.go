package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc/writer"
)

// orc meta --rowindex: an entry per row group and stripe with its
// statistics and positions, and bloom filter summaries; names or ids; an
// unknown column names the flag.
func TestMetaRowIndex(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.orc")
	writeStrided(t, path, 0, 1000, 100, 500, writer.WithBloomFilterColumns("v"))
	out, _, err := runCmd(t, "meta", "--json", "--rowindex", "id,2", path)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Stripes []struct {
			RowIndex []metaRowIndex `json:"rowIndex"`
		} `json:"stripes"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Stripes) != 2 {
		t.Fatalf("%d stripes", len(doc.Stripes))
	}
	for si, s := range doc.Stripes {
		if len(s.RowIndex) != 2 || s.RowIndex[0].Name != "id" || s.RowIndex[1].Name != "v" {
			t.Fatalf("stripe %d: %+v", si, s.RowIndex)
		}
		for ci, ri := range s.RowIndex {
			if len(ri.Entries) != 5 {
				t.Fatalf("stripe %d column %s: %d entries", si, ri.Name, len(ri.Entries))
			}
			for g, e := range ri.Entries {
				if e.Group != g || e.FirstRow != int64(g*100) || e.Rows != 100 || e.Statistics == nil || e.Statistics.Count != 100 {
					t.Errorf("stripe %d column %s group %d: %+v", si, ri.Name, g, e)
				}
				if g > 0 && (len(e.Positions) == 0 || e.Positions[0] == 0) {
					t.Errorf("stripe %d column %s group %d: positions %v", si, ri.Name, g, e.Positions)
				}
				if ci == 0 {
					lo := float64(si*500 + g*100)
					if e.Statistics.Min != lo || e.Statistics.Max != lo+99 || e.BloomFilter != nil {
						t.Errorf("stripe %d group %d: min %v max %v bloom %v", si, g, e.Statistics.Min, e.Statistics.Max, e.BloomFilter)
					}
				} else if b := e.BloomFilter; b == nil || b.HashFunctions < 1 || b.Bits%64 != 0 || b.BitsSet < 100 || b.BitsSet > b.Bits || b.FalsePositive <= 0 || b.FalsePositive > 0.1 {
					t.Errorf("stripe %d group %d: bloom %+v", si, g, e.BloomFilter)
				}
			}
		}
	}
	out, _, err = runCmd(t, "meta", "--rowindex", "v", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"  Row index, column 2 v:\n    group 0 (rows 0..99): count=100 hasNull=false min=\"v0\" max=\"v99\"",
		"    group 4 (rows 400..499): count=100 hasNull=false min=\"v400\" max=\"v499\"", "      bloom filter: "} {
		if !strings.Contains(out, w) {
			t.Errorf("text lacks %q:\n%s", w, out)
		}
	}
	for _, bad := range []string{"nope", "7", "-1"} {
		if _, _, err := runCmd(t, "meta", "--rowindex", bad, path); err == nil || !strings.Contains(err.Error(), "--rowindex") {
			t.Errorf("--rowindex %s: %v", bad, err)
		}
	}
	if _, _, err := runCmd(t, "meta", "--rowindex", "id", "--no-stripes", path); err == nil {
		t.Errorf("--rowindex with --no-stripes: no error")
	}
}
