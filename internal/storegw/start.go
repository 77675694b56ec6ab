package storegw

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	"github.com/orcgo/orc/internal/helper"
)

// HelperName is the helper program's name.
const HelperName = "orc-cloud"

// HelperEnv names the environment variable that gives the helper's path.
const HelperEnv = "ORC_CLOUD"

// ErrNoHelper: the helper program was not found.
var ErrNoHelper = errors.New("object store URLs (s3://, gs://, azblob://) are read by the orc-cloud helper, which was not found: " +
	"go install github.com/orcgo/orc/cloud/cmd/orc-cloud@latest, then have it on PATH, beside orc, or named by $ORC_CLOUD")

var started struct {
	once sync.Once
	c    *Client
	err  error
}

// Shared returns the client of the helper this process started, starting
// it at the first call.
func Shared() (*Client, error) {
	started.once.Do(func() { started.c, started.err = Start() })
	return started.c, started.err
}

// findHelper returns the helper's path: $ORC_CLOUD, else orc-cloud beside
// this program, else on PATH (helper.Find).
func findHelper() (string, error) {
	p, err := helper.Find(HelperEnv, HelperName)
	if errors.Is(err, helper.ErrNotFound) {
		return "", ErrNoHelper
	}
	return p, err
}

// Start starts the helper and returns its client. The helper lives as
// long as this process: it ends when its standard input, a pipe this
// process holds, closes.
func Start() (*Client, error) {
	path, err := findHelper()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(path, "serve")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting the orc-cloud helper %s: %w", path, err)
	}
	keep(stdin)
	line := make(chan string, 1)
	go func() {
		l, _ := bufio.NewReader(stdout).ReadString('\n')
		line <- l
		io.Copy(io.Discard, stdout)
	}()
	var l string
	select {
	case l = <-line:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		return nil, fmt.Errorf("the orc-cloud helper %s did not start in 30s", path)
	}
	f := strings.Fields(l)
	if len(f) != 4 || f[0] != greeting || f[1] != Version || !strings.HasPrefix(f[2], "http://127.0.0.1:") {
		cmd.Process.Kill()
		return nil, fmt.Errorf("the orc-cloud helper %s answered %q, not %q (an orc-cloud of another version?)", path, strings.TrimSpace(l), greeting+" "+Version+" URL TOKEN")
	}
	go cmd.Wait()
	return NewClient(f[2], f[3]), nil
}

// held keeps the helpers' standard inputs open for the process's life.
var held struct {
	mu sync.Mutex
	w  []io.Closer
}

func keep(w io.Closer) {
	held.mu.Lock()
	held.w = append(held.w, w)
	held.mu.Unlock()
}
