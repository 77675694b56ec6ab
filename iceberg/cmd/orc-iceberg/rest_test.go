package main

import (
	"database/sql"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	ice "github.com/apache/iceberg-go"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	"github.com/orcgo/orc/iceberg/internal/restcatalog"
)

// The commands through a rest: catalog: a REST catalog server on
// 127.0.0.1 (restcatalog, over iceberg-go's SQL catalog) and iceberg-go's
// REST client.
func TestRESTCatalogCommands(t *testing.T) {
	dir := t.TempDir()
	db, err := sql.Open("sqlite", "file:"+filepath.Join(dir, "server.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	wh := filepath.Join(dir, "warehouse")
	back, err := sqlcat.NewCatalog("server", db, sqlcat.SQLite, ice.Properties{"warehouse": "file://" + wh})
	if err != nil {
		t.Fatal(err)
	}
	srv := restcatalog.New(back)
	hs := httptest.NewServer(srv)
	defer hs.Close()
	cat := "rest:" + hs.URL

	out, _ := mustRun(t, "create", "--catalog", cat, "ns.events", "--schema", "struct<id:bigint,ts:timestamp,name:string,v:double>",
		"--partition-by", "day(ts)", "--metrics", "default=full,name=counts")
	if !strings.Contains(out, "created ns.events at file://"+filepath.Join(wh, "ns.db", "events")) {
		t.Errorf("create through REST:\n%s", out)
	}
	csv := filepath.Join(dir, "days12.csv")
	if err := os.WriteFile(csv, []byte(eventsCSV()), 0o644); err != nil {
		t.Fatal(err)
	}
	mustRun(t, "append", "--catalog", cat, "ns.events", "--header", csv)
	in := filepath.Join(dir, "day3.orc")
	writeORCInput(t, in)
	mustRun(t, "append", "--catalog", cat, "ns.events", in)
	if srv.Commits.Load() != 2 {
		t.Errorf("%d commits reached the REST server, want 2", srv.Commits.Load())
	}
	out, errOut := mustRun(t, "scan", "--catalog", cat, "ns.events", "--where", "ts >= TIMESTAMP '2024-01-02 00:00:00' AND id < 13", "--stats", "--columns", "id")
	if out != "{\"id\": 11}\n{\"id\": 12}\n" || !strings.Contains(errOut, "files: 3 considered, 1 skipped by partition, 1 skipped by metrics, 1 opened") {
		t.Errorf("scan through REST: %q\n%s", out, errOut)
	}
	out, _ = mustRun(t, "snapshots", "--catalog", cat, "ns.events")
	if m := reSnapshotLine.FindAllStringSubmatch(out, -1); len(m) != 2 || m[1][1] != "*" || m[1][7] != "30" {
		t.Errorf("snapshots through REST:\n%s", out)
	}
	out, _ = mustRun(t, "files", "--catalog", cat, "ns.events")
	if strings.Count(out, "\ndata ") != 3 {
		t.Errorf("files through REST:\n%s", out)
	}
	if _, errOut, code := runCLI(t, "scan", "--catalog", cat, "ns.nope"); code != 1 || !strings.Contains(errOut, "catalog "+cat+" has no table ns.nope") {
		t.Errorf("an unknown table through REST: exit %d: %s", code, errOut)
	}
	if _, errOut, code := runCLI(t, "scan", "--catalog", "rest:127.0.0.1:1", "ns.events"); code != 2 || !strings.Contains(errOut, "rest: needs the catalog's http:// or https:// URL") {
		t.Errorf("a REST URL without scheme: exit %d: %s", code, errOut)
	}
}
