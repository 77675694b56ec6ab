package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/orcgo/orc/dataset"
	"github.com/orcgo/orc/reader"
)

// Inputs: every command that reads ORC files takes files, directories and
// URLs alike. A file or URL named is read as it is (and fails if it is not
// ORC); a directory stands for the ORC files below it, in name order,
// leaving out hidden and marker files (names starting with "." or "_", as
// dataset.FromPaths does) and files whose first bytes are not ORC's magic
// (a README, a CSV beside the data), which are named on stderr. An empty
// file counts as ORC (Hive writes empty files for empty buckets).

// isDir reports whether p is a local directory.
// isTable reports whether p stands for several files: a directory, or a
// URL ending in / (a table read through its index).
func isTable(p string) bool { return isDir(p) || isURLDir(p) }

func isDir(p string) bool {
	if isURL(p) || p == "-" {
		return false
	}
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// looksLikeORC reports whether a file of a directory is to be read: empty,
// or starting with "ORC". A file that cannot be opened is read (and its
// error reported then).
func looksLikeORC(open dataset.Opener) bool {
	ra, size, c, err := open()
	if err != nil {
		return true
	}
	if c != nil {
		defer c.Close()
	}
	if size == 0 {
		return true
	}
	var magic [3]byte
	n, _ := ra.ReadAt(magic[:], 0)
	return string(magic[:n]) == "ORC"
}

// noteSkipped tells on stderr which files of a directory were left out for
// not being ORC.
func noteSkipped(stderr io.Writer, cmd, dir string, skipped []string) {
	if len(skipped) == 0 {
		return
	}
	shown := skipped
	if len(shown) > 3 {
		shown = shown[:3]
	}
	more := ""
	if len(skipped) > 3 {
		more = fmt.Sprintf(" and %d more", len(skipped)-3)
	}
	fmt.Fprintf(stderr, "orc %s: %s: left out %s that %s not ORC: %s%s\n", cmd, dir, plural(int64(len(skipped)), "file"), map[bool]string{true: "is", false: "are"}[len(skipped) == 1], strings.Join(shown, ", "), more)
}

// noteIrregular tells on stderr which entries of a directory were left out
// for their kind: symbolic links (not followed: see dataset.Skipped) and
// files that are not regular files.
func noteIrregular(stderr io.Writer, cmd, dir string, odd []dataset.Skipped) {
	if len(odd) == 0 {
		return
	}
	var shown []string
	for _, e := range odd[:min(len(odd), 3)] {
		what := e.Kind
		if what == "symbolic link" {
			what += ", not followed"
		}
		shown = append(shown, fmt.Sprintf("%s (%s)", filepath.FromSlash(e.Name), what))
	}
	more := ""
	if len(odd) > 3 {
		more = fmt.Sprintf(" and %d more", len(odd)-3)
	}
	fmt.Fprintf(stderr, "orc %s: %s: left out %s that %s not regular: %s%s\n", cmd, dir, map[bool]string{true: "1 entry", false: fmt.Sprintf("%d entries", len(odd))}[len(odd) == 1],
		map[bool]string{true: "is", false: "are"}[len(odd) == 1], strings.Join(shown, ", "), more)
}

// dirFiles lists the ORC files below a directory (dataset.FromPaths, those
// that are not ORC left out and named on stderr).
func dirFiles(dir string, stderr io.Writer, cmd string) ([]dataset.File, error) {
	list, odd, err := dataset.ListPaths(dir)
	if err != nil {
		return nil, inFile(dir, err)
	}
	noteIrregular(stderr, cmd, dir, odd)
	var kept []dataset.File
	var skipped []string
	for _, f := range list {
		if looksLikeORC(f.Open) {
			kept = append(kept, f)
		} else {
			skipped = append(skipped, filepath.FromSlash(f.Name))
		}
	}
	noteSkipped(stderr, cmd, dir, skipped)
	return kept, nil
}

// expandInputs returns the files to read for paths: files and URLs as
// given, directories as the ORC files below them.
func expandInputs(paths []string, stderr io.Writer, cmd string) ([]string, error) {
	var out []string
	for _, p := range paths {
		if isURLDir(p) {
			// A table over HTTP: the files its index lists.
			ud, err := openURLDir(p)
			if err != nil {
				return nil, err
			}
			for _, f := range ud.files {
				out = append(out, ud.display[f.Name])
			}
			continue
		}
		if !isDir(p) {
			out = append(out, p)
			continue
		}
		list, err := dirFiles(p, stderr, cmd)
		if err != nil {
			return nil, err
		}
		for _, f := range list {
			out = append(out, filepath.Join(p, filepath.FromSlash(f.Name)))
		}
	}
	return out, nil
}

// setFlags returns the flags set on fs as arguments that set them again.
func setFlags(fs *flag.FlagSet) []string {
	var args []string
	fs.Visit(func(f *flag.Flag) { args = append(args, "--"+f.Name+"="+f.Value.String()) })
	return args
}

// perFile is how the one-file commands (check, schema, sizes) start: it
// adds the network flags to fs, parses args and returns the file to work
// on. Given several files or a table, it runs run on each (forEachFile,
// header as there) and reports done, with that outcome as err; done too
// when the arguments are wrong.
func perFile(fs *flag.FlagSet, args []string, header bool, stdout, stderr io.Writer,
	run func(args []string, stdout, stderr io.Writer) error) (path string, done bool, err error) {
	addNetFlags(fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return "", true, err
	}
	if len(pos) == 0 {
		return "", true, errUsage
	}
	if len(pos) > 1 || isTable(pos[0]) {
		return "", true, forEachFile(fs, pos, fs.Name(), header, stdout, stderr, run)
	}
	return pos[0], false, nil
}

// onFile is perFile for a command that reads its file through a Reader:
// given one file, it opens it, runs each on it and closes it, an error of
// either naming the file (fileFailure).
func onFile(fs *flag.FlagSet, args []string, header bool, stdout, stderr io.Writer,
	run func(args []string, stdout, stderr io.Writer) error, each func(path string, r *reader.Reader, ra io.ReaderAt) error) error {
	path, done, err := perFile(fs, args, header, stdout, stderr, run)
	if done {
		return err
	}
	r, ra, closeFn, err := openORCAt(path)
	if err == nil {
		defer closeFn()
		err = each(path, r, ra)
	}
	return fileFailure(path, err)
}

// forEachFile runs a one-file command (run, with the flags set on fs) on
// every file of paths, going on past a file that fails: its error goes to
// stderr naming the file, and the command fails at the end. header prints
// each file's path before its output, for commands whose output does not
// name it.
func forEachFile(fs *flag.FlagSet, paths []string, cmd string, header bool, stdout, stderr io.Writer,
	run func(args []string, stdout, stderr io.Writer) error) error {
	files, err := expandInputs(paths, stderr, cmd)
	if err != nil {
		return err
	}
	if len(files) > 1 {
		for _, f := range files {
			if f == "-" {
				return fmt.Errorf("%w: standard input (-) cannot be one of several inputs", errUsage)
			}
		}
	}
	flags := setFlags(fs)
	failed := 0
	for i, f := range files {
		if header {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "%s:\n", f)
		} else if i > 0 && cmd == "meta" {
			fmt.Fprintln(stdout)
		}
		err := run(append(append([]string(nil), flags...), "--", f), stdout, stderr)
		if err == nil {
			continue
		}
		if errors.Is(err, errUsage) {
			return err
		}
		if isClosedOutput(err) {
			return nil
		}
		failed++
		fmt.Fprintf(stderr, "orc %s: %s\n", cmd, inFile(f, err))
	}
	switch {
	case len(files) == 0:
		return fmt.Errorf("%s: no ORC files found (hidden and _-prefixed files are left out)", strings.Join(paths, ", "))
	case failed > 0:
		return fmt.Errorf("%d of %s failed", failed, plural(int64(len(files)), "file"))
	}
	return nil
}
