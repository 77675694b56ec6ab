package main

// orc demo: write a synthetic "orders" table of a few million rows, read it
// back, and print what it cost.

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
	"github.com/orcgo/orc/writer"
)

func init() {
	register(command{name: "demo",
		usage: "demo [--rows 3000000] [--dir DIR] [--keep] [--compression zstd] [--stride 10000] [--batch-size 1024]",
		desc:  "write a synthetic orders file and show what the row index and bloom filters skip",
		run:   runDemo})
}

// ordersSchemaText is the demo table. Every value of row i (0-based) is a
// function of i alone, computed by the order* functions below, so a query
// can work out which rows it must find.
const ordersSchemaText = "struct<order_id:bigint,customer_id:int,order_key:string,status:string," +
	"amount:decimal(12,2),created:timestamp,ship_date:date,comment:string>"

// The demo table's columns, by position in ordersSchemaText.
const (
	colOrderID = iota
	colCustomerID
	colOrderKey
	colStatus
	colAmount
	colCreated
	colShipDate
	colComment
)

// orderStatuses are the status values; statusCutoffs[s] is the percentile
// below which a row gets status s (delivered 70%, shipped 12%, processing
// 8%, pending 5%, cancelled 3%, returned 2%).
var (
	orderStatuses = [...]string{"delivered", "shipped", "processing", "pending", "cancelled", "returned"}
	statusCutoffs = [...]uint64{70, 82, 90, 95, 98, 100}
)

// commentWords is the vocabulary of the comment column (TPC-H flavoured).
var commentWords = [...]string{
	"quick", "careful", "regular", "final", "pending", "express", "ironic", "bold",
	"special", "even", "silent", "furious", "blithely", "slyly", "quietly", "fluffily",
	"deposits", "packages", "requests", "accounts", "instructions", "theodolites", "pinto", "beans",
	"foxes", "ideas", "dependencies", "platelets", "asymptotes", "courts", "dolphins", "excuses",
	"sleep", "wake", "haggle", "nag", "use", "boost", "affix", "detect",
	"integrate", "cajole", "among", "above", "along", "across", "against", "around",
	"the", "the", "the", "of", "of", "and", "and", "to",
	"furiously", "carefully", "boldly", "promptly", "daringly", "evenly", "finally", "always",
}

// ordersEpochMicros is the first order's creation, 2023-01-01 00:00:00 UTC,
// in microseconds; one order is created about every 7 seconds after it.
const (
	ordersEpochMicros = 1672531200 * 1_000_000
	orderGapMicros    = 7_000_000
)

// mix64 is SplitMix64's finalizer: a bijection on 64-bit integers whose
// outputs look random, so distinct inputs give distinct outputs.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// orderHash is row i's random-looking bits, from which its other values
// are drawn.
func orderHash(i int64) uint64 { return mix64(mix64(uint64(i) + 0x9e3779b97f4a7c15)) }

// orderID is row i's order id: ascending from 1.
func orderID(i int64) int64 { return i + 1 }

// orderCustomer is row i's customer id, 1..250,000.
func orderCustomer(i int64) int64 { return customerOf(orderHash(i)) }

func customerOf(h uint64) int64 { return 1 + int64(h%250_000) }

const hexLower = "0123456789abcdef"

// appendOrderKey appends row i's order key, a unique string shaped like a
// version 4 UUID ("3f2a9c1e-07bd-4a51-e2c4-91d0b7f3a6c8"). All 64 bits of a
// bijection of i appear in it, so keys never repeat.
func appendOrderKey(dst []byte, i int64) []byte {
	hi := mix64(uint64(i) ^ 0x5851f42d4c957f2d)
	lo := mix64(hi)
	var h [16]byte
	var l [16]byte
	for k := 15; k >= 0; k-- {
		h[k] = hexLower[hi&15]
		l[k] = hexLower[lo&15]
		hi >>= 4
		lo >>= 4
	}
	dst = append(dst, h[0:8]...)
	dst = append(dst, '-')
	dst = append(dst, h[8:12]...)
	dst = append(dst, '-', '4')
	dst = append(dst, l[0:3]...)
	dst = append(dst, '-')
	dst = append(dst, h[12:16]...)
	dst = append(dst, '-')
	return append(dst, l[3:15]...)
}

