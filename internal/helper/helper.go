// Package helper finds the programs the orc command runs for what it
// does not link (orc-cloud for object store URLs, orc-iceberg for Iceberg
// tables): one rule for all of them.
package helper

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// ErrNotFound: no such program where Find looks.
var ErrNotFound = errors.New("helper program not found")

// Find returns the path of the helper program name: the one the
// environment variable env names, else name beside the running program,
// else name on PATH. A path env names that does not exist is an error
// saying so; a helper found nowhere is ErrNotFound.
func Find(env, name string) (string, error) {
	if p := os.Getenv(env); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("$%s names %s: %w", env, p, err)
		}
		return p, nil
	}
	if exe, err := os.Executable(); err == nil {
		p := filepath.Join(filepath.Dir(exe), name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return p, nil
		}
	}
	p, err := exec.LookPath(name)
	if err != nil {
		return "", ErrNotFound
	}
	return p, nil
}
