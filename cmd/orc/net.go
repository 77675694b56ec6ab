package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"math"
	"strconv"
	"sync"
	"time"

	"github.com/orcgo/orc/httpfile"
)

// netTimeout is --timeout, for the command being run.
var netTimeout time.Duration

// addNetFlags adds the flags of commands that read URLs: --timeout.
func addNetFlags(fs *flag.FlagSet) {
	netTimeout = 0 // the default, as a flag defined with it sets it
	fs.Var((*secondsFlag)(&netTimeout), "timeout", "for URLs: give up on an HTTP request after this long (a duration such as 10s or 1m, or seconds such as 5),\n"+
		"then retry it up to 4 times; 0: no limit but the stall timeout (a request that receives under 4 KiB in 30s, or in the --timeout if shorter).\n"+
		"For s3://, gs:// and azblob:// URLs: give up on opening an object, reading a range of it or listing a table after this long,\n"+
		"the store SDK's own retries included, and fail naming the URL; 0: no limit")
}

// secondsFlag is a duration flag that also takes plain seconds ("5" is
// 5s, "0.5" half a second), as timeouts are written in curl and wget.
type secondsFlag time.Duration

func (f *secondsFlag) String() string { return time.Duration(*f).String() }

func (f *secondsFlag) Set(s string) error {
	if x, err := strconv.ParseFloat(s, 64); err == nil && !math.IsNaN(x) && !math.IsInf(x, 0) && math.Abs(x) < 1e9 {
		*f = secondsFlag(time.Duration(x * float64(time.Second)))
		return nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return errors.New("not a duration such as 10s or 1m30s, nor seconds such as 5")
	}
	*f = secondsFlag(d)
	return nil
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
	return httpfile.Open(interruptContext(), url, opts...)
}

// interruptCtx is the context interruptContext returns, made for the
// interrupt channel ch.
var interruptCtx struct {
	mu  sync.Mutex
	ch  <-chan struct{}
	ctx context.Context
}

// interruptContext returns a context that is cancelled when the user
// interrupts the command (interrupt is closed): the files opened over HTTP
// with it end their requests in flight then, rather than when the server
// answers, and the command reports what it did.
func interruptContext() context.Context {
	interruptCtx.mu.Lock()
	defer interruptCtx.mu.Unlock()
	if interruptCtx.ctx == nil || interruptCtx.ch != interrupt {
		ch := interrupt
		ctx, cancel := context.WithCancel(context.Background())
		go func() {
			<-ch
			cancel()
		}()
		interruptCtx.ch, interruptCtx.ctx = ch, ctx
	}
	return interruptCtx.ctx
}

// interrupted reports whether the user has interrupted the command.
func interrupted() bool {
	select {
	case <-interrupt:
		return true
	default:
		return false
	}
}