// orderStatus is row i's index into orderStatuses.
func orderStatus(i int64) int { return statusOf(orderHash(i)) }

func statusOf(h uint64) int {
	p := (h >> 20) % 100
	for s, c := range statusCutoffs {
		if p < c {
			return s
		}
	}
	return 0
}

// orderAmountCents is row i's amount in cents: mostly 0.99 to 200.98, one
// order in sixteen up to fifty times that.
func orderAmountCents(i int64) int64 { return amountOf(mix64(orderHash(i))) }

// amountOf takes mix64(orderHash(i)), as createdOf and shipDateOf do.
func amountOf(h uint64) int64 {
	c := int64(h%20000) + 99
	if h>>60 == 0 {
		c *= 1 + int64((h>>32)%50)
	}
	return c
}

// orderCreated is row i's creation time (seconds and nanoseconds, a UTC
// wall clock) with microsecond precision; it ascends with i.
func orderCreated(i int64) (sec int64, nanos int32) { return createdOf(i, mix64(orderHash(i))) }

func createdOf(i int64, h2 uint64) (sec int64, nanos int32) {
	us := ordersEpochMicros + i*orderGapMicros + int64((h2>>8)%orderGapMicros)
	return us / 1_000_000, int32(us%1_000_000) * 1000
}

// orderShipDate is row i's ship date in days since 1970-01-01, one to six
// days after creation, or false for orders not shipped (processing,
// pending, cancelled).
func orderShipDate(i int64) (int64, bool) {
	h := orderHash(i)
	h2 := mix64(h)
	sec, _ := createdOf(i, h2)
	return shipDateOf(statusOf(h), sec, h2)
}

func shipDateOf(status int, createdSec int64, h2 uint64) (int64, bool) {
	switch status {
	case 2, 3, 4:
		return 0, false
	}
	return createdSec/86400 + 1 + int64((h2>>16)%6), true
}

// appendOrderComment appends row i's comment, three to twelve words, or
// returns false for the 15% of rows whose comment is null.
func appendOrderComment(dst []byte, i int64) ([]byte, bool) {
	return appendCommentOf(dst, orderHash(i))
}

func appendCommentOf(dst []byte, hash uint64) ([]byte, bool) {
	h := mix64(hash ^ 0x2545f4914f6cdd1d)
	if h%100 < 15 {
		return dst, false
	}
	n := 3 + int((h>>8)%10)
	for w := 0; w < n; w++ {
		h = mix64(h + uint64(w))
		if w > 0 {
			dst = append(dst, ' ')
		}
		dst = append(dst, commentWords[h%uint64(len(commentWords))]...)
	}
	return dst, true
}

// genOrders fills b (of ordersSchemaText) with n rows starting at row
// first, replacing what it held. It allocates only when the batch's
// buffers must grow.
func genOrders(b *orc.Batch, first int64, n int) {
	b.Reset()
	ids := b.Cols[colOrderID].(*orc.LongVector)
	cust := b.Cols[colCustomerID].(*orc.LongVector)
	key := b.Cols[colOrderKey].(*orc.BytesVector)
	status := b.Cols[colStatus].(*orc.BytesVector)
	amount := b.Cols[colAmount].(*orc.DecimalVector)
	created := b.Cols[colCreated].(*orc.TimestampVector)
	ship := b.Cols[colShipDate].(*orc.LongVector)
	comment := b.Cols[colComment].(*orc.BytesVector)
	key.Offsets = append(key.Offsets, 0)
	status.Offsets = append(status.Offsets, 0)
	comment.Offsets = append(comment.Offsets, 0)
	for r := 0; r < n; r++ {
		i := first + int64(r)
		h := orderHash(i)
		h2 := mix64(h)
		st := statusOf(h)
		ids.Values = append(ids.Values, orderID(i))
		cust.Values = append(cust.Values, customerOf(h))
		key.Data = appendOrderKey(key.Data, i)
		key.Offsets = append(key.Offsets, len(key.Data))
		status.Data = append(status.Data, orderStatuses[st]...)
		status.Offsets = append(status.Offsets, len(status.Data))
		amount.Values = append(amount.Values, orc.Int128FromInt64(amountOf(h2)))
		sec, nanos := createdOf(i, h2)
		created.Seconds = append(created.Seconds, sec)
		created.Nanos = append(created.Nanos, nanos)
		day, shipped := shipDateOf(st, sec, h2)
		ship.Values = append(ship.Values, day)
		ship.Nulls.Nulls = append(ship.Nulls.Nulls, !shipped)
		var ok bool
		comment.Data, ok = appendCommentOf(comment.Data, h)
		comment.Offsets = append(comment.Offsets, len(comment.Data))
		comment.Nulls.Nulls = append(comment.Nulls.Nulls, !ok)
	}
	b.NumRows = n
}

