package reader_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/sarg"
)

// rangeLog is a file of this machine that records every read's offset and
// length (its Fd method makes Open take it for one).
type rangeLog struct {
	f     *os.File
	mu    sync.Mutex
	reads []string
}

func (l *rangeLog) ReadAt(p []byte, off int64) (int, error) {
	l.mu.Lock()
	l.reads = append(l.reads, fmt.Sprintf("%d+%d", off, len(p)))
	l.mu.Unlock()
	return l.f.ReadAt(p, off)
}

func (l *rangeLog) Fd() uintptr { return l.f.Fd() }

func (l *rangeLog) take() []string { return takeSorted(&l.mu, &l.reads) }

// localRangeLog writes data to a file of the test's temporary directory
// and opens it as a rangeLog, which the test closes at its end.
func localRangeLog(t *testing.T, data []byte) *rangeLog {
	t.Helper()
	path := filepath.Join(t.TempDir(), "f.orc")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return &rangeLog{f: f}
}

// ioStats is the part of a scan's statistics that says what it read and
// decided, without what depends on timing (how long it waited, how many
// requests were in flight at once, which were issued before the decoder
// asked for them).
func ioStats(st reader.ScanStats) reader.ScanStats {
	st.ReadWait, st.PeakReadsInFlight, st.ReadsAhead = 0, 0, 0
	return st
}

// TestRepeatedScansSameRequests: whether a scan reads ahead is declared by
// what the file is and the options, never guessed from how long reads
// took, so three scans with the same options make the same requests and
// count the same statistics: of a file of this machine, and over loopback
// servers answering at once and after 5 ms, serially and on 2 and 3
// goroutines, for a full scan, a narrow range and a point lookup. Over
// HTTP the narrow range and the lookup, read ahead, fetch at most 1.5
// times the bytes they read from the local file (the requests' unplanned
// bytes stay within half their planned ones: wasteFitsLocked).
func TestRepeatedScansSameRequests(t *testing.T) {
	const rows = 200_000
	data := storeTable(t, rows)
	log := localRangeLog(t, data)
	local, err := reader.Open(log, int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	log.take() // Open's
	type source struct {
		name  string
		r     *reader.Reader
		taken func() []string
	}
	sources := []source{{"local file", local, log.take}}
	for _, lat := range []time.Duration{0, 5 * time.Millisecond} {
		srv := newStoreServer(t, data, lat)
		r := openStore(t, srv)
		srv.takeRanges()
		sources = append(sources, source{fmt.Sprintf("http %v", lat), r, srv.takeRanges})
	}
	queries := []string{"", fmt.Sprintf("k BETWEEN %d AND %d", rows/2, rows/2+rows/1000), "uuid = '" + storeUUID(rows*5/8) + "'"}
	localBytes := map[string]int64{}
	for _, src := range sources {
		for _, where := range queries {
			for _, par := range []int{1, 2, 3} {
				opts := []reader.ScanOption{reader.WithParallelism(par)}
				if where != "" {
					opts = append(opts, reader.WithSearchArgument(sarg.MustParse(where)), reader.WithExactFilter(true))
				}
				var firstReads []string
				var firstStats reader.ScanStats
				var firstSum uint64
				for run := range 3 {
					sum, _, st := storeScan(t, src.r, opts...)
					reads := src.taken()
					if run == 0 {
						firstReads, firstStats, firstSum = reads, ioStats(st), sum
						continue
					}
					if sum != firstSum {
						t.Fatalf("%s %q on %d goroutines, run %d: other rows", src.name, where, par, run)
					}
					if !slices.Equal(reads, firstReads) {
						t.Errorf("%s %q on %d goroutines, run %d: %d requests %v\nrun 0: %d requests %v", src.name, where, par, run,
							len(reads), reads, len(firstReads), firstReads)
					}
					if got := ioStats(st); got != firstStats {
						t.Errorf("%s %q on %d goroutines, run %d: statistics\n%v\nrun 0:\n%v", src.name, where, par, run, got, firstStats)
					}
				}
				t.Logf("%s %q on %d goroutines: %d requests, %d bytes", src.name, where, par, firstStats.ReadCalls, firstStats.BytesRead)
				key := fmt.Sprintf("%s %d", where, par)
				if src.r == local {
					localBytes[key] = firstStats.BytesRead
				} else if where != "" && firstStats.BytesRead*2 > localBytes[key]*3 {
					t.Errorf("%s %q on %d goroutines: %d bytes, over 1.5 times the local file's %d", src.name, where, par,
						firstStats.BytesRead, localBytes[key])
				}
			}
		}
	}
}
