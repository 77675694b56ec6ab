// Command orc-cloud serves object stores (S3 and S3-compatible stores,
// Google Cloud Storage, Azure Blob Storage) to the orc command, which
// starts it when given an s3://, gs:// or azblob:// URL: so the orc
// command itself links no cloud SDK. It listens on 127.0.0.1 only, for
// the process that started it, and ends when that process does. The
// protocol is github.com/orcgo/orc/internal/storegw's.
//
//	go install github.com/orcgo/orc/cloud/cmd/orc-cloud@latest
//
// Credentials come from each cloud's standard chain (environment, config
// and profile files, instance metadata), as the SDKs look them up.
package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	orccloud "github.com/orcgo/orc/cloud"
	"github.com/orcgo/orc/internal/storegw"
)

func main() {
	if len(os.Args) != 2 || os.Args[1] != "serve" {
		fmt.Fprintln(os.Stderr, "usage: orc-cloud serve\n\norc-cloud serves object stores to the orc command, which starts it itself: run orc with an s3://, gs:// or azblob:// URL.")
		os.Exit(2)
	}
	out := os.Stdout
	// Anything else the SDKs print goes to stderr, not into the protocol.
	os.Stdout = os.Stderr
	if err := storegw.Serve(backend{}, out, os.Stdin); err != nil {
		fmt.Fprintln(os.Stderr, "orc-cloud:", err)
		os.Exit(1)
	}
}

// backend serves the stores through package orccloud.
type backend struct{}

func (backend) Open(ctx context.Context, url string) (storegw.Object, error) {
	// The object outlives the request that opens it (its reads come with
	// contexts of their own), but the open ends with the request: when orc
	// gives up on it (--timeout, Ctrl-C), so do the store's requests.
	octx, cancel := context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, cancel)
	f, err := orccloud.Open(octx, url)
	if !stop() {
		if err == nil {
			f.Close()
			err = ctx.Err()
		}
		return nil, gwError(err)
	}
	if err != nil {
		cancel()
		return nil, gwError(err)
	}
	return object{f}, nil
}

func (backend) List(ctx context.Context, url string) ([]storegw.Entry, error) {
	s, prefix, err := orccloud.OpenStore(ctx, url)
	if err != nil {
		return nil, gwError(err)
	}
	defer s.Close()
	files, err := s.List(ctx, prefix)
	if err != nil {
		return nil, gwError(err)
	}
	list := make([]storegw.Entry, len(files))
	for i, f := range files {
		list[i] = storegw.Entry{Name: f.Name, Size: f.Size, Version: f.Version}
	}
	return list, nil
}

func (backend) Create(ctx context.Context, url string) (storegw.ObjectWriter, error) {
	w, err := orccloud.Create(ctx, url)
	if err != nil {
		return nil, gwError(err)
	}
	return writer{w}, nil
}

// object is an orccloud.File whose read errors carry the protocol's
// sentinels.
type object struct{ *orccloud.File }

func (o object) ReadAtContext(ctx context.Context, p []byte, off int64) (int, error) {
	n, err := o.File.ReadAtContext(ctx, p, off)
	return n, gwError(err)
}

type writer struct{ *orccloud.Writer }

func (w writer) Write(p []byte) (int, error) {
	n, err := w.Writer.Write(p)
	return n, gwError(err)
}

func (w writer) Close() error { return gwError(w.Writer.Close()) }

// gwError adds to err the protocol's sentinel for its kind.
func gwError(err error) error {
	if err == nil {
		return nil
	}
	for _, m := range []struct{ from, to error }{
		{orccloud.ErrURL, storegw.ErrBadURL},
		{orccloud.ErrDenied, storegw.ErrDenied},
		{orccloud.ErrNoCredentials, storegw.ErrDenied},
		{orccloud.ErrChanged, storegw.ErrChanged},
	} {
		if errors.Is(err, m.from) {
			return &marked{err, m.to}
		}
	}
	return err
}

type marked struct{ err, mark error }

func (m *marked) Error() string   { return m.err.Error() }
func (m *marked) Unwrap() []error { return []error{m.err, m.mark} }
