package main

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// --timeout takes plain seconds as well as a duration, and every command
// that reads files (schema too) takes it (issue 48, item 14).
func TestTimeoutSecondsAndSchema(t *testing.T) {
	f := filepath.Join(t.TempDir(), "a.orc")
	writeORC(t, f, 0, 3)
	defer func() { netTimeout = 0 }()
	for _, tc := range []struct {
		value string
		want  time.Duration
	}{{"5", 5 * time.Second}, {"0.25", 250 * time.Millisecond}, {"10s", 10 * time.Second}, {"1m30s", 90 * time.Second}} {
		for _, cmd := range []string{"cat", "schema", "count"} {
			netTimeout = 0
			if _, _, err := runCmd(t, cmd, "--timeout", tc.value, f); err != nil {
				t.Errorf("%s --timeout %s: %v", cmd, tc.value, err)
			}
			if netTimeout != tc.want {
				t.Errorf("%s --timeout %s: %v, want %v", cmd, tc.value, netTimeout, tc.want)
			}
		}
	}
	_, _, err := runCmd(t, "cat", "--timeout", "soon", f)
	if err == nil || !strings.Contains(err.Error(), "such as 10s") {
		t.Errorf("--timeout soon: %v; want it to say what a duration looks like", err)
	}
}
