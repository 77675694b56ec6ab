package main

// orc merge IN... OUT concatenates ORC files without decoding them: the
// stripes of every input are copied byte for byte, in order, and a new
// tail is written (spec.md, the file tail):
//
//	"ORC" | stripes of IN1 | stripes of IN2 | ... | metadata | footer | postscript | 1 byte
//
//   - the footer's stripe list is the inputs' StripeInformation with their
//     offsets moved to where the stripes now lie;
//   - the metadata section (stripe statistics) is the inputs' lists one
//     after another, or left out when an input has none;
//   - the file statistics are the inputs' merged column by column (counts
//     and sums add, min and max widen; what one input does not know the
//     merge does not know either);
//   - user metadata is the union of the inputs' (the first value of a key
//     wins; a different later value is reported).
//
// A stripe's bytes refer to nothing outside the stripe, so they stay valid
// anywhere in a file whose tail says the same of them. The inputs must
// therefore agree on everything the tail says about the stripes: the
// schema (types and attributes), the codec and its block size, the row
// index stride, the file version, the writer, writer version and software
// version (readers decide from them which statistics and bloom filters to
// trust) and the calendar. Encrypted files are refused. Zero-byte files
// (Hive's empty file) hold nothing and are passed over.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"slices"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/reader"
	"github.com/orcgo/orc/stats"
	"google.golang.org/protobuf/proto"
)

func init() {
	register(command{name: "merge", usage: "merge IN... OUT [--overwrite] (or: merge -o OUT IN...)", run: runMerge,
		desc: "concatenate ORC files of one schema and codec by copying their stripes (no re-encoding)",
		help: `The inputs must have the same schema, compression and block size, row index
stride, file version, writer and calendar; the first that differs is named.
The footer gets the stripes at their new offsets, the stripe statistics
one after another and the file statistics merged. OUT is written next to
its final name and renamed into place when complete.

OUT is the last argument, as for convert (or -o OUT, and then every
argument is an input). An existing OUT is refused unless --overwrite is
given, and an OUT that is also an input is refused even then.`})
}

// mergeInput is one opened input.
type mergeInput struct {
	name  string
	r     *reader.Reader
	ra    io.ReaderAt
	close func()
}

func runMerge(args []string, stdout, stderr io.Writer) (err error) {
	fs := flag.NewFlagSet("merge", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addNetFlags(fs)
	overwrite := fs.Bool("overwrite", false, "replace OUT if it exists (never an input)")
	ins, out, err := parseOutArgs(fs, args)
	if err != nil {
		return err
	}
	if err := checkOut("merge", out, ins, *overwrite); err != nil {
		return err
	}
	var inputs []mergeInput
	defer func() {
		for _, in := range inputs {
			in.close()
		}
	}()
	for _, name := range ins {
		r, ra, closeFn, err := openORCAt(name)
		if err != nil {
			return inFile(name, err)
		}
		if r.Size() == 0 {
			closeFn()
			fmt.Fprintf(stderr, "orc merge: %s: empty file (0 bytes), nothing to merge\n", name)
			continue
		}
		inputs = append(inputs, mergeInput{name: name, r: r, ra: ra, close: closeFn})
	}
	if len(inputs) == 0 {
		return errors.New("no input holds an ORC tail (every one is an empty file)")
	}
	for _, in := range inputs[1:] {
		if err := mergeCompatible(inputs[0], in); err != nil {
			return err
		}
	}
	for _, in := range inputs {
		if in.r.Tail().Footer.GetEncryption() != nil {
			return fmt.Errorf("%s: has encrypted columns, which orc merge does not copy", in.name)
		}
	}

	dst, err := createOutput(out)
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			dst.abort()
		}
	}()
	bw := outputBuffer(dst)
	rows, stripes, err := writeMerged(bw, inputs, stderr)
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if err := dst.commit(); err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "merged %d files (%s rows, %d stripes) into %s\n", len(inputs), groupDigits(rows), stripes, out)
	return err
}

