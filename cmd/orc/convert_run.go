package main

// The driver of orc convert: every input in turn (CSV, JSON lines or ORC)
// into one writer, bad rows skipped up to --max-errors, the schema
// inferred from the first rows when --schema is left out.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/ingest"
	"github.com/orcgo/orc/internal/countio"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/writer"
)

// convertInput is one opened text input.
type convertInput struct {
	name    string // as given, "-" for standard input
	format  string
	src     *bufio.Reader
	counter *countio.Reader
	size    int64 // -1 when unknown
	close   func()
	// An ORC input the schema was taken from: kept open for its rows, so
	// that its schema (the writer's) is not read a second time.
	orc *reader.Reader
}

// openTextInput opens a CSV or JSON input, with its byte-order mark
// dropped.
func openTextInput(name, format string) (*convertInput, error) {
	in := &convertInput{name: name, format: format, size: -1, close: func() {}}
	var src io.Reader = os.Stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		in.close = func() { f.Close() }
		src = f
		if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
			// A file that grows while it is read (a log being written)
			// is read as it was when opened: the conversion ends, and
			// its progress is right.
			in.size = st.Size()
			src = io.LimitReader(f, in.size)
		}
	}
	in.counter = &countio.Reader{R: src}
	// A buffer of 1 MiB, or of the file's size when it is smaller (a
	// CSV line of 100,000 columns, 200 KB, took 1 MiB).
	bufSize := 1 << 20
	if in.size >= 0 && in.size < int64(bufSize) {
		bufSize = max(int(in.size), 16)
	}
	in.src = bufio.NewReaderSize(in.counter, bufSize)
	if bom, _ := in.src.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		in.src.Discard(3)
	}
	return in, nil
}

// label prefixes an input's errors with its name when there are several
// inputs or it is a file.
func label(name string, err error) error {
	if name == "-" {
		return err
	}
	return inFile(name, err)
}

// outputWriter is what the output's temporary file is written through: the
// file itself, or in tests a writer that fails as a full disk does.
var outputWriter = func(f *os.File) io.Writer { return f }

// sameFile returns the first of ins that is out, by name or as the same
// file under another name (a link), or "".
func sameFile(out string, ins []string) string {
	outAbs, _ := filepath.Abs(out)
	outSt, outErr := os.Stat(out)
	for _, in := range ins {
		if in == "-" || isURL(in) {
			continue
		}
		if a, err := filepath.Abs(in); err == nil && a == outAbs {
			return in
		}
		if st, err := os.Stat(in); err == nil && outErr == nil && os.SameFile(st, outSt) {
			return in
		}
	}
	return ""
}

// convertFiles runs the conversion. On any error it removes its temporary
// file and leaves out untouched.
func convertFiles(ins, formats []string, out string, opt *convertOptions, stdout, stderr io.Writer) (err error) {
	if err := checkOut("convert", out, ins, opt.overwrite); err != nil {
		return err
	}
	// The first input is opened first: the schema may come from it.
	var first *convertInput
	defer func() {
		if first != nil {
			first.close()
		}
	}()
	if opt.schema == nil {
		if first, err = takeSchema(ins[0], formats[0], out, opt, stderr); err != nil {
			return err
		}
	}
	for i, f := range formats {
		if f == "csv" {
			if err := checkFlatSchema(opt.schema); err != nil {
				return label(ins[i], err)
			}
		}
	}
	if err := checkBloomColumns(opt); err != nil {
		return err
	}
	o, err := createOutput(out)
	if err != nil {
		return err
	}
	// An interrupt must not leave the temporary file (or an upload) behind either.
	stopWatch := abortOnInterrupt(o, stderr)
	size := inputsSize(ins)
	defer boundMemory(size)()
	prog := newProgress(stderr, size)
	defer func() {
		stopWatch()
		if err != nil {
			prog.clear()
			o.abort()
		}
	}()
	bw := outputBuffer(o)
	w, err := writer.NewWriter(bw, opt.schema, opt.writerOpts...)
	if err != nil {
		return err
	}
	// The writer's copy serves from here on, and the schema given (an
	// inferred one, say) can go: 110 bytes a column of a wide input.
	opt.schema = w.Schema()
	for _, kv := range opt.metadata {
		if err := w.AddUserMetadata(kv[0], []byte(kv[1])); err != nil {
			return err
		}
	}
	c := &converter{opt: opt, w: w, prog: prog, stderr: stderr, budget: ingest.ErrorBudget{Max: opt.maxErrors}}
	if err := c.convertAll(ins, formats, &first); err != nil {
		return err
	}
	if c.budget.Skipped > 0 {
		fmt.Fprintf(stderr, "orc convert: skipped %d bad row(s) (--max-errors %d)\n", c.budget.Skipped, opt.maxErrors)
	}
	if err := w.Close(); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := o.commit(); err != nil {
		return err
	}
	prog.done(c.rows, c.bytesDone)
	reportWritten(stdout, c.rows, out, o.written)
	return nil
}

