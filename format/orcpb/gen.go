// Package orcpb holds the protocol buffer messages of the ORC file format,
// generated from orc.proto. Only package format and its siblings use them;
// the public API exposes orcgo's own types.
package orcpb

// The file registers under its import path, not "orc.proto", so a program
// may also link another ORC library's generated code (TestNoRegistrationClash).
//go:generate protoc -Igithub.com/orcgo/orc/format/orcpb=. --go_out=. --go_opt=module=github.com/orcgo/orc/format/orcpb github.com/orcgo/orc/format/orcpb/orc.proto
