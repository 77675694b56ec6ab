package main

import (
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// A decimal column compares with an integer column as SQL compares
// numbers, exactly, in both orders and through statistics and rows
// (issue 48, item 17).
func TestCompareDecimalWithInteger(t *testing.T) {
	dir := t.TempDir()
	in := writeFile(t, dir, "in.jsonl", `{"id": 1, "price": 2.50, "qty": 2}
{"id": 2, "price": 3.00, "qty": 3}
{"id": 3, "price": 0.99, "qty": 1}
{"id": 4, "price": null, "qty": 1}
{"id": 5, "price": -1.01, "qty": -2}
`)
	f := filepath.Join(dir, "a.orc")
	mustConvert(t, "--schema", "struct<id:int,price:decimal(10,2),qty:bigint>", in, f)
	for _, tc := range []struct{ where, ids string }{
		{"price > qty", "1,5"},
		{"qty < price", "1,5"},
		{"price = qty", "2"},
		{"qty = price", "2"},
		{"price <= qty", "2,3"},
		{"price <> qty", "1,3,5"},
		{"price BETWEEN qty AND id", "5"},
	} {
		out, _, err := runCmd(t, "scan", f, "--where", tc.where, "--columns", "id")
		if err != nil {
			t.Errorf("%s: %v", tc.where, err)
			continue
		}
		var ids []string
		for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
			if line != "" {
				ids = append(ids, strings.TrimSuffix(strings.TrimPrefix(line, `{"id": `), "}"))
			}
		}
		if got := strings.Join(ids, ","); got != tc.ids {
			t.Errorf("%s: ids %s, want %s", tc.where, got, tc.ids)
		}
		cnt, _, err := runCmd(t, "count", f, "--where", tc.where)
		if want := len(ids); err != nil || !strings.HasPrefix(cnt, strconv.Itoa(want)+"\t") {
			t.Errorf("count %s: %v %q, want %d", tc.where, err, cnt, want)
		}
	}
}