// reportWritten says how many rows went to out and its size (written,
// when out cannot be read back, as a store's object).
func reportWritten(stdout io.Writer, n int64, out string, written int64) {
	size := written
	if st, err := os.Stat(out); err == nil {
		size = st.Size()
	}
	rows := groupDigits(n) + " rows"
	if n == 1 {
		rows = "1 row"
	}
	fmt.Fprintf(stdout, "wrote %s to %s (%s bytes)\n", rows, out, groupDigits(size))
}

// outsideRuntime is what an orc convert process takes beyond the memory
// the Go runtime manages (the program's text and data): a conversion
// held to a runtime memory limit of L peaked at about L + 8 MiB RSS
// (one CSV line of 100,000 integers, limits of 53.5 MiB); 12 MiB keeps
// a margin.
const outsideRuntime = 12 << 20

// boundMemory asks the runtime to keep the memory it manages within the
// bound convert is held to, 64 MiB + 8x the inputs' size (size; -1 when
// unknown: no limit), less outsideRuntime, unless a lower limit is set
// (GOMEMLIMIT), and returns what restores the limit before.
//
// Why: the collector lets the heap grow to twice what it found live at
// its last collection. A wide input's writer holds memory in the number
// of columns whatever its rows (one CSV line of 100,000 integers: 41 MB
// live as it is written, its schema, column writers, statistics, row
// index and the batch), so that the heap reached 70-75 MiB RSS in some
// runs, 62-67 in most. With the limit, the collector runs sooner only
// when the heap nears the bound: that line peaks at 60.7-62.4 MiB RSS,
// for 16-18 collections instead of 11-14 and some 60 ms more of the
// collector's CPU (130 ms against 70, of 0.4 s); a narrow input, whose
// live heap stays far under its bound, collects as before. A conversion
// whose live heap passes the limit (an input far wider than its size
// allows) collects more often still, the runtime holding the collector
// to half the CPU: 100,000 columns read from a 3.5 MB ORC file, 120 MiB
// live against a limit of 80 MiB, took 14-18 collections instead of 7-8,
// in the same CPU time within the noise.
func boundMemory(size int64) (restore func()) {
	if size < 0 || size > 1<<56 {
		return func() {}
	}
	limit := 64<<20 + 8*size - outsideRuntime
	old := debug.SetMemoryLimit(-1)
	if limit >= old {
		return func() {}
	}
	debug.SetMemoryLimit(limit)
	return func() { debug.SetMemoryLimit(old) }
}

// takeSchema sets opt.schema from the first input: an ORC file's schema,
// or one inferred from a text input's first rows, which it returns open
// (its sample read) for the conversion to go on with, and says on stderr
// what it inferred (schemaNote); out is the file being written.
func takeSchema(in, format, out string, opt *convertOptions, stderr io.Writer) (*convertInput, error) {
	if format == "orc" {
		r, closeFn, err := openORC(in)
		if err != nil {
			return nil, label(in, err)
		}
		opt.schema = r.Schema()
		return &convertInput{name: in, format: format, size: -1, close: closeFn, orc: r}, nil
	}
	first, err := openTextInput(in, format)
	if err != nil {
		return nil, err
	}
	var inf ingest.Inference
	if inf, first.src, err = ingest.Infer(first.src, ingest.Format(format), opt.in); err != nil {
		first.close()
		return nil, label(in, err)
	}
	opt.schema, opt.inferredLines = inf.Schema, inf.Lines
	opt.headerGuessed, opt.headerAlone = inf.HeaderGuessed, inf.HeaderAlone
	opt.in.Header = opt.in.Header || inf.HeaderGuessed
	if opt.headerGuessed {
		what := "text above numbers"
		if opt.headerAlone {
			what = "the only line, of distinct names"
		}
		fmt.Fprintf(stderr, "orc convert: %s: the first line is %s: read as the header (--header=false to read it as a row)\n", in, what)
	}
	fmt.Fprintf(stderr, "orc convert: inferred schema: %s\n", schemaNote(opt.schema, out))
	return first, nil
}

