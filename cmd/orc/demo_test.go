package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

func TestDemo(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	if err := runDemo([]string{"--rows", "50000", "--dir", dir, "--keep", "--batch-size", "777"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, w := range []string{"rows            50,000", "compression     ZSTD", "row groups      5 (stride 10,000)",
		"bloom filter    order_key", "bytes per row", "rows/s", "stripes", "kept"} {
		if !strings.Contains(text, w) {
			t.Errorf("output lacks %q:\n%s", w, text)
		}
	}
	path := filepath.Join(dir, "orders.orc")
	r, closeFn, err := openORC(path)
	if err != nil {
		t.Fatal(err)
	}
	defer closeFn()
	if r.NumRows() != 50000 || r.Compression() != orc.CompressionZstd {
		t.Fatalf("%d rows, %s", r.NumRows(), r.Compression())
	}
	d, err := r.StripeDetail(0)
	if err != nil {
		t.Fatal(err)
	}
	bloom := false
	for _, s := range d.Streams {
		bloom = bloom || (s.Column == colOrderKey+1 && strings.HasPrefix(s.Kind, "BLOOM_FILTER"))
	}
	if !bloom {
		t.Error("no bloom filter on order_key")
	}
	// Every value read back equals what the generator makes for that row.
	br, err := r.NewBatchReader(reader.WithBatchSize(1000))
	if err != nil {
		t.Fatal(err)
	}
	got := br.NewBatch()
	want := orc.NewBatch(orc.MustParseSchema(ordersSchemaText), 1000)
	var gl, wl []byte
	for first := int64(0); ; first += int64(got.NumRows) {
		if err := br.Next(got); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		genOrders(want, first, got.NumRows)
		for i := 0; i < got.NumRows; i++ {
			gl = reader.AppendJSONRow(gl[:0], got, i)
			wl = reader.AppendJSONRow(wl[:0], want, i)
			if !bytes.Equal(gl, wl) {
				t.Fatalf("row %d:\n got %s\nwant %s", first+int64(i), gl, wl)
			}
		}
	}
}

func TestDemoRemovesFiles(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	if err := runDemo([]string{"--rows", "1000", "--dir", dir, "--compression", "snappy"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "rows            1,000") || !strings.Contains(out.String(), "SNAPPY") {
		t.Errorf("output:\n%s", out.String())
	}
	if names := dirNames(t, dir); len(names) != 0 {
		t.Errorf("left behind without --keep: %v", names)
	}

	// Without --dir: a temporary directory, removed afterwards.
	out.Reset()
	if err := runDemo([]string{"--rows", "10"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	first, _, _ := strings.Cut(out.String(), "\n")
	_, path, ok := strings.Cut(first, "-> ")
	if !ok || !strings.HasSuffix(path, "orders.orc") {
		t.Fatalf("no path in %q", first)
	}
	if _, err := os.Stat(filepath.Dir(path)); !os.IsNotExist(err) {
		t.Errorf("temporary directory %s still there (%v)", filepath.Dir(path), err)
	}
}

func TestDemoUsage(t *testing.T) {
	for _, args := range [][]string{{"--rows", "0"}, {"--rows", "x"}, {"extra"}, {"--compression", "lzo"}, {"--batch-size", "0"}} {
		if err := runDemo(args, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "usage") {
			t.Errorf("%q: err %v, want a usage error", args, err)
		}
	}
	if err := runDemo([]string{"--rows", "10", "--stride", "7", "--dir", t.TempDir()}, io.Discard, io.Discard); err == nil {
		t.Error("stride 7: no error")
	}
}

// TestOrderGenerator checks the generated table's promises: unique
// UUID-shaped keys, ascending ids and creation times, amounts inside
// decimal(12,2), ship dates exactly for shipped orders, the status and null
// mix, and rows that depend only on their number.
func TestOrderGenerator(t *testing.T) {
	const n = 200_000
	schema := orc.MustParseSchema(ordersSchemaText)
	b := orc.NewBatch(schema, n)
	genOrders(b, 0, n)
	keys := make(map[string]bool, n)
	var statusCount [len(orderStatuses)]int
	nullComments := 0
	key := b.Cols[colOrderKey].(*orc.BytesVector)
	status := b.Cols[colStatus].(*orc.BytesVector)
	created := b.Cols[colCreated].(*orc.TimestampVector)
	ship := b.Cols[colShipDate].(*orc.LongVector)
	comment := b.Cols[colComment].(*orc.BytesVector)
	amount := b.Cols[colAmount].(*orc.DecimalVector)
	cust := b.Cols[colCustomerID].(*orc.LongVector)
	prev := int64(-1 << 62)
	for i := 0; i < n; i++ {
		k := key.String(i)
		if len(k) != 36 || k[8] != '-' || k[13] != '-' || k[14] != '4' || k[18] != '-' || k[23] != '-' || strings.Trim(k, "0123456789abcdef-") != "" {
			t.Fatalf("row %d: key %q is not UUID-shaped", i, k)
		}
		if keys[k] {
			t.Fatalf("row %d: key %q repeats", i, k)
		}
		keys[k] = true
		if id := b.Cols[colOrderID].(*orc.LongVector).Values[i]; id != int64(i)+1 {
			t.Fatalf("row %d: order_id %d", i, id)
		}
		if c := cust.Values[i]; c < 1 || c > 250_000 {
			t.Fatalf("row %d: customer %d", i, c)
		}
		us := created.Seconds[i]*1_000_000 + int64(created.Nanos[i])/1000
		if us <= prev || created.Nanos[i]%1000 != 0 {
			t.Fatalf("row %d: created %d.%09d not after the previous row, or finer than microseconds", i, created.Seconds[i], created.Nanos[i])
		}
		prev = us
		if a := amount.Values[i]; a.Sign() <= 0 || a.Cmp(orc.Pow10(12)) >= 0 {
			t.Fatalf("row %d: amount %s", i, orc.FormatDecimal(a, 2))
		}
		s := -1
		for j, name := range orderStatuses {
			if status.String(i) == name {
				s = j
			}
		}
		if s < 0 {
			t.Fatalf("row %d: status %q", i, status.String(i))
		}
		statusCount[s]++
		shipped := s != 2 && s != 3 && s != 4
		if ship.IsNull(i) == shipped {
			t.Fatalf("row %d: status %s, ship_date null %v", i, orderStatuses[s], ship.IsNull(i))
		}
		if day := created.Seconds[i] / 86400; shipped && (ship.Values[i] < day+1 || ship.Values[i] > day+6) {
			t.Fatalf("row %d: shipped on day %d, created on day %d", i, ship.Values[i], day)
		}
		// The per-row functions, for queries, agree with the batch.
		sec, nanos := orderCreated(int64(i))
		day, shipOK := orderShipDate(int64(i))
		cm, cmOK := appendOrderComment(nil, int64(i))
		if cust.Values[i] != orderCustomer(int64(i)) || s != orderStatus(int64(i)) ||
			amount.Values[i] != orc.Int128FromInt64(orderAmountCents(int64(i))) ||
			sec != created.Seconds[i] || nanos != created.Nanos[i] || shipOK != shipped ||
			(shipOK && day != ship.Values[i]) || cmOK == comment.IsNull(i) || (cmOK && string(cm) != comment.String(i)) {
			t.Fatalf("row %d: the order* functions disagree with genOrders", i)
		}
		if comment.IsNull(i) {
			nullComments++
		} else if w := len(strings.Fields(comment.String(i))); w < 3 || w > 12 {
			t.Fatalf("row %d: %d words in %q", i, w, comment.String(i))
		}
	}
	for s, c := range statusCount {
		share := uint64(100 * c / n)
		lo := uint64(0)
		if s > 0 {
			lo = statusCutoffs[s-1]
		}
		if want := statusCutoffs[s] - lo; share+1 < want || share > want+1 {
			t.Errorf("status %s: %d%% of rows, want about %d%%", orderStatuses[s], share, want)
		}
	}
	if share := 100 * nullComments / n; share < 14 || share > 16 {
		t.Errorf("%d%% null comments, want about 15%%", share)
	}

	// A batch started elsewhere holds the same rows.
	b2 := orc.NewBatch(schema, 10)
	genOrders(b2, 12345, 10)
	var l1, l2 []byte
	for i := 0; i < 10; i++ {
		l1 = reader.AppendJSONRow(l1[:0], b, 12345+i)
		l2 = reader.AppendJSONRow(l2[:0], b2, i)
		if !bytes.Equal(l1, l2) {
			t.Fatalf("row %d differs by batch:\n%s\n%s", 12345+i, l1, l2)
		}
	}
}

func BenchmarkGenOrders(b *testing.B) {
	schema := orc.MustParseSchema(ordersSchemaText)
	batch := orc.NewBatch(schema, 1024)
	genOrders(batch, 0, 1024)
	b.SetBytes(int64(len(batch.Cols[colOrderKey].(*orc.BytesVector).Data) + len(batch.Cols[colComment].(*orc.BytesVector).Data) + 1024*40))
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		genOrders(batch, int64(i)*1024, 1024)
	}
}

// The demo reports the whole file's stripes and row groups for both
// queries, with stripes pruned by statistics and groups pruned by bloom
// filters apart.
func TestDemoWholeFileCounts(t *testing.T) {
	var out bytes.Buffer
	if err := runDemo([]string{"--rows", "60000", "--stride", "1000"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	var totals []string
	for _, line := range strings.Split(out.String(), "\n") {
		// The query reports' lines ("N of TOTAL skipped ...").
		if strings.HasPrefix(line, "  row groups ") && strings.Contains(line, " skipped") {
			f := strings.Fields(line)
			totals = append(totals, f[4])
		}
		if strings.HasPrefix(line, "  stripes ") && strings.Contains(line, " skipped") && !strings.Contains(line, "by stripe statistics") {
			t.Errorf("stripe line without the split: %q", line)
		}
	}
	if len(totals) != 2 || totals[0] != "60" || totals[1] != "60" {
		t.Fatalf("row-group totals %v, want the file's 60 for both queries:\n%s", totals, out.String())
	}
}
