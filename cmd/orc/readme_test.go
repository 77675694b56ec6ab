package main

import (
	"bytes"
	"os"
	"regexp"
	"strings"
	"testing"
)

// Every command line the README shows names a command that exists and
// flags that command takes (as its --help lists them).
func TestReadmeCommandLines(t *testing.T) {
	data, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skip("README.md not found:", err)
	}
	reFlag := regexp.MustCompile(`(?:^|[\s\[(])--([a-z][a-z-]*)`)
	cmd, checked := "", 0
	for _, line := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case strings.HasPrefix(line, "    orc "):
			cmd = strings.Fields(trimmed)[1]
		case strings.HasPrefix(line, "        ") && cmd != "" && strings.HasPrefix(trimmed, "["):
			// a continuation of the command above
		default:
			cmd = ""
			continue
		}
		if cmd == "COMMAND" {
			continue
		}
		var help, errs bytes.Buffer
		if code := run([]string{cmd, "--help"}, &help, &errs); code != 0 {
			t.Errorf("README line %q: orc %s --help exits %d: %s", trimmed, cmd, code, errs.String())
			continue
		}
		// The usage text of the line: up to the description after wide
		// spacing.
		usage := trimmed
		if i := strings.Index(usage, "    "); i > 0 {
			usage = usage[:i]
		}
		for _, m := range reFlag.FindAllStringSubmatch(usage, -1) {
			if m[1] == "help" {
				continue
			}
			checked++
			if !strings.Contains(help.String(), "  -"+m[1]+" ") && !strings.Contains(help.String(), "  -"+m[1]+"\n") {
				t.Errorf("README line %q: orc %s has no flag --%s", trimmed, cmd, m[1])
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d flags found in the README's command lines", checked)
	}
}
