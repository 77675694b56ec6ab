package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"

	"github.com/orcgo/orc/internal/helper"
)

// orc iceberg: Apache Iceberg tables of ORC files are the orc-iceberg
// helper's (module github.com/orcgo/orc/iceberg), which links iceberg-go
// and its catalogs so that this command links none. orc iceberg ARGS runs
// it with ARGS, its standard input, output and error this command's, and
// exits with its status.

// icebergHelper is the helper's name; icebergHelperEnv names the
// environment variable that gives its path.
const (
	icebergHelper    = "orc-iceberg"
	icebergHelperEnv = "ORC_ICEBERG"
)

// errNoIcebergHelper: the helper was not found.
var errNoIcebergHelper = errors.New("the orc-iceberg helper, which reads and writes Iceberg tables, was not found: " +
	"go install github.com/orcgo/orc/iceberg/cmd/orc-iceberg@latest (from a clone of orcgo: cd iceberg && go install ./cmd/orc-iceberg), " +
	"then have it on PATH, beside orc, or named by $ORC_ICEBERG")

// exitStatus ends a command whose helper has already said what went
// wrong: orc exits with it and prints nothing more.
type exitStatus int

func (e exitStatus) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// orc iceberg's usage, description and help.
const (
	icebergUsage = "iceberg create|append|scan|files|snapshots --catalog sqlite:PATH|rest:URL NS.TABLE ..."
	icebergDesc  = "create, append to, scan and list Apache Iceberg tables of ORC files (the orc-iceberg helper)"
	icebergHelp  = `The commands are the orc-iceberg helper's, which orc runs: orc iceberg --help
lists them when it is installed (go install github.com/orcgo/orc/iceberg/cmd/orc-iceberg@latest,
or from a clone of orcgo: cd iceberg && go install ./cmd/orc-iceberg; orc finds it in
$ORC_ICEBERG, beside orc, or on PATH).`
)

func init() {
	register(command{name: "iceberg", usage: icebergUsage, desc: icebergDesc, help: icebergHelp, run: runIceberg})
}

func runIceberg(args []string, stdout, stderr io.Writer) error {
	path, err := findIcebergHelper()
	if err != nil && len(args) == 1 && (args[0] == "--help" || args[0] == "-h") {
		// Without the helper, orc's own word on the command.
		_, err = fmt.Fprintf(stdout, "usage: orc %s\n\n%s.\n\n%s\n", icebergUsage, icebergDesc, icebergHelp)
		return err
	}
	if err != nil {
		return err
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, stdout, stderr
	err = cmd.Run()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &ee) && ee.ExitCode() > 0:
		return exitStatus(ee.ExitCode())
	case errors.As(err, &ee):
		// Ended by a signal (Ctrl-C, or SIGPIPE when the reader of its
		// output went away): 128 + its number, as a shell says it.
		if ws, ok := ee.Sys().(interface {
			Signaled() bool
			Signal() syscall.Signal
		}); ok && ws.Signaled() {
			return exitStatus(128 + int(ws.Signal()))
		}
	}
	return fmt.Errorf("running the orc-iceberg helper %s: %w", path, err)
}

// findIcebergHelper returns the helper's path: $ORC_ICEBERG, else
// orc-iceberg beside this program, else on PATH (helper.Find).
func findIcebergHelper() (string, error) {
	p, err := helper.Find(icebergHelperEnv, icebergHelper)
	if errors.Is(err, helper.ErrNotFound) {
		return "", errNoIcebergHelper
	}
	return p, err
}