// mergeCompatible reports the first way in which b's stripes cannot go
// into a file with a's tail.
func mergeCompatible(a, b mergeInput) error {
	ta, tb := a.r.Tail(), b.r.Tail()
	fa, fb := ta.Footer, tb.Footer
	differ := func(what string, va, vb any) error {
		return fmt.Errorf("%s: %s %v differs from %v in %s: orc merge copies stripes as they are, so the files must agree",
			b.name, what, vb, va, a.name)
	}
	typesA, err := ta.Types()
	if err != nil {
		return fmt.Errorf("%s: %w", a.name, err)
	}
	typesB, err := tb.Types()
	if err != nil {
		return fmt.Errorf("%s: %w", b.name, err)
	}
	if !slices.EqualFunc(typesA, typesB, func(x, y *orcpb.Type) bool { return proto.Equal(x, y) }) {
		return differ("the schema", a.r.Schema(), b.r.Schema())
	}
	switch {
	case ta.Compression != tb.Compression:
		return differ("the compression", ta.Compression, tb.Compression)
	case ta.Compression != orc.CompressionNone && ta.BlockSize != tb.BlockSize:
		return differ("the compression block size", ta.BlockSize, tb.BlockSize)
	case a.r.RowIndexStride() != b.r.RowIndexStride():
		return differ("the row index stride", a.r.RowIndexStride(), b.r.RowIndexStride())
	case ta.Version != tb.Version:
		return differ("the file version", ta.Version, tb.Version)
	case fa.GetWriter() != fb.GetWriter():
		return differ("the writer", format.WriterName(fa.GetWriter()), format.WriterName(fb.GetWriter()))
	case ta.WriterVersion() != tb.WriterVersion():
		return differ("the writer version", ta.WriterVersion().String(), tb.WriterVersion().String())
	case fa.GetSoftwareVersion() != fb.GetSoftwareVersion():
		return differ("the software version", fmt.Sprintf("%q", fa.GetSoftwareVersion()), fmt.Sprintf("%q", fb.GetSoftwareVersion()))
	case fa.GetCalendar() != fb.GetCalendar():
		return differ("the calendar", fa.GetCalendar(), fb.GetCalendar())
	}
	return nil
}

// writeMerged writes the merged file to w and returns its rows and
// stripes.
func writeMerged(w io.Writer, inputs []mergeInput, stderr io.Writer) (rows int64, nstripes int, err error) {
	first := inputs[0].r
	t0 := first.Tail()
	if _, err := io.WriteString(w, format.Magic); err != nil {
		return 0, 0, err
	}
	types, err := t0.Types()
	if err != nil {
		return 0, 0, fmt.Errorf("%s: %w", inputs[0].name, err)
	}
	nodes := first.Schema().Columns()
	m := &merger{w: w, stderr: stderr, offset: int64(len(format.Magic)),
		footer: &orcpb.Footer{
			HeaderLength:    proto.Uint64(uint64(len(format.Magic))),
			Types:           types,
			RowIndexStride:  t0.Footer.RowIndexStride,
			Writer:          t0.Footer.Writer,
			SoftwareVersion: t0.Footer.SoftwareVersion,
			Calendar:        t0.Footer.Calendar,
		},
		meta: &orcpb.Metadata{}, withStripeStats: true,
		nodes: nodes, fileStats: make([]stats.Column, len(nodes)), statsKnown: true,
		winfo: stats.WriterInfoFromTail(t0.PostScript, t0.Footer), keys: map[string][]byte{}}
	for k, in := range inputs {
		if err := m.add(k, in); err != nil {
			return 0, 0, err
		}
	}
	if err := m.writeTail(t0); err != nil {
		return 0, 0, err
	}
	return m.rows, len(m.footer.Stripes), nil
}

// merger is the state of writeMerged: the output so far and what its
// tail will hold.
type merger struct {
	w      io.Writer
	stderr io.Writer
	offset int64 // of the next byte written
	rows   int64
	footer *orcpb.Footer
	meta   *orcpb.Metadata
	nodes  []*orc.Schema
	winfo  stats.WriterInfo
	keys   map[string][]byte // user metadata kept, by key
	// The merged file keeps stripe and file statistics only while every
	// input has them.
	withStripeStats, statsKnown bool
	fileStats                   []stats.Column
}

// add appends input k's stripes, merges its statistics and keeps its user
// metadata.
func (m *merger) add(k int, in mergeInput) error {
	t := in.r.Tail()
	md, err := t.DecodeMetadata()
	if err != nil {
		return fmt.Errorf("%s: %w", in.name, err)
	}
	ss := md.GetStripeStats()
	if len(ss) != len(t.Footer.GetStripes()) {
		if m.withStripeStats && len(t.Footer.GetStripes()) > 0 {
			fmt.Fprintf(m.stderr, "orc merge: %s has no stripe statistics: the merged file has none\n", in.name)
		}
		m.withStripeStats = m.withStripeStats && len(t.Footer.GetStripes()) == 0
	}
	for i, si := range t.Footer.GetStripes() {
		length := int64(si.GetIndexLength() + si.GetDataLength() + si.GetFooterLength())
		start := int64(si.GetOffset())
		if start < 0 || length < 0 || start > in.r.Size()-length {
			return fmt.Errorf("%s: stripe %d: %w: %d bytes at offset %d pass the end of the file", in.name, i, orc.ErrCorrupt, length, start)
		}
		if _, err := io.Copy(m.w, io.NewSectionReader(in.ra, start, length)); err != nil {
			return fmt.Errorf("%s: stripe %d: %w", in.name, i, err)
		}
		nsi := proto.Clone(si).(*orcpb.StripeInformation)
		nsi.Offset = proto.Uint64(uint64(m.offset))
		m.footer.Stripes = append(m.footer.Stripes, nsi)
		m.offset += length
		m.rows += int64(si.GetNumberOfRows())
		if i < len(ss) {
			m.meta.StripeStats = append(m.meta.StripeStats, ss[i])
		}
	}
	if err := m.mergeStats(k, in, t); err != nil {
		return err
	}
	for _, it := range t.Footer.GetMetadata() {
		if v, ok := m.keys[it.GetName()]; ok {
			if string(v) != string(it.GetValue()) {
				fmt.Fprintf(m.stderr, "orc merge: %s: user metadata %q differs from an earlier input's: the first value is kept\n", in.name, it.GetName())
			}
			continue
		}
		m.keys[it.GetName()] = it.GetValue()
		m.footer.Metadata = append(m.footer.Metadata, it)
	}
	return nil
}

