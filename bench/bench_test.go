package main

import (
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const smokeRows = 20_000

// expected runs every query over the generated rows themselves: the
// reference the files must agree with.
func expected(t *testing.T, rows int64, seed uint64, queries []*Query) map[string]QueryResult {
	t.Helper()
	out := map[string]QueryResult{}
	for _, q := range queries {
		f := rowFilter{q: q}
		g := NewGenerator(rows, seed)
		var c Chunk
		for g.Next(&c, 3000) {
			f.add(&c)
		}
		out[q.ID] = f.res
	}
	return out
}

// TestSmoke writes a tiny table of each kind with every library and codec,
// runs every query on every file and checks that each file returns the rows
// the generator made, and that the per-column sizes add up.
func TestSmoke(t *testing.T) {
	for _, table := range []string{tableDecimal, tableDouble} {
		t.Run(table, func(t *testing.T) {
			if err := setTable(table); err != nil {
				t.Fatal(err)
			}
			defer setTable(tableDecimal)
			smoke(t)
		})
	}
}

func smoke(t *testing.T) {
	const seed = 7
	dir := t.TempDir()
	queries := makeQueries(smokeRows, seed)
	want := expected(t, smokeRows, seed, queries)
	for _, q := range queries {
		if q.Pred != nil && want[q.ID].Matched == 0 {
			t.Errorf("%s matches no generated row; the query is useless", q.ID)
		}
	}
	if want["Q4"].Matched != 1 {
		t.Errorf("Q4 matched %d rows, want 1", want["Q4"].Matched)
	}
	// rows per row group small enough to give several groups and pages
	cfg := writeConfig{batch: 1000, rowGroupRows: 6000, stripeSize: 64 << 20}
	for _, s := range allSides() {
		path := filepath.Join(dir, s.Lib+"-"+s.Codec+"."+s.Ext)
		_, _, n, err := measureWrite(s, path, smokeRows, seed, cfg)
		if err != nil || n == 0 {
			t.Fatalf("write %s: %d bytes, %v", s.Name(), n, err)
		}
		cs, err := s.columnSizes(path)
		if err != nil {
			t.Fatalf("column sizes of %s: %v", s.Name(), err)
		}
		var sum int64
		for col, x := range cs.Data {
			if x <= 0 {
				t.Errorf("%s: column %s has %d bytes", s.Name(), columns[col].name, x)
			}
			sum += x
		}
		for _, x := range cs.Index {
			sum += x
		}
		if sum > n || sum < n/2 {
			t.Errorf("%s: columns add up to %d bytes of a %d-byte file", s.Name(), sum, n)
		}
		modes := []bool{true}
		if s.Lib == "orcgo" {
			modes = []bool{true, false} // with and without the search argument
		}
		for _, useSarg := range modes {
			orcUseSarg = useSarg
			for _, q := range queries {
				m, err := measureQuery(s, path, q, 777)
				if err != nil {
					t.Fatalf("%s on %s (sarg %v): %v", q.ID, s.Name(), useSarg, err)
				}
				w := want[q.ID]
				if m.res.Matched != w.Matched || m.res.Checksum != w.Checksum {
					t.Errorf("%s on %s (sarg %v): matched %d checksum %x, want %d %x",
						q.ID, s.Name(), useSarg, m.res.Matched, m.res.Checksum, w.Matched, w.Checksum)
				}
				if m.calls == 0 || m.bytes == 0 {
					t.Errorf("%s on %s: no reads counted", q.ID, s.Name())
				}
			}
		}
		orcUseSarg = true
		if s.parallel {
			// the parallel variant on the same file (four Parquet row
			// groups; the orcgo file has one stripe)
			p := *s
			p.Par = 2
			for _, q := range queries {
				m, err := measureQuery(&p, path, q, 777)
				if err != nil {
					t.Fatalf("%s on %s: %v", q.ID, p.Name(), err)
				}
				if w := want[q.ID]; m.res.Matched != w.Matched || m.res.Checksum != w.Checksum {
					t.Errorf("%s on %s: matched %d checksum %x, want %d %x",
						q.ID, p.Name(), m.res.Matched, m.res.Checksum, w.Matched, w.Checksum)
				}
			}
		}
	}
}

// TestRun runs the whole harness once at a tiny scale, as `go run .` does.
func TestRun(t *testing.T) {
	rep, err := run(options{rows: smokeRows, runs: 1, batch: 4096, stripeSize: 64 << 20,
		seed: 3, dir: t.TempDir(), quiet: true, queries: "Q1,Q4,Q6"}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Write) != 7 || len(rep.Read) != 3*7 {
		t.Fatalf("report has %d writes and %d reads, want 7 and 21", len(rep.Write), len(rep.Read))
	}
	writeMarkdown(io.Discard, rep)
	if err := writeJSON(io.Discard, rep); err != nil {
		t.Fatal(err)
	}
}

// TestPruningSkips checks that the Parquet pruning does skip: the point
// lookup and the key range decode fewer rows than the table has.
func TestPruningSkips(t *testing.T) {
	const seed = 11
	dir := t.TempDir()
	queries := makeQueries(smokeRows, seed)
	cfg := writeConfig{batch: 1000, rowGroupRows: 2000, stripeSize: 64 << 20}
	for _, s := range allSides() {
		if s.Lib == "orcgo" || s.Codec != "zstd" {
			continue
		}
		path := filepath.Join(dir, s.Lib+".parquet")
		if _, _, _, err := measureWrite(s, path, smokeRows, seed, cfg); err != nil {
			t.Fatal(err)
		}
		for _, id := range []string{"Q3", "Q4"} {
			q := queries[slices.IndexFunc(queries, func(q *Query) bool { return q.ID == id })]
			m, err := measureQuery(s, path, q, 1000)
			if err != nil {
				t.Fatal(err)
			}
			if m.res.RowsDecoded >= smokeRows/2 {
				t.Errorf("%s on %s decoded %d of %d rows; pruning did not work", id, s.Name(), m.res.RowsDecoded, smokeRows)
			}
		}
	}
}

func TestGeneratorDeterministicAndUnique(t *testing.T) {
	var a, b Chunk
	g1, g2 := NewGenerator(10_000, 5), NewGenerator(10_000, 5)
	seen := map[string]bool{}
	var row int64
	prevKey := int64(0)
	for g1.Next(&a, 999) {
		if !g2.Next(&b, 999) {
			t.Fatal("second generator ended early")
		}
		for col := range numCols {
			if !slices.Equal(a.I64[col], b.I64[col]) || string(a.Str[col].Data) != string(b.Str[col].Data) {
				t.Fatalf("column %s differs between two generators of one seed", columns[col].name)
			}
		}
		for i := 0; i < a.N; i++ {
			u := string(a.Str[cUUID].At(i))
			if len(u) != 36 || seen[u] {
				t.Fatalf("row %d: uuid %q repeated or malformed", row, u)
			}
			seen[u] = true
			if u != UUIDAt(5, row) {
				t.Fatalf("row %d: UUIDAt disagrees with the generator", row)
			}
			k := a.I64[cOrderKey][i]
			if k < prevKey {
				t.Fatalf("row %d: l_orderkey goes down", row)
			}
			if k != orderKeyAtRow(5, row) {
				t.Fatalf("row %d: orderKeyAtRow = %d, generator %d", row, orderKeyAtRow(5, row), k)
			}
			prevKey = k
			if d := a.I64[cShipDate][i]; d < startDate || d > endDate {
				t.Fatalf("row %d: ship date %d out of range", row, d)
			}
			row++
		}
	}
	if row != 10_000 {
		t.Fatalf("generated %d rows, want 10000", row)
	}
}

func TestRanges(t *testing.T) {
	x := []rowRange{{0, 10}, {20, 30}, {40, 50}}
	y := []rowRange{{5, 25}, {45, 60}}
	if got, want := intersect(x, y), []rowRange{{5, 10}, {20, 25}, {45, 50}}; !slices.Equal(got, want) {
		t.Errorf("intersect = %v, want %v", got, want)
	}
	if got, want := union(x, y), []rowRange{{0, 30}, {40, 60}}; !slices.Equal(got, want) {
		t.Errorf("union = %v, want %v", got, want)
	}
}

func TestSetTable(t *testing.T) {
	defer setTable(tableDecimal)
	if err := setTable(tableDouble); err != nil {
		t.Fatal(err)
	}
	if columns[cExtendedPrice].kind != kDouble || columns[cOrderKey].kind != kLong {
		t.Errorf("lineitem-double: l_extendedprice is kind %d, l_orderkey %d", columns[cExtendedPrice].kind, columns[cOrderKey].kind)
	}
	if !strings.Contains(orcSchemaText(), "l_tax:double") {
		t.Errorf("lineitem-double ORC schema %s", orcSchemaText())
	}
	if err := setTable(tableDecimal); err != nil {
		t.Fatal(err)
	}
	if columns[cExtendedPrice].kind != kDecimal || !strings.Contains(orcSchemaText(), "l_tax:decimal(15,2)") {
		t.Errorf("lineitem after lineitem-double: %s", orcSchemaText())
	}
	if setTable("orders") == nil {
		t.Error("setTable(orders) did not fail")
	}
	for _, c := range []int64{0, 1, 7, 99, 100, 4999, 104_949_50, 1<<40 + 3} {
		if got := doubleToCents(centsToDouble(c)); got != c {
			t.Errorf("doubleToCents(centsToDouble(%d)) = %d", c, got)
		}
	}
}
