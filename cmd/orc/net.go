package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/orcgo/orc/httpfile"
)

// netTimeout is --timeout, for the command being run.
var netTimeout time.Duration

// addNetFlags adds the flags of commands that read URLs: --timeout.
func addNetFlags(fs *flag.FlagSet) {
	fs.DurationVar(&netTimeout, "timeout", 0, "for URLs: give up on an HTTP request after this long (e.g. 10s), then retry it up to 4 times;\n"+
		"0: no limit but the stall timeout (a request that receives under 4 KiB in 30s, or in the --timeout if shorter)")
}

// netOptions returns the httpfile options of the flags.
func netOptions() ([]httpfile.Option, error) {
	switch {
	case netTimeout < 0:
		return nil, fmt.Errorf("%w: --timeout %v: must not be negative", errUsage, netTimeout)
	case netTimeout == 0:
		return nil, nil
	case netTimeout < time.Millisecond:
		return nil, fmt.Errorf("%w: --timeout %v: must be at least 1ms", errUsage, netTimeout)
	}
	return []httpfile.Option{httpfile.WithRequestTimeout(netTimeout),
		httpfile.WithStallTimeout(min(netTimeout, httpfile.DefaultStallTimeout))}, nil
}

// openHTTP opens a file over HTTP with the flags' options.
func openHTTP(url string) (*httpfile.File, error) {
	opts, err := netOptions()
	if err != nil {
		return nil, err
	}
	return httpfile.Open(context.Background(), url, opts...)
}