// mergeStats merges input k's file statistics into the merged file's.
func (m *merger) mergeStats(k int, in mergeInput, t *format.Tail) error {
	if t.NumStatistics() != len(m.nodes) {
		if m.statsKnown {
			fmt.Fprintf(m.stderr, "orc merge: %s has no file statistics: the merged file has none\n", in.name)
		}
		m.statsKnown = false
	}
	if !m.statsKnown {
		return nil
	}
	for id := range m.nodes {
		pb, err := t.Statistics(id)
		if err != nil {
			return fmt.Errorf("%s: %w", in.name, err)
		}
		c := stats.FromProto(pb, m.nodes[id], m.winfo)
		if k == 0 {
			m.fileStats[id] = c
		} else {
			m.fileStats[id].Merge(&c)
		}
	}
	return nil
}

// writeTail writes the merged file's metadata, footer and postscript, in
// the first input's codec.
func (m *merger) writeTail(t0 *format.Tail) error {
	footer := m.footer
	footer.ContentLength = proto.Uint64(uint64(m.offset))
	footer.NumberOfRows = proto.Uint64(uint64(m.rows))
	if m.statsKnown {
		for id := range m.nodes {
			pb := m.fileStats[id].Proto()
			if !m.fileStats[id].HasNullKnown {
				pb.HasNull = nil // as the inputs: not recorded
			}
			footer.Statistics = append(footer.Statistics, pb)
		}
	}
	comp, err := newTailCompressor(t0)
	if err != nil {
		return err
	}
	var metaBytes []byte
	if m.withStripeStats {
		if metaBytes, err = comp.message(m.meta); err != nil {
			return err
		}
	}
	footerBytes, err := comp.message(footer)
	if err != nil {
		return err
	}
	ps := &orcpb.PostScript{
		FooterLength:         proto.Uint64(uint64(len(footerBytes))),
		Compression:          t0.PostScript.Compression,
		CompressionBlockSize: t0.PostScript.CompressionBlockSize,
		Version:              t0.PostScript.GetVersion(),
		MetadataLength:       proto.Uint64(uint64(len(metaBytes))),
		WriterVersion:        t0.PostScript.WriterVersion,
		Magic:                proto.String(format.Magic),
	}
	psBytes, err := proto.Marshal(ps)
	if err != nil {
		return err
	}
	if len(psBytes) > 255 {
		return fmt.Errorf("postscript of %d bytes exceeds 255", len(psBytes))
	}
	for _, b := range [][]byte{metaBytes, footerBytes, psBytes, {byte(len(psBytes))}} {
		if _, err := m.w.Write(b); err != nil {
			return err
		}
	}
	return nil
}

// tailCompressor compresses tail sections with a file's codec.
type tailCompressor struct {
	out *format.OutStream // nil for no compression
}

func newTailCompressor(t *format.Tail) (*tailCompressor, error) {
	if t.Compression == orc.CompressionNone {
		return &tailCompressor{}, nil
	}
	c, err := format.NewBlockCompressor(t.Compression, 0, t.BlockSize)
	if err != nil {
		return nil, fmt.Errorf("cannot write the tail: %w", err)
	}
	return &tailCompressor{out: format.NewOutStream(t.Compression, t.BlockSize, c)}, nil
}

// message returns m marshalled and compressed.
func (tc *tailCompressor) message(m proto.Message) ([]byte, error) {
	raw, err := proto.Marshal(m)
	if err != nil {
		return nil, err
	}
	if tc.out == nil {
		return raw, nil
	}
	tc.out.Reset()
	if _, err := tc.out.Write(raw); err != nil {
		return nil, err
	}
	if err := tc.out.Flush(); err != nil {
		return nil, err
	}
	return slices.Clone(tc.out.Bytes()), nil
}
