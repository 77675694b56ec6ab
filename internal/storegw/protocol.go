// Package storegw lets the orc command read and write object stores (S3,
// GCS, Azure Blob) without linking their SDKs: it starts a helper program,
// orc-cloud (module github.com/orcgo/orc/cloud), which holds the SDKs and
// serves the stores to the command over HTTP on 127.0.0.1. This package
// holds both ends of that protocol, and nothing else: no SDK, only the
// standard library.
//
// # Protocol (version 1)
//
// The helper is started as "orc-cloud serve" with a pipe on its standard
// input, listens on 127.0.0.1, prints one line on its standard output,
//
//	orcgo-store-gateway 1 http://127.0.0.1:PORT TOKEN
//
// and serves until its standard input ends (the command exited). Every
// request carries the header X-Orcgo-Token: TOKEN; others are refused. A
// store URL (s3://bucket/key?query, gs://, azblob://) travels in the query
// parameter u.
//
//	POST /open?u=URL        opens an object: 200, headers X-Orcgo-Handle, X-Orcgo-Size,
//	                        X-Orcgo-Version, X-Orcgo-Tail-Offset; the body is the object's
//	                        last bytes (the ORC tail), read with the open
//	GET  /read?h=H&off=O&n=N  N bytes at O of the object opened as H (fewer at its end),
//	                        pinned to the version the open saw
//	POST /close?h=H         forgets H: 204
//	GET  /list?u=URL        the objects below a prefix: JSON lines {"name","size","version"},
//	                        names relative to the prefix
//	PUT  /put?u=URL         uploads the body as the object; 201 once it is whole. A body that
//	                        ends early (the command aborted) aborts the upload: no object
//
// A failure is a status with the error's text as the body: 400 a bad URL,
// 403 refused credentials or access, 404 no such object or bucket, 409 an
// object changed since it was opened, 502 any other failure of the store.
package storegw

import (
	"errors"
)

// Version is the protocol's version, the second word of the helper's line.
const Version = "1"

// greeting is the first word of the helper's line.
const greeting = "orcgo-store-gateway"

// tokenHeader carries the helper's token on every request.
const tokenHeader = "X-Orcgo-Token"

// Sentinels the client's errors wrap, and the server maps to statuses.
var (
	// ErrChanged: the object was replaced since it was opened.
	ErrChanged = errors.New("the object changed since it was opened")
	// ErrDenied: the store refused the credentials or the access.
	ErrDenied = errors.New("access denied")
	// ErrBadURL: the URL names nothing the helper can reach.
	ErrBadURL = errors.New("not a store URL")
)

// Entry is an object of a listing.
type Entry struct {
	Name    string `json:"name"`
	Size    int64  `json:"size"`
	Version string `json:"version"`
}
