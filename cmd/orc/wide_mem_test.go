package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestConvertWideLineMemory converts one CSV line of 5,000 integers and
// checks the bytes allocated a column (issue 49 item 10: a line of 100,000
// took 2.05 GiB). The batch's vectors grow with the rows instead of being
// made at the batch size (8 KB a column), and the writer's per-column
// state starts small: 30 KB a column before, then 5.6 KB, then 3.5 KB
// (the CSV line cut by ingest itself, less garbage at the writer's Close),
// then 2.7 KB (the writer's streams reused and its footers written in
// parts at Close, integer columns without an encoder of their own, the
// builders of the line's columns in one array), now 2.1 KB (the schema
// used by the writer as given, not copied; no builder kept for a leaf
// column; Validate without a map; the stripe footer's streams and the
// root's type written in parts). The bound keeps a tenth over.
func TestConvertWideLineMemory(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates") // main took 6,438 bytes a column under it
	}
	const cols = 5000
	var head, line strings.Builder
	for i := range cols {
		if i > 0 {
			head.WriteByte(',')
			line.WriteByte(',')
		}
		head.WriteString("c" + strconv.Itoa(i))
		line.WriteString(strconv.Itoa(i))
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "wide.csv")
	if err := os.WriteFile(in, []byte(head.String()+"\n"+line.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if rc := run([]string{"convert", "--header", in, filepath.Join(dir, "wide.orc")}, io.Discard, io.Discard); rc != 0 {
		t.Fatalf("exit %d", rc)
	}
	runtime.ReadMemStats(&after)
	per := int(after.TotalAlloc-before.TotalAlloc) / cols
	t.Logf("%d bytes allocated a column", per)
	if per > 2_310 {
		t.Errorf("%d bytes allocated a column, want at most 2,310", per)
	}
}

// TestConvertWideLineLiveHeap converts one CSV line of 20,000 integers
// three times and checks the least of the three peaks of the live heap a
// column (issue 49 item 10). A goroutine collects garbage and reads the
// heap over and over while a conversion runs: a reading can miss the
// peak, and it can count what is allocated while its collection runs,
// which is why the least of three runs is taken; the writer's state, most
// of the peak, lasts from NewWriter to the end. 2,900-2,980 bytes on main;
// then 1,350-1,760 (1,435-1,586 measured again on a busy machine); now
// 1,180-1,300: smaller column writers and accumulators, and the CSV
// line let go of once read (ingest's renewAfter). A fresh-clone CI run
// measured 1,360 then (a sixth over this machine's). Now 894-997 (main
// 1,064-1,173 measured beside it): a line with no quote is cut by ingest
// itself, not kept by encoding/csv as fields, ends and positions. Now
// 708-806 (main 881 beside it): the writer's column state of 96 bytes
// (integers held without an encoder), its row index one table, its
// streams reused and footers written in parts at Close, the CSV
// builders in one array. Now 556-557 (1db8607 746 beside it): the schema
// not copied by the writer, no builder kept for a leaf column, smaller
// input buffers. The bound keeps a third over that.
func TestConvertWideLineLiveHeap(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	const cols = 20000
	var line strings.Builder
	for i := range cols {
		if i > 0 {
			line.WriteByte(',')
		}
		line.WriteString(strconv.Itoa(i))
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "wide.csv")
	if err := os.WriteFile(in, []byte(line.String()+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	line.Reset()
	least := math.MaxInt
	for k := range 3 {
		out := filepath.Join(dir, fmt.Sprintf("wide%d.orc", k))
		least = min(least, convertPeak(t, in, out)/cols)
	}
	t.Logf("at most %d live bytes a column (the least of 3 runs)", least)
	if least > 740 {
		t.Errorf("at most %d live bytes a column, want at most 740", least)
	}
}

// convertPeak converts in to out and returns the most the live heap grew
// by, in bytes, as a goroutine collecting garbage over and over saw it.
func convertPeak(t *testing.T, in, out string) int {
	base := liveHeapNow()
	stop, done := make(chan struct{}), make(chan uint64)
	go func() {
		var peak uint64
		for {
			select {
			case <-stop:
				done <- peak
				return
			default:
				peak = max(peak, liveHeapNow())
			}
		}
	}()
	rc := run([]string{"convert", in, out}, io.Discard, io.Discard)
	close(stop)
	peak := <-done
	if rc != 0 {
		t.Fatalf("exit %d", rc)
	}
	return int(max(peak, base) - base)
}

// liveHeapNow returns the live heap after a forced collection.
func liveHeapNow() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestConvertWideLineRSS converts one CSV line of 100,000 integers (200 KB)
// as a process (issue 49 item 10) and checks the least peak RSS of three
// runs against the bound the project holds, 64 MiB + 8x the input (65.5
// MiB): 85-88 MiB on 1db8607 (the orc command, /usr/bin/time), 62-68 MiB
// after the writer used the schema it was given rather than a copy,
// ingest kept no builder for a leaf column and the stripe footer went out
// compressed as it grew (a run in a few up to 76, with the collector's
// timing), 60-62 MiB with convert's memory limit at the bound
// (boundMemory). As a child of this test binary, 62-63 MiB; 1db8607
// 86-90. Peaks vary from run to run with the collector's timing, hence
// the least of three.
func TestConvertWideLineRSS(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("three conversions of 100,000 columns as processes")
	}
	const cols = 100000
	var line strings.Builder
	for i := range cols {
		if i > 0 {
			line.WriteByte(',')
		}
		line.WriteString(strconv.Itoa(i % 10))
	}
	line.WriteByte('\n')
	dir := t.TempDir()
	in := filepath.Join(dir, "wide.csv")
	if err := os.WriteFile(in, []byte(line.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	bound := int64(64<<20 + 8*line.Len())
	least := int64(math.MaxInt64)
	for k := range 3 {
		rss, took := runProcess(t, io.Discard, "convert", in, filepath.Join(dir, fmt.Sprintf("wide%d.orc", k)))
		t.Logf("run %d: peak RSS %.1f MiB in %v", k, float64(rss)/(1<<20), took.Round(time.Millisecond))
		least = min(least, rss)
	}
	t.Logf("least peak RSS %.1f MiB, bound %.1f MiB", float64(least)/(1<<20), float64(bound)/(1<<20))
	if least > bound {
		t.Errorf("least peak RSS of three %d bytes, over 64 MiB + 8x the input, %d", least, bound)
	}
}
