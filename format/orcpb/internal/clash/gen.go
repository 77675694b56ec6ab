// Package clash is a test fixture: generated code registered as
// "orc.proto" in package "orc.proto", as other ORC libraries' is.
package clash

//go:generate protoc --go_out=. --go_opt=paths=source_relative orc.proto
