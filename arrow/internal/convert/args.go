package convert

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// ParseFlags parses args with fs, taking flags anywhere among the
// arguments, as the orc command does ("IN OUT -overwrite" is two arguments
// and a flag); "--" ends the flags. It returns the other arguments.
func ParseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return pos, nil
		}
		// A "--" that Parse consumed ends the flags: the rest are arguments.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			return append(pos, rest...), nil
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
}

// createTemp creates a new file in dir named prefix, a random number and
// suffix, with mode 0666 less the umask as os.Create gives (os.CreateTemp
// gives 0600): renamed into place it is the output.
func createTemp(dir, prefix, suffix string) (*os.File, error) {
	for range 10000 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666)
		if os.IsExist(err) {
			continue
		}
		return f, err
	}
	return nil, &os.PathError{Op: "createtemp", Path: filepath.Join(dir, prefix+"*"+suffix), Err: os.ErrExist}
}
