package storegw

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"
)

// Serve is the helper's main loop: it listens on 127.0.0.1, writes the
// greeting line (address and a fresh token) to out, and serves b until in
// ends (the command that started it exited or closed the pipe).
func Serve(b Backend, out io.Writer, in io.Reader) error {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	var tok [16]byte
	if _, err := rand.Read(tok[:]); err != nil {
		return err
	}
	token := hex.EncodeToString(tok[:])
	srv := &http.Server{Handler: Handler(token, b), ReadHeaderTimeout: time.Minute}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(l) }()
	if _, err := fmt.Fprintf(out, "%s %s http://%s %s\n", greeting, Version, l.Addr(), token); err != nil {
		srv.Close()
		return err
	}
	go func() {
		io.Copy(io.Discard, in)
		srv.Close()
	}()
	if err := <-done; err != http.ErrServerClosed {
		return err
	}
	return nil
}
