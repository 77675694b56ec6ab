package testutil

import (
	"bytes"
	"errors"
	"fmt"

	"github.com/orcgo/orc"
	"github.com/orcgo/orc/format"
	"github.com/orcgo/orc/format/orcpb"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// Structure-aware mutation of an ORC file's tail: byte-level fuzzing rarely
// builds a valid protobuf tail with one field set to an extreme (a wrapped
// 64-bit sum, a huge claimed count), so MutateTail decodes the tail of a
// valid file, sets one integer field anywhere in one section to a chosen
// value and encodes the file again.

// Sections of the tail MutateTail edits.
const (
	SecFooter = iota
	SecStripeFooter
	SecPostScript
	SecMetadata
	NumSections
)

// fieldRef is one integer field (or list element) of a decoded message.
type fieldRef struct {
	msg protoreflect.Message
	fd  protoreflect.FieldDescriptor
	idx int // list index, or -1
}

// intFields lists the integer fields set in m, nested messages included.
func intFields(m protoreflect.Message) []fieldRef {
	var out []fieldRef
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsMap():
		case fd.IsList():
			l := v.List()
			for i := 0; i < l.Len(); i++ {
				if fd.Kind() == protoreflect.MessageKind {
					out = append(out, intFields(l.Get(i).Message())...)
				} else if isIntKind(fd.Kind()) {
					out = append(out, fieldRef{m, fd, i})
				}
			}
		case fd.Kind() == protoreflect.MessageKind:
			out = append(out, intFields(v.Message())...)
		case isIntKind(fd.Kind()):
			out = append(out, fieldRef{m, fd, -1})
		}
		return true
	})
	return out
}

func isIntKind(k protoreflect.Kind) bool {
	switch k {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Uint32Kind, protoreflect.Int64Kind,
		protoreflect.Sint64Kind, protoreflect.Uint64Kind, protoreflect.Fixed32Kind, protoreflect.Fixed64Kind,
		protoreflect.Sfixed32Kind, protoreflect.Sfixed64Kind, protoreflect.EnumKind:
		return true
	}
	return false
}

// set stores v in the field, cut to the field's width.
func (f fieldRef) set(v uint64) {
	var pv protoreflect.Value
	switch f.fd.Kind() {
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind:
		pv = protoreflect.ValueOfInt32(int32(v))
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		pv = protoreflect.ValueOfUint32(uint32(v))
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		pv = protoreflect.ValueOfInt64(int64(v))
	case protoreflect.EnumKind:
		pv = protoreflect.ValueOfEnum(protoreflect.EnumNumber(int32(v)))
	default:
		pv = protoreflect.ValueOfUint64(v)
	}
	if f.idx >= 0 {
		f.msg.Mutable(f.fd).List().Set(f.idx, pv)
	} else {
		f.msg.Set(f.fd, pv)
	}
}

// tailParts is a file cut around its first stripe's footer and its tail.
type tailParts struct {
	data       []byte
	tail       *format.Tail
	sfStart    uint64 // first stripe's footer
	sfEnd      uint64
	metaStart  uint64
	stripeFoot *orcpb.StripeFooter
	footer     *orcpb.Footer   // whole, types and statistics included
	meta       *orcpb.Metadata // nil when none
}

func split(data []byte) (*tailParts, error) {
	tail, err := format.ReadTail(bytes.NewReader(data), int64(len(data)), format.TailOptions{})
	if err != nil {
		return nil, err
	}
	if tail.Compression != orc.CompressionNone || len(tail.Footer.GetStripes()) != 1 {
		return nil, errors.New("testutil: MutateTail needs an uncompressed file of one stripe")
	}
	si := tail.Footer.GetStripes()[0]
	p := &tailParts{data: data, tail: tail}
	p.sfStart = si.GetOffset() + si.GetIndexLength() + si.GetDataLength()
	p.sfEnd = p.sfStart + si.GetFooterLength()
	p.metaStart = uint64(tail.FooterStart) - tail.PostScript.GetMetadataLength()
	p.stripeFoot = &orcpb.StripeFooter{}
	if err := proto.Unmarshal(data[p.sfStart:p.sfEnd], p.stripeFoot); err != nil {
		return nil, err
	}
	if p.footer, err = tail.FullFooter(); err != nil {
		return nil, err
	}
	if p.meta, err = tail.DecodeMetadata(); err != nil {
		return nil, err
	}
	return p, nil
}