// maxSchemaNote is the longest schema text convert prints whole on stderr.
const maxSchemaNote = 2000

// schemaNote returns s's text for stderr: whole up to maxSchemaNote
// bytes, else how many fields of each type the struct has (in the order
// the types first appear) and the command that prints it whole from out. A
// CSV line of 100,000 numbers would otherwise print one line of 1.6 MB.
func schemaNote(s *orc.Schema, out string) string {
	text := s.String()
	if len(text) <= maxSchemaNote || s.Kind != orc.Struct {
		return text
	}
	count := map[string]int{}
	var order []string
	for _, c := range s.Children {
		t := c.String()
		if count[t] == 0 {
			order = append(order, t)
		}
		count[t]++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "a struct of %d fields (", len(s.Children))
	for i, t := range order {
		if i == 4 && len(order) > 5 {
			fmt.Fprintf(&b, ", %d other types", len(order)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		shown := t
		if len(shown) > 60 {
			shown = shown[:57] + "..."
		}
		fmt.Fprintf(&b, "%d %s", count[t], shown)
	}
	fmt.Fprintf(&b, "), %d bytes as text; `orc schema %s` prints it", len(text), out)
	return b.String()
}

// inputsSize returns the inputs' total size, or -1 when one is not a
// regular file (standard input, a pipe) whose size is known.
func inputsSize(ins []string) int64 {
	total := int64(0)
	for _, in := range ins {
		st, err := os.Stat(in)
		if in == "-" || err != nil || !st.Mode().IsRegular() {
			return -1
		}
		total += st.Size()
	}
	return total
}

// abortOnInterrupt aborts the output (no temporary file or upload left)
// and exits on an interrupt until the returned stop is called.
func abortOnInterrupt(o *output, stderr io.Writer) (stop func()) {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	stopSig := make(chan struct{})
	go func() {
		select {
		case <-sig:
			o.abort()
			fmt.Fprintln(stderr, "\norc convert: interrupted")
			os.Exit(130)
		case <-stopSig:
		}
	}()
	return func() {
		signal.Stop(sig)
		close(stopSig)
	}
}

// convertAll writes every input's rows; *first, when not nil, is the
// first input already open (its schema inferred), closed here.
func (c *converter) convertAll(ins, formats []string, first **convertInput) error {
	for i, name := range ins {
		var err error
		if formats[i] == "orc" {
			var r *reader.Reader
			if i == 0 && *first != nil {
				r = (*first).orc // open already: the writer's schema is its
			}
			err = c.copyORC(name, r)
			if r != nil {
				(*first).close()
				*first = nil
			}
		} else {
			in := *first
			if i > 0 || in == nil {
				if in, err = openTextInput(name, formats[i]); err != nil {
					return err
				}
			}
			*first = nil
			err = c.convertText(in)
			in.close()
			c.bytesDone += in.counter.N
		}
		if err != nil {
			return label(name, err)
		}
	}
	return nil
}

// converter writes the rows of every input to one writer.
type converter struct {
	opt       *convertOptions
	w         *writer.Writer
	prog      *progress
	stderr    io.Writer
	rows      int64
	budget    ingest.ErrorBudget // --max-errors: rows skipped
	bytesDone int64              // bytes of the inputs done
}

// convertText writes the rows of a CSV or JSON input.
func (c *converter) convertText(in *convertInput) error {
	opt := c.opt
	// The vectors grow with the rows they take (the reader appends):
	// made at the batch size, one line of 100,000 integers took 8 KB a
	// column of them.
	batch := orc.NewBatch(c.w.Schema(), 0)
	ro := opt.in
	ro.MaxLine = maxTextLine
	ro.Note = func(msg string) { fmt.Fprintf(c.stderr, "orc convert: %s: %s\n", in.name, msg) }
	rd := ingest.NewReader(in.src, ingest.Format(in.format), batch, ro)
	for {
		ok, err := rd.Next()
		if skip, serr := c.budget.Skip(err); skip {
			fmt.Fprintf(c.stderr, "orc convert: %s: %v (row skipped)\n", in.name, err)
			continue
		} else if serr != err {
			return serr
		}
		if err != nil {
			var re *ingest.RowError
			if opt.inferredLines > 0 && errors.As(err, &re) && !errors.Is(err, ingest.ErrInvalidUTF8) {
				// A row past the sample that does not fit the schema
				// inferred from it.
				return fmt.Errorf("%w (the schema was inferred from the first %d lines: give --schema, or more lines with --infer-rows, 0 for all)", err, opt.inferredLines)
			}
			return err
		}
		if !ok {
			break
		}
		c.rows++
		if batch.NumRows++; batch.NumRows == opt.batchSize {
			if err := c.writeBatch(batch, in); err != nil {
				return err
			}
		}
	}
	// The reader is done, and no longer referenced: its columns' builders
	// (some 70 bytes a column) go while the last batch is written.
	if batch.NumRows > 0 {
		return c.writeBatch(batch, in)
	}
	return nil
}

// writeBatch writes batch, read from in, and empties it.
func (c *converter) writeBatch(batch *orc.Batch, in *convertInput) error {
	if err := c.w.Write(batch); err != nil {
		return fmt.Errorf("near row %d: %w", c.rows, err)
	}
	batch.Reset()
	c.prog.update(c.rows, c.bytesDone+in.counter.N)
	return nil
}

// copyORC writes the rows of an ORC input, read as the output's schema
// (columns matched by name, as orc cat of several files does): through r
// when the input is open already (its caller closes it), else opened here.
func (c *converter) copyORC(name string, r *reader.Reader) error {
	if r == nil {
		var closeFn func()
		var err error
		if r, closeFn, err = openORC(name); err != nil {
			return err
		}
		defer closeFn()
	}
	noteEncrypted(r, c.stderr, "convert")
	opts := []reader.ScanOption{reader.WithBatchSize(c.opt.batchSize)}
	if m := missingField(c.w.Schema(), r.Schema(), ""); m != "" && !c.opt.in.FillMissing {
		return fmt.Errorf("the schema's field %q is not a column of this file (%s); --fill-missing writes such fields as nulls", m, r.Schema())
	}
	// The same tree (the writer's schema is the first input's) needs no
	// comparison: its text is 16 bytes a column, made twice.
	if r.Schema() != c.w.Schema() && r.Schema().String() != c.w.Schema().String() {
		if !c.opt.in.Truncate {
			if err := checkORCLengths(r, c.w.Schema()); err != nil {
				return err
			}
		}
		opts = append(opts, reader.WithReadSchema(c.w.Schema()))
	}
	err := r.EachBatch(func(b *orc.Batch) error {
		if err := c.w.Write(b); err != nil {
			return fmt.Errorf("near row %d: %w", c.rows, err)
		}
		c.rows += int64(b.NumRows)
		c.prog.update(c.rows, c.bytesDone)
		return nil
	}, opts...)
	if err != nil {
		return err
	}
	c.bytesDone += r.Size()
	return nil
}

// missingField returns the path of the first field of struct want that
// struct have lacks, matching names as a read schema does (exactly, else
// ignoring case) at every level of nested structs, or "". Each name costs
// constant time where the names match exactly (a map of have's names for a
// wide struct), so that a file of 100,000 columns is not checked in time
// quadratic in them; only a name without an exact match is looked for
// ignoring case, field by field.
func missingField(want, have *orc.Schema, prefix string) string {
	if want.Kind != orc.Struct || have.Kind != orc.Struct {
		return ""
	}
	var exact map[string]int // have's names to their first index, made when needed
	for i, name := range want.FieldNames {
		j := -1
		switch {
		case i < len(have.FieldNames) && have.FieldNames[i] == name && firstAt(have.FieldNames, i, &exact):
			j = i
		case len(have.FieldNames) > 16:
			if exact == nil {
				exact = firstIndexes(have.FieldNames)
			}
			if k, ok := exact[name]; ok {
				j = k
			}
		default:
			j = slices.Index(have.FieldNames, name)
		}
		if j < 0 {
			j = slices.IndexFunc(have.FieldNames, func(n string) bool { return strings.EqualFold(n, name) })
		}
		if j < 0 {
			return prefix + name
		}
		if m := missingField(want.Children[i], have.Children[j], prefix+name+"."); m != "" {
			return m
		}
	}
	return ""
}

// firstAt reports whether names[i] is the first of names with its value:
// true at once when names hold no repeated name, which *exact (made here
// for a wide struct, as firstIndexes) tells.
func firstAt(names []string, i int, exact *map[string]int) bool {
	if len(names) <= 16 {
		return slices.Index(names, names[i]) == i
	}
	if *exact == nil {
		*exact = firstIndexes(names)
	}
	return (*exact)[names[i]] == i
}

// firstIndexes maps each of names to the index it first stands at.
func firstIndexes(names []string) map[string]int {
	m := make(map[string]int, len(names))
	for i, n := range names {
		if _, ok := m[n]; !ok {
			m[n] = i
		}
	}
	return m
}

// checkORCLengths refuses an ORC input some of whose values the output
// schema's varchar(n) and char(n) columns would cut: it reads the file's
// top-level columns that may hold longer values (strings, longer varchars
// and chars) and fails at the first value over n characters. A nested
// varchar or char of another type than the file's is refused unread.
func checkORCLengths(r *reader.Reader, want *orc.Schema) error {
	have := r.Schema()
	if want.Kind != orc.Struct || have.Kind != orc.Struct {
		return nil
	}
	var names []string
	var limits []*orc.Schema
	for i, name := range want.FieldNames {
		j := slices.Index(have.FieldNames, name)
		if j < 0 {
			j = slices.IndexFunc(have.FieldNames, func(n string) bool { return strings.EqualFold(n, name) })
		}
		if j < 0 {
			continue
		}
		w, h := want.Children[i], have.Children[j]
		if p := nestedNarrowing(w, h, name); p != "" {
			return fmt.Errorf("the column %q is %s here and %s in the schema, which may cut its values; --truncate allows that", p, h, w)
		}
		if (w.Kind == orc.Varchar || w.Kind == orc.Char) && w.MaxLength > 0 && mayBeLonger(h, w.MaxLength) {
			names = append(names, have.FieldNames[j])
			limits = append(limits, w)
		}
	}
	if len(names) == 0 {
		return nil
	}
	row := int64(0)
	return r.EachBatch(func(b *orc.Batch) error {
		for k, col := range b.Cols {
			v, ok := col.(*orc.BytesVector)
			if !ok {
				continue
			}
			for i := range b.NumRows {
				if v.IsNull(i) {
					continue
				}
				if s := v.String(i); utf8.RuneCountInString(s) > limits[k].MaxLength {
					return fmt.Errorf("row %d, column %q: %q has %d characters, more than %s holds (--truncate cuts such values)",
						row+int64(i)+1, names[k], ingest.Clip(s), utf8.RuneCountInString(s), limits[k])
				}
			}
		}
		row += int64(b.NumRows)
		return nil
	}, reader.WithColumns(names...))
}

// mayBeLonger reports whether values of type t may be longer than n
// characters.
func mayBeLonger(t *orc.Schema, n int) bool {
	switch t.Kind {
	case orc.String, orc.Binary:
		return true
	case orc.Varchar, orc.Char:
		return t.MaxLength <= 0 || t.MaxLength > n
	}
	return false
}

// nestedNarrowing returns the path of a varchar or char below the top
// level of w whose values from h may be cut, or "".
func nestedNarrowing(w, h *orc.Schema, path string) string {
	for i, c := range w.Children {
		p := path
		if w.Kind == orc.Struct {
			p += "." + w.FieldNames[i]
		}
		var hc *orc.Schema
		switch {
		case w.Kind == orc.Struct && h.Kind == orc.Struct:
			j := slices.IndexFunc(h.FieldNames, func(n string) bool { return strings.EqualFold(n, w.FieldNames[i]) })
			if j < 0 {
				continue
			}
			hc = h.Children[j]
		case w.Kind == h.Kind && i < len(h.Children):
			hc = h.Children[i]
		default:
			continue
		}
		if (c.Kind == orc.Varchar || c.Kind == orc.Char) && c.MaxLength > 0 && mayBeLonger(hc, c.MaxLength) {
			return p
		}
		if q := nestedNarrowing(c, hc, p); q != "" {
			return q
		}
	}
	return ""
}
