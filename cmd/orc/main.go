// Command orc inspects, converts and queries ORC files.
//
//	orc meta FILE [--json]                      schema, stripes, streams, encodings, statistics
//	orc cat FILE [--columns a,b] [--limit N]    rows as JSON lines
//
// Run "orc help" for every command.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
)

type command struct {
	name  string
	usage string
	run   func(args []string, stdout, stderr io.Writer) error
}

var commands []command

func register(c command) { commands = append(commands, c) }

// errUsage marks errors that should print the command's usage.
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands {
		if c.name == args[0] {
			err := c.run(args[1:], stdout, stderr)
			if err == nil {
				return 0
			}
			if errors.Is(err, errUsage) {
				fmt.Fprintf(stderr, "usage: orc %s\n", c.usage)
				if err != errUsage {
					fmt.Fprintln(stderr, err)
				}
				return 2
			}
			fmt.Fprintf(stderr, "orc %s: %v\n", c.name, err)
			return 1
		}
	}
	fmt.Fprintf(stderr, "orc: unknown command %q\n", args[0])
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: orc COMMAND [ARGS]")
	for _, c := range commands {
		fmt.Fprintf(w, "  orc %s\n", c.usage)
	}
}
