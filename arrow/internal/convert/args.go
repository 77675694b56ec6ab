package convert

import "flag"

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