// demoFigures are what the demo measured.
type demoFigures struct {
	path                  string
	rows                  int64
	size                  int64
	compression           orc.CompressionKind
	stripes, rowGroups    int
	stride                int
	writeTime, genTime    time.Duration
	readTime              time.Duration
	bytesRead             int64
	readColumns           int
	bloomColumn, bloomFPP string
}

func runDemo(args []string, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	rows := fs.Int64("rows", 3_000_000, "rows to generate")
	dir := fs.String("dir", "", "directory for the file (default: a new temporary directory)")
	keep := fs.Bool("keep", false, "keep the file (and the temporary directory) afterwards")
	compression := fs.String("compression", "zstd", "codec: none, zlib, snappy, lz4 or zstd")
	stride := fs.Int("stride", 10000, "rows per row group")
	batchSize := fs.Int("batch-size", 1024, "rows per batch, writing and reading")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 {
		return errUsage
	}
	if *rows < 1 || *rows > 1<<40 {
		return fmt.Errorf("%w: --rows %d: must be 1..%d", errUsage, *rows, int64(1<<40))
	}
	if *batchSize < 1 || *batchSize > reader.MaxBatchSize {
		return fmt.Errorf("%w: --batch-size %d: must be 1..%d", errUsage, *batchSize, reader.MaxBatchSize)
	}
	codec, err := parseCompression(*compression)
	if err != nil {
		return fmt.Errorf("%w: --compression: %v", errUsage, err)
	}
	if err := checkWriterFlag("stride", *stride, writer.WithRowIndexStride(*stride)); err != nil {
		return err
	}

	d := *dir
	if d == "" {
		if d, err = os.MkdirTemp("", "orc-demo-"); err != nil {
			return err
		}
		if !*keep {
			defer os.RemoveAll(d)
		}
	} else if err := os.MkdirAll(d, 0o755); err != nil {
		return err
	}
	path := filepath.Join(d, "orders.orc")
	if !*keep {
		defer os.Remove(path)
	}

	schema := orc.MustParseSchema(ordersSchemaText)
	fmt.Fprintf(stdout, "orc demo: %s synthetic orders -> %s\n", groupDigits(*rows), path)
	fig := demoFigures{path: path, rows: *rows, compression: codec, stride: *stride,
		bloomColumn: "order_key", bloomFPP: "0.01"}
	if err := demoWrite(path, schema, *batchSize, &fig, codec); err != nil {
		return err
	}
	r, closeFn, err := openORC(path)
	if err != nil {
		return err
	}
	defer closeFn()
	if err := demoScan(r, *batchSize, &fig); err != nil {
		return err
	}
	fig.size = r.Size()
	fig.stripes = len(r.Stripes())
	if s := r.RowIndexStride(); s > 0 {
		for _, st := range r.Stripes() {
			fig.rowGroups += int((st.NumRows + int64(s) - 1) / int64(s))
		}
	}
	printDemo(stdout, schema, &fig, *keep)
	return demoQueries(stdout, r, *batchSize)
}

// demoWrite generates the table and writes it to path with a bloom filter
// on order_key.
func demoWrite(path string, schema *orc.Schema, batchSize int, fig *demoFigures, codec orc.CompressionKind) (err error) {
	start := time.Now()
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<20)
	w, err := writer.NewWriter(bw, schema, writer.WithCompression(codec), writer.WithRowIndexStride(fig.stride),
		writer.WithBloomFilterColumns("order_key"), writer.WithBloomFilterFPP(0.01))
	if err != nil {
		return err
	}
	b := orc.NewBatch(schema, batchSize)
	for first := int64(0); first < fig.rows; first += int64(batchSize) {
		n := int(min(int64(batchSize), fig.rows-first))
		g := time.Now()
		genOrders(b, first, n)
		fig.genTime += time.Since(g)
		if err := w.Write(b); err != nil {
			return err
		}
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	fig.writeTime = time.Since(start)
	return nil
}

