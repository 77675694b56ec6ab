// Package orcpb holds the protocol buffer messages of the ORC file format,
// generated from orc.proto. Only package format and its siblings use them;
// the public API exposes orcgo's own types.
package orcpb

//go:generate protoc --go_out=. --go_opt=paths=source_relative orc.proto
