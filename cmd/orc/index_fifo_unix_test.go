//go:build unix

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/orcgo/orc/dataset/statsindex"
)

// orc index check, show and update refuse an index that is not a regular
// file (a named pipe, which would block the open until a writer came),
// at once and naming it.
func TestIndexFIFO(t *testing.T) {
	dir := t.TempDir()
	writeORC(t, filepath.Join(dir, "a.orc"), 0, 100)
	ix := filepath.Join(dir, statsindex.FileName)
	if err := syscall.Mkfifo(ix, 0o600); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, sub := range []string{"check", "show", "update"} {
		done := make(chan error, 1)
		go func() {
			_, _, err := runCmd(t, "index", sub, dir)
			done <- err
		}()
		select {
		case err := <-done:
			if err == nil || !strings.Contains(err.Error(), "not a regular file") || !strings.Contains(err.Error(), statsindex.FileName) {
				t.Errorf("index %s of a FIFO: %v", sub, err)
			}
		case <-time.After(10 * time.Second):
			// Unblock the open so that the goroutine ends.
			if f, err := os.OpenFile(ix, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
				f.Close()
			}
			<-done
			t.Errorf("index %s of a FIFO blocked", sub)
		}
		if fi, err := os.Lstat(ix); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
			t.Fatal(fmt.Sprint("the FIFO was replaced: ", err))
		}
	}
}

// A command blocked where the soft stop cannot reach it (here reading a
// standard input that never ends) ends at the second SIGTERM or SIGINT.
func TestSecondSignalEnds(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	for _, sig := range []os.Signal{syscall.SIGTERM, os.Interrupt} {
		cmd := exec.Command(os.Args[0], "cat", "-")
		cmd.Env = append(os.Environ(), "ORCGO_TEST_MAIN=1")
		in, err := cmd.StdinPipe() // never written, never closed until the end
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		time.Sleep(200 * time.Millisecond) // let main install its handler
		cmd.Process.Signal(sig)
		time.Sleep(200 * time.Millisecond)
		cmd.Process.Signal(sig)
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("%v twice did not end the process", sig)
		}
		in.Close()
	}
}