// demoScan reads every row and column back and checks the order ids and
// the first key of every batch.
func demoScan(r *reader.Reader, batchSize int, fig *demoFigures) error {
	start := time.Now()
	br, err := r.NewBatchReader(reader.WithBatchSize(batchSize))
	if err != nil {
		return err
	}
	b := br.NewBatch()
	fig.readColumns = len(b.Cols)
	var next int64
	var key []byte
	for {
		if err := br.Next(b); err == io.EOF {
			break
		} else if err != nil {
			return err
		}
		ids := b.Cols[colOrderID].(*orc.LongVector).Values
		for j := 0; j < b.NumRows; j++ {
			if ids[j] != orderID(next+int64(j)) {
				return fmt.Errorf("row %d: order_id %d, want %d", next+int64(j), ids[j], orderID(next+int64(j)))
			}
		}
		key = appendOrderKey(key[:0], next)
		if got := b.Cols[colOrderKey].(*orc.BytesVector).Get(0); string(got) != string(key) {
			return fmt.Errorf("row %d: order_key %q, want %q", next, got, key)
		}
		next += int64(b.NumRows)
	}
	if next != fig.rows {
		return fmt.Errorf("read %d rows back, wrote %d", next, fig.rows)
	}
	fig.readTime = time.Since(start)
	fig.bytesRead = br.Stats().BytesRead
	return nil
}

func perSecond(n int64, d time.Duration) string {
	if d <= 0 {
		return "-"
	}
	return groupDigits(int64(float64(n) / d.Seconds()))
}

func printDemo(w io.Writer, schema *orc.Schema, f *demoFigures, kept bool) {
	fmt.Fprintf(w, "  schema          %s\n", schema)
	fmt.Fprintf(w, "  rows            %s\n", groupDigits(f.rows))
	fmt.Fprintf(w, "  file size       %s bytes (%s)\n", groupDigits(f.size), formatBytes(f.size))
	fmt.Fprintf(w, "  bytes per row   %.2f\n", float64(f.size)/float64(f.rows))
	fmt.Fprintf(w, "  compression     %s\n", f.compression)
	fmt.Fprintf(w, "  stripes         %d\n", f.stripes)
	fmt.Fprintf(w, "  row groups      %s (stride %s)\n", groupDigits(int64(f.rowGroups)), groupDigits(int64(f.stride)))
	fmt.Fprintf(w, "  bloom filter    %s (fpp %s)\n", f.bloomColumn, f.bloomFPP)
	fmt.Fprintf(w, "  write           %.3f s, %s rows/s (of which generating the rows %.3f s)\n",
		f.writeTime.Seconds(), perSecond(f.rows, f.writeTime), f.genTime.Seconds())
	fmt.Fprintf(w, "  read            %.3f s, %s rows/s (full scan of %d columns, %s read)\n",
		f.readTime.Seconds(), perSecond(f.rows, f.readTime), f.readColumns, formatBytes(f.bytesRead))
	if kept {
		fmt.Fprintf(w, "  kept            %s\n", f.path)
	}
}

// fileGroups returns the row groups of the whole file.
func fileGroups(r *reader.Reader) int {
	stride := int64(r.RowIndexStride())
	if stride <= 0 {
		return len(r.Stripes())
	}
	n := 0
	for _, s := range r.Stripes() {
		n += int((s.NumRows + stride - 1) / stride)
	}
	return n
}