// message returns the section's message, a copy MutateTail may change.
func (p *tailParts) message(section int) (proto.Message, error) {
	switch section {
	case SecFooter:
		return proto.Clone(p.footer), nil
	case SecStripeFooter:
		return proto.Clone(p.stripeFoot), nil
	case SecPostScript:
		return proto.Clone(p.tail.PostScript), nil
	case SecMetadata:
		if p.meta == nil {
			return &orcpb.Metadata{}, nil
		}
		return proto.Clone(p.meta), nil
	}
	return nil, fmt.Errorf("testutil: no tail section %d", section)
}

// TailFieldCount returns how many integer fields a section of data has.
func TailFieldCount(data []byte, section int) (int, error) {
	p, err := split(data)
	if err != nil {
		return 0, err
	}
	m, err := p.message(section)
	if err != nil {
		return 0, err
	}
	return len(intFields(m.ProtoReflect())), nil
}

// MutateTail returns a copy of data, an uncompressed ORC file of one
// stripe, with integer field k (modulo their number) of a section set to
// v, the other sections' lengths updated around it; nil when the section
// has no integer field. section == -1 re-encodes the file unchanged.
func MutateTail(data []byte, section, k int, v uint64) ([]byte, error) {
	p, err := split(data)
	if err != nil {
		return nil, err
	}
	sf := proto.Clone(p.stripeFoot).(*orcpb.StripeFooter)
	f := proto.Clone(p.footer).(*orcpb.Footer)
	ps := proto.Clone(p.tail.PostScript).(*orcpb.PostScript)
	md := p.meta
	if md != nil {
		md = proto.Clone(md).(*orcpb.Metadata)
	}
	var edit func()
	if section >= 0 {
		m, err := p.message(section)
		if err != nil {
			return nil, err
		}
		fs := intFields(m.ProtoReflect())
		if len(fs) == 0 {
			return nil, nil
		}
		fs[k%len(fs)].set(v)
		switch section {
		case SecFooter:
			edit = func() { f = m.(*orcpb.Footer) }
		case SecStripeFooter:
			sf = m.(*orcpb.StripeFooter)
		case SecPostScript:
			edit = func() { ps = m.(*orcpb.PostScript) }
		case SecMetadata:
			md = m.(*orcpb.Metadata)
		}
	}
	sb, err := proto.Marshal(sf)
	if err != nil {
		return nil, err
	}
	var mb []byte
	if md != nil {
		if mb, err = proto.Marshal(md); err != nil {
			return nil, err
		}
	}
	old := p.sfEnd - p.sfStart
	f.GetStripes()[0].FooterLength = proto.Uint64(uint64(len(sb)))
	if f.ContentLength != nil {
		f.ContentLength = proto.Uint64(f.GetContentLength() + uint64(len(sb)) - old)
	}
	if section == SecFooter {
		edit()
	}
	fb, err := proto.Marshal(f)
	if err != nil {
		return nil, err
	}
	ps.FooterLength = proto.Uint64(uint64(len(fb)))
	ps.MetadataLength = proto.Uint64(uint64(len(mb)))
	if section == SecPostScript {
		edit()
	}
	pb, err := proto.Marshal(ps)
	if err != nil {
		return nil, err
	}
	if len(pb) > 255 {
		return nil, nil // a postscript cannot be this long
	}
	out := append([]byte(nil), data[:p.sfStart]...)
	out = append(out, sb...)
	out = append(out, data[p.sfEnd:p.metaStart]...)
	out = append(out, mb...)
	out = append(out, fb...)
	out = append(out, pb...)
	return append(out, byte(len(pb))), nil
}
