// Command orc-iceberg creates, appends to, scans and lists Apache Iceberg
// tables of ORC files (package github.com/orcgo/orc/iceberg). The orc
// command runs it for "orc iceberg ...", so that orc itself links no
// Iceberg library:
//
//	go install github.com/orcgo/orc/iceberg/cmd/orc-iceberg@latest
//
//	orc iceberg create --catalog sqlite:cat.db db.events --schema 'struct<id:bigint,ts:timestamp,name:string>' --partition-by 'day(ts)'
//	orc iceberg append --catalog sqlite:cat.db db.events events.csv more.jsonl old.orc
//	orc iceberg scan --catalog sqlite:cat.db db.events --where "id = 5" --stats
//	orc iceberg files|snapshots --catalog sqlite:cat.db db.events
//
// A catalog is sqlite:PATH (Iceberg's SQL catalog in an SQLite file, its
// warehouse directory beside it unless --warehouse DIR) or rest:URL (an
// Iceberg REST catalog).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
)

// env is what a command reads and writes.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

type command struct {
	name, usage, desc string
	run               func(ctx context.Context, e env, args []string) error
}

var commands = []command{createCmd, appendCmd, scanCmd, filesCmd, snapshotsCmd}

// errUsage marks an error that prints the command's usage; exit status 2.
var errUsage = errors.New("usage")

// usageErr is a usage error with a message.
func usageErr(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errUsage, fmt.Sprintf(format, args...))
}

// errHelp is a request for a command's help (-h, --help).
type errHelp struct{ fs *flag.FlagSet }

func (errHelp) Error() string { return "help requested" }

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr})
	stop()
	os.Exit(code)
}

// run runs the command args names and returns the exit status: 0, 1 for
// a failure, 2 for a usage error.
func run(ctx context.Context, args []string, e env) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		w, code := e.stderr, 2
		if len(args) > 0 {
			w, code = e.stdout, 0
		}
		usage(w)
		return code
	}
	for _, c := range commands {
		if c.name != args[0] {
			continue
		}
		err := c.run(ctx, e, args[1:])
		var h errHelp
		switch {
		case err == nil:
			return 0
		case errors.As(err, &h):
			fmt.Fprintf(e.stdout, "usage: orc iceberg %s\n\n%s.\n\nFlags:\n", c.usage, c.desc)
			h.fs.SetOutput(e.stdout)
			h.fs.PrintDefaults()
			return 0
		case errors.Is(err, errUsage):
			fmt.Fprintf(e.stderr, "usage: orc iceberg %s\n", c.usage)
			msg := strings.TrimPrefix(err.Error(), "usage: ")
			if err == errUsage {
				msg = "missing or extra arguments; orc iceberg " + c.name + " --help describes them"
			}
			fmt.Fprintf(e.stderr, "orc iceberg %s: %s\n", c.name, msg)
			return 2
		}
		if ctx.Err() != nil && errors.Is(err, context.Canceled) {
			fmt.Fprintf(e.stderr, "orc iceberg %s: interrupted\n", c.name)
			return 130 // as a shell reports a command ended by SIGINT
		}
		fmt.Fprintf(e.stderr, "orc iceberg %s: %s\n", c.name, strings.TrimPrefix(err.Error(), "iceberg: "))
		return 1
	}
	fmt.Fprintf(e.stderr, "orc iceberg: unknown command %q\n", args[0])
	usage(e.stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: orc iceberg COMMAND [ARGS]   (orc iceberg COMMAND --help for its flags)")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.desc)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "CATALOG is sqlite:PATH (Iceberg's SQL catalog in an SQLite file, tables under the directory")
	fmt.Fprintln(w, "PATH.warehouse beside it unless --warehouse DIR) or rest:URL (an Iceberg REST catalog).")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  orc iceberg %s\n", c.usage)
	}
}

// parseFlags parses args with fs, flags and positional arguments in any
// order ("--" ends the flags), and returns the positional ones.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp{fs}
			}
			return nil, usageErr("%v", err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// onceString is a string flag that may be given once.
type onceString struct {
	v   string
	set bool
}

func (f *onceString) String() string { return f.v }

func (f *onceString) Set(s string) error {
	if f.set {
		return fmt.Errorf("given twice (%q, then %q)", f.v, s)
	}
	f.v, f.set = s, true
	return nil
}