// demoQueries runs the demo's pruned queries on the file just written: a
// point lookup of one order_key (bloom filters leave only the row group
// that holds it, plus false positives) and a 0.1% range of created (which
// ascends, so row-group statistics skip the rest). The expected answers come
// from the order* functions, which give any row's values from its row
// number; a wrong answer is an error.
func demoQueries(w io.Writer, r *reader.Reader, batchSize int) error {
	rows := r.NumRows()
	if rows == 0 {
		return nil
	}
	run := func(name, where string, expr sarg.Expr, check func(b *orc.Batch) error, want int64) error {
		return demoQuery(w, r, batchSize, name, where, expr, check, want)
	}
	// Point lookup.
	target := rows * 6173 / 10000
	key := string(appendOrderKey(nil, target))
	err := run("point lookup", fmt.Sprintf("order_key = '%s'", key), sarg.Eq("order_key", sarg.String(key)),
		func(b *orc.Batch) error {
			ids := b.Col("order_id").(*orc.LongVector).Values
			for _, id := range ids[:b.NumRows] {
				if id != orderID(target) {
					return fmt.Errorf("returned order %d, want %d", id, orderID(target))
				}
			}
			return nil
		}, 1)
	if err != nil {
		return err
	}
	// A 0.1% range of the ascending creation time.
	lo := rows * 3 / 10
	hi := lo + max(rows/1000, 1) - 1
	loSec, loNs := orderCreated(lo)
	hiSec, hiNs := orderCreated(hi)
	expr := sarg.Between("created", sarg.Timestamp(loSec, int64(loNs)), sarg.Timestamp(hiSec, int64(hiNs)))
	where := fmt.Sprintf("created BETWEEN TIMESTAMP '%s' AND TIMESTAMP '%s'",
		reader.AppendTimestamp(nil, loSec, loNs), reader.AppendTimestamp(nil, hiSec, hiNs))
	return run("0.1% range", where, expr, func(b *orc.Batch) error {
		ids := b.Col("order_id").(*orc.LongVector).Values
		for _, id := range ids[:b.NumRows] {
			if id < orderID(lo) || id > orderID(hi) {
				return fmt.Errorf("returned order %d outside %d..%d", id, orderID(lo), orderID(hi))
			}
		}
		return nil
	}, hi-lo+1)
}

// demoQuery runs one of the demo's queries, checks each batch and the
// rows returned, and prints what the scan read and skipped.
func demoQuery(w io.Writer, r *reader.Reader, batchSize int, name, where string, expr sarg.Expr, check func(b *orc.Batch) error, want int64) error {
	start := time.Now()
	br, err := r.NewBatchReader(reader.WithSearchArgument(expr), reader.WithExactFilter(true), reader.WithBatchSize(batchSize))
	if err != nil {
		return err
	}
	var got int64
	for b, err := range br.All() {
		if err != nil {
			return err
		}
		if err := check(b); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		got += int64(b.NumRows)
	}
	d := time.Since(start)
	if got != want {
		return fmt.Errorf("%s: %d rows returned, want %d", name, got, want)
	}
	st := br.Stats()
	fmt.Fprintf(w, "\n%s: %s\n", name, where)
	fmt.Fprintf(w, "  rows            %d returned, %s decoded\n", got, groupDigits(st.RowsDecoded))
	// Report the whole file's stripes and row groups: the groups of
	// stripes pruned by their statistics count as skipped.
	allGroups := fileGroups(r)
	read := st.GroupsConsidered - st.GroupsSkipped
	if st.GroupsConsidered == 0 { // no predicate column indexed: every group of the stripes read
		read = allGroups
	}
	fmt.Fprintf(w, "  stripes         %d of %d skipped: %d by stripe statistics, %d with no row group left\n",
		st.StripesSkipped, len(r.Stripes()), st.StripesPruned, st.StripesSkipped-st.StripesPruned)
	fmt.Fprintf(w, "  row groups      %d of %d skipped (%d of them by bloom filters after min/max kept them)\n",
		allGroups-read, allGroups, st.GroupsSkippedByBloom)
	fmt.Fprintf(w, "  read            %s in %d calls (%s of the file; index %s)\n", formatBytes(st.BytesRead),
		st.ReadCalls, percent(st.BytesRead, r.Size()), formatBytes(st.IndexBytesRead))
	fmt.Fprintf(w, "  time            %.3f ms\n", float64(d.Microseconds())/1000)
	return nil
}

// percent formats part/whole with the digits that matter: "59.5%", "3.49%",
// "0.352%".
func percent(part, whole int64) string {
	p := 100 * float64(part) / float64(max(whole, 1))
	switch {
	case p >= 10:
		return fmt.Sprintf("%.1f%%", p)
	case p >= 1:
		return fmt.Sprintf("%.2f%%", p)
	}
	return fmt.Sprintf("%.3f%%", p)
}
