package orccloud_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Azure/azure-sdk-for-go/sdk/storage/azblob/container"
	orccloud "github.com/orcgo/orc/cloud"
)

// Azure Blob Storage is Azurite (the npm package azurite), which .ci/run
// installs and names by $ORCGO_AZURITE (its azurite-blob program); the
// tests look for azurite-blob on PATH too. Without it they skip, saying
// so, except under CI, where its absence fails them.

// azuriteKey is Azurite's published development account key.
const azuriteKey = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="

// azurite is the Azurite process the tests share (started by the first
// that needs it, ended by TestMain), and how many containers they made.
var azurite struct {
	once       sync.Once
	addr       string
	err        error
	containers atomic.Int64
}

// runAzurite starts Azurite's blob service on 127.0.0.1, in memory.
func runAzurite(bin string) (string, error) {
	return runServer("Azurite", bin, func(port int) []string {
		return []string{"--blobHost", "127.0.0.1", "--blobPort", strconv.Itoa(port),
			"--inMemoryPersistence", "--silent", "--skipApiVersionCheck", "--loose", "--disableTelemetry"}
	})
}

// runServer starts the server program bin on a free port of 127.0.0.1,
// with the arguments args gives for the port, waits until it listens,
// and has TestMain end it. Its standard output is left unread (start-up
// banners); its standard error goes to the test's.
func runServer(name, bin string, args func(port int) []string) (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cmd := exec.Command(bin, args(port)...)
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("starting %s %s: %v", name, bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	atExit(func() { cmd.Process.Kill(); <-exited })
	addr := "127.0.0.1:" + strconv.Itoa(port)
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return addr, nil
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("%s did not listen on %s in 20s", name, addr)
		}
		select {
		case err := <-exited:
			exited <- err
			return "", fmt.Errorf("%s %s exited: %v", name, bin, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// serverProgram returns the program of a test server: $env, or name on
// PATH. Without it the test skips, saying how to install it, except under
// CI, where .ci/run installs it and its absence fails the test.
func serverProgram(t *testing.T, env, name, install string) string {
	t.Helper()
	bin := os.Getenv(env)
	if bin == "" {
		bin, _ = exec.LookPath(name)
	}
	if bin == "" {
		msg := fmt.Sprintf("%s is not installed (%s, or set %s to the program): these tests need it", name, install, env)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return bin
}

// startAzurite returns a new container of the shared Azurite, reached
// through the SDK's environment chain and a counting proxy.
func startAzurite(t *testing.T, name string) store {
	t.Helper()
	bin := serverProgram(t, "ORCGO_AZURITE", "azurite-blob", "npm install azurite; the program is node_modules/.bin/azurite-blob")
	azurite.once.Do(func() { azurite.addr, azurite.err = runAzurite(bin) })
	if azurite.err != nil {
		t.Fatal(azurite.err)
	}
	addr := azurite.addr
	name = fmt.Sprintf("%s-%d", name, azurite.containers.Add(1))
	p, purl := startProxy(t, "http://"+addr)
	t.Setenv("AZURE_STORAGE_ACCOUNT", "devstoreaccount1")
	t.Setenv("AZURE_STORAGE_KEY", azuriteKey)
	for _, k := range []string{"AZURE_STORAGE_CONNECTION_STRING", "AZURE_STORAGE_SAS_TOKEN", "AZURE_STORAGE_DOMAIN"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	s := store{name: "azure", base: "azblob://" + name + "/",
		query: "?localemu=true&protocol=http&domain=" + purl[len("http://"):], proxy: p}
	// Azurite starts with no container: make one.
	st, _, err := orccloud.OpenStore(context.Background(), s.url(""))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var cc *container.Client
	if !st.Bucket().As(&cc) {
		t.Fatal("the azblob bucket is not a container.Client")
	}
	if _, err := cc.Create(context.Background(), nil); err != nil {
		t.Fatalf("creating the container: %v", err)
	}
	return s
}

// TestAzureWrongKey: Azurite checks the SharedKey signature, so a wrong
// key is refused by the server itself: orc's error names the URL and
// says where credentials come from. (Through the orc command: gocloud.dev
// reads the environment once per process.)
func TestAzureWrongKey(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the orc and orc-cloud commands")
	}
	s := startAzurite(t, "orcgo-test")
	url := s.url("k.orc")
	upload(t, url, 0, 1000)
	t.Setenv("AZURE_STORAGE_KEY", "d3Jvbmcga2V5IG9mIHRoZSB0ZXN0LCBub3QgQXp1cml0ZSdzIGtleSBhdCBhbGw=")
	before := s.proxy.count()
	_, errs, code := orcRun(t, "cat", url)
	if code != 1 || !strings.Contains(errs, s.base+"k.orc") || !strings.Contains(errs, "access denied") || !strings.Contains(errs, "AZURE_STORAGE_KEY") {
		t.Fatalf("a wrong key: exit %d: %s", code, errs)
	}
	if n := s.proxy.count() - before; n > 2 {
		t.Errorf("a refused open sent %d requests", n)
	}
	t.Log(errs)
}
