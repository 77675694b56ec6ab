package convert

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"
)

// Command is the frame the converter commands share: the flags every one
// of them takes (-batch, -progress, -overwrite), the two file arguments,
// and the run from a regular input file to an output committed at the end.
type Command struct {
	// Flags is the command's flag set; the caller adds its own flags to
	// it before Parse.
	Flags *flag.FlagSet

	name      string
	args      string // the usage line's file arguments
	stderr    io.Writer
	batch     *int
	every     *time.Duration
	overwrite *bool
}

// NewCommand returns the frame of command name, printing to stderr, whose
// usage text gives its usage line (the file arguments after "name [flags]")
// and a sentence on what it does.
func NewCommand(name, args, about string, stderr io.Writer) *Command {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "usage: %s [flags] %s (flags may also follow the files)\n\n%s\n\nFlags:\n", name, args, about)
		fs.PrintDefaults()
	}
	return &Command{
		Flags:     fs,
		name:      name,
		args:      args,
		stderr:    stderr,
		batch:     fs.Int("batch", 65536, "`rows` per Arrow record"),
		every:     fs.Duration("progress", 2*time.Second, "print a progress line every `interval` (0 for none)"),
		overwrite: fs.Bool("overwrite", false, "replace OUT if it exists (the output is written beside it and renamed at the end)"),
	}
}

// Parse parses args (ParseFlags) and returns the two file arguments; the
// error when there are not two names them as the usage line does.
func (c *Command) Parse(args []string) (in, out string, err error) {
	pos, err := ParseFlags(c.Flags, args)
	if err != nil {
		return "", "", err
	}
	if len(pos) != 2 {
		c.Flags.Usage()
		return "", "", errors.New("want two arguments: " + c.args)
	}
	return pos[0], pos[1], nil
}

// BatchSize returns the -batch flag.
func (c *Command) BatchSize() int { return *c.batch }

// Progress returns the progress reporting the -progress flag asks for.
func (c *Command) Progress() Progress {
	return Progress{W: c.stderr, Every: *c.every, Name: c.name}
}

// Convert runs conv from the file inPath, which must be a regular file
// (the error says that format needs random access), to a new output at
// outPath, which it commits when conv succeeds and removes otherwise, and
// prints a line saying how many rows went where in how long.
func (c *Command) Convert(inPath, outPath, format string, conv func(in *os.File, size int64, out *Output) (rows int64, err error)) error {
	in, err := os.Open(inPath)
	if err != nil {
		return err
	}
	defer in.Close()
	st, err := in.Stat()
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() {
		return fmt.Errorf("%s: not a regular file (%s needs random access)", inPath, format)
	}
	out, err := CreateOutput(outPath, *c.overwrite)
	if err != nil {
		return err
	}
	start := time.Now()
	rows, err := conv(in, st.Size(), out)
	if err != nil {
		out.Abort()
		return fmt.Errorf("%s: %w", inPath, err)
	}
	if err := out.Commit(); err != nil {
		return err
	}
	fmt.Fprintf(c.stderr, "%s: %d rows from %s to %s in %.1fs\n", c.name, rows, inPath, outPath, time.Since(start).Seconds())
	return nil
}

// Exit ends command name's main with err, the error of its run: when err
// is not nil it prints it (unless it is a -help request, which printed the
// usage already) and exits with status 2.
func Exit(name string, err error) {
	if err == nil {
		return
	}
	if !errors.Is(err, flag.ErrHelp) {
		fmt.Fprintln(os.Stderr, name+":", err)
	}
	os.Exit(2)
}
