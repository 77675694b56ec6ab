// Command orc inspects, converts and queries ORC files.
//
//	orc meta FILE|DIR... [--json]                 schema, stripes, streams, encodings, statistics
//	orc cat FILE|DIR... [--format csv|tsv|table]  rows as JSON lines, CSV, TSV or a table
//	orc scan FILE|DIR... --where EXPR [--stats]   the rows matching a predicate
//
// Run "orc help" for every command.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
)

type command struct {
	name  string
	usage string
	desc  string // one line for "orc help"
	help  string // more text for "orc CMD --help", after the flags
	run   func(args []string, stdout, stderr io.Writer) error
}

var commands []command

func register(c command) { commands = append(commands, c) }

// errUsage marks errors that should print the command's usage.
var errUsage = errors.New("usage")

func main() {
	// A write to a closed pipe (orc cat f.orc | head) returns an error the
	// commands handle, rather than killing the process before a scan can
	// report its figures.
	signal.Notify(make(chan os.Signal, 1), syscall.SIGPIPE)
	// The first Ctrl-C stops a scan after its batch, reporting what it did;
	// a second one kills the process.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	intr := make(chan struct{})
	interrupt = intr
	go func() {
		<-sig
		signal.Reset(os.Interrupt, syscall.SIGTERM)
		close(intr)
	}()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// helpRequest is returned by parseFlags for -h or --help.
type helpRequest struct{ fs *flag.FlagSet }

func (h *helpRequest) Error() string { return "help requested" }

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return 2
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		if len(args) > 1 && args[0] == "help" {
			return run([]string{args[1], "--help"}, stdout, stderr)
		}
		usage(stdout)
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			netTimeout = 0 // --timeout is the command's own (not every command has it)
			err := c.run(args[1:], stdout, stderr)
			if err == nil {
				return 0
			}
			var es exitStatus
			if errors.As(err, &es) {
				return int(es) // a helper's status; it said why
			}
			var h *helpRequest
			if errors.As(err, &h) {
				fmt.Fprintf(stdout, "usage: orc %s\n\n%s.\n\nFlags:\n", c.usage, c.desc)
				h.fs.SetOutput(stdout)
				h.fs.PrintDefaults()
				if c.help != "" {
					fmt.Fprintf(stdout, "\n%s\n", c.help)
				}
				return 0
			}
			if errors.Is(err, errUsage) {
				fmt.Fprintf(stderr, "usage: orc %s\n", c.usage)
				if err != errUsage {
					fmt.Fprintf(stderr, "orc %s: %s\n", c.name, strings.TrimPrefix(err.Error(), "usage: "))
				} else {
					fmt.Fprintf(stderr, "orc %s: missing or extra arguments; orc %s --help describes them\n", c.name, c.name)
				}
				return 2
			}
			var ei errInterrupted
			if errors.As(err, &ei) {
				fmt.Fprintf(stderr, "orc %s: %s\n", c.name, err)
				return 130
			}
			// Library errors start with "orc: "; the command's name is
			// prefix enough.
			fmt.Fprintf(stderr, "orc %s: %s\n", c.name, strings.TrimPrefix(err.Error(), "orc: "))
			return 1
		}
	}
	fmt.Fprintf(stderr, "orc: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	slices.SortFunc(commands, func(a, b command) int { return strings.Compare(a.name, b.name) })
	fmt.Fprintln(w, "usage: orc COMMAND [ARGS]   (orc COMMAND --help for its flags)")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.desc)
	}
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  orc %s\n", c.usage)
	}
}

func init() {
	register(command{name: "version", usage: "version", desc: "print orcgo's version and the Go version it was built with",
		run: func(args []string, stdout, stderr io.Writer) error {
			fs := flag.NewFlagSet("version", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			pos, err := parseFlags(fs, args)
			if err != nil {
				return err
			}
			if len(pos) != 0 {
				return errUsage
			}
			v, goVersion := "(unknown)", "(unknown)"
			if bi, ok := debug.ReadBuildInfo(); ok {
				v, goVersion = bi.Main.Version, bi.GoVersion
				for _, s := range bi.Settings {
					if s.Key == "vcs.revision" && len(s.Value) >= 12 {
						v += " " + s.Value[:12]
					}
				}
			}
			_, err = fmt.Fprintf(stdout, "orc (github.com/orcgo/orc) %s, %s\n", v, goVersion)
			return err
		}})
}
