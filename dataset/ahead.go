package dataset

// Opening files ahead of the scan.
//
// On an object store every file open is a round trip: reader.Open reads
// the tail with one ReadAt, 10-50 ms away. A scan that opened each file
// when its turn came would pay those round trips one after another, even
// for the files that their footer statistics then rule out without reading
// anything else. So, with WithOpenAhead(n) and n >= 2, the dispatcher
// (Scanner.dispatch) starts the opens of the next files before their scans
// start, each on a goroutine of its own, and hands each job the opening of
// its file:
//
//   - At most n-1 files are opened, or being opened, beyond those whose
//     scan has started; with WithParallelism(p) at most p+n-1 files are open
//     at once.
//   - A job uses its file's opening in file order, so a file that fails to
//     open fails the scan where it comes: every row of the files before it
//     is returned, none of the files after it.
//   - When the unit has a predicate, its footer statistics are checked as
//     soon as the tail is in. If they rule the file out, the file is closed
//     there and the opening carries the file's whole outcome (its
//     statistics and pruning decisions), what a scan of it would return.
//   - Whoever holds an opening closes its file: the job it was handed to,
//     or the dispatcher when the scan stops first. Scanner.Close waits for
//     both, so it waits for the opens in flight (one round trip at most).

import (
	"fmt"
	"io"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/reader"
)

// defaultOpenAhead is WithOpenAhead's default. In BenchmarkOpenAhead (200
// files 20 ms away, footers ruling out all but 3) a scan opening one file
// after another took 4.33 s, with 8 opens in flight 0.76 s, with 32 0.38 s
// (2-core VM): 8 takes most of the gain for at most 7 more open files and
// goroutines.
const defaultOpenAhead = 8

// opening is a file being opened ahead of its scan.
type opening struct {
	done chan struct{} // closed when the fields below are set
	of   *openFile     // the open file, or nil when outcome is set
	// outcome is the file's whole outcome when no scan of it is needed:
	// the error opening it, or its statistics when its footer ruled it
	// out (the file closed).
	outcome *result
}

// release closes the file of an opening nobody will scan, once its open
// has finished.
func (o *opening) release() {
	<-o.done
	if o.of != nil {
		o.of.close()
	}
}

// openAhead starts opening the file of a unit on a goroutine of its own.
func (s *Scanner) openAhead(u unit) *opening {
	o := &opening{done: make(chan struct{})}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer close(o.done)
		select {
		case <-s.stop:
			o.outcome = &result{err: io.EOF} // the scan is closed: its end
			return
		default:
		}
		of, err := s.d.open(u.file)
		if err != nil {
			o.outcome = &result{err: err}
			return
		}
		if u.where != nil {
			if r := s.footerOutcome(u, of); r != nil {
				of.close()
				if r.stats != nil {
					s.add(*r.stats) // the file's whole work, scanned or not
				}
				o.outcome = r
				return
			}
		}
		o.of = of
	}()
	return o
}

// footerOutcome returns what a scan of the unit returns when the file's
// footer statistics rule it out (its statistics, or an error the scan of
// it would return), or nil when the file is to be scanned.
//
// It starts the file's scan as the job would, but on one goroutine, so
// that nothing decodes ahead: a file that the footer rules out starts no
// decoding and reads nothing past its tail. For a file to be scanned this
// is undone and the job starts the scan again with the options as given.
func (s *Scanner) footerOutcome(u unit, of *openFile) *result {
	name := s.d.files[u.file].Name
	br, err := of.r.NewBatchReader(append(s.fileScanOptions(u), reader.WithParallelism(1))...)
	if err != nil {
		return &result{err: fmt.Errorf("dataset: %s: %w", name, err)}
	}
	defer br.Close()
	if br.Stats().FilesSkipped == 0 {
		return nil
	}
	if err := s.checkSchema(name, br); err != nil {
		return &result{err: err}
	}
	switch err := br.Next(orc.NewBatch(br.Schema(), 1)); err {
	case io.EOF:
		st := br.Stats()
		return &result{stats: &st, explain: br.Explain()}
	case nil:
		return nil // rows after all: the job scans them
	default:
		return &result{err: fmt.Errorf("dataset: %s: %w", name, err)}
	}
}
