package main

import (
	"context"
	"database/sql"
	"errors"
	"flag"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/catalog/rest"
	sqlcat "github.com/apache/iceberg-go/catalog/sql"
	"github.com/apache/iceberg-go/table"
	_ "modernc.org/sqlite" // the SQL catalog's SQLite driver, without cgo
)

// catalogName is the name the SQL catalog files its tables under (as
// pyiceberg's and Apache Iceberg's default catalog is named).
const catalogName = "default"

// catalogFlags are --catalog and --warehouse, which every command takes.
type catalogFlags struct {
	uri, warehouse *string
}

func addCatalogFlags(fs *flag.FlagSet) catalogFlags {
	return catalogFlags{
		uri: fs.String("catalog", "", "the catalog: sqlite:PATH (an SQL catalog in an SQLite file) or rest:URL (an Iceberg REST catalog)"),
		warehouse: fs.String("warehouse", "", "where new tables go: a directory for sqlite: (default PATH.warehouse beside the catalog),\n"+
			"the warehouse the REST catalog is asked for with rest:"),
	}
}

// openedCatalog is a catalog and what to say of it in messages.
type openedCatalog struct {
	catalog.Catalog
	uri   string
	close func()
}

// open opens the catalog; create allows an SQLite catalog file that does
// not exist yet (orc iceberg create makes it).
func (f catalogFlags) open(ctx context.Context, create bool) (*openedCatalog, error) {
	uri := *f.uri
	switch {
	case uri == "":
		return nil, usageErr("--catalog is required: sqlite:PATH or rest:URL")
	case strings.HasPrefix(uri, "sqlite:"):
		return openSQLite(uri, strings.TrimPrefix(uri, "sqlite:"), *f.warehouse, create)
	case strings.HasPrefix(uri, "rest:"):
		return openREST(ctx, uri, strings.TrimPrefix(uri, "rest:"), *f.warehouse)
	}
	return nil, usageErr("--catalog %q: want sqlite:PATH or rest:URL", uri)
}

// openSQLite opens the SQL catalog in the SQLite file path.
func openSQLite(uri, path, warehouse string, create bool) (*openedCatalog, error) {
	if path == "" {
		return nil, usageErr("--catalog %q: sqlite: needs the catalog file's path, sqlite:PATH", uri)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	switch {
	case err == nil && st.IsDir():
		return nil, fmt.Errorf("catalog %s: %s is a directory, not an SQLite file", uri, path)
	case errors.Is(err, os.ErrNotExist) && !create:
		return nil, fmt.Errorf("catalog %s: %s does not exist (orc iceberg create --catalog %s makes it with its first table)", uri, path, uri)
	case errors.Is(err, os.ErrNotExist):
		if _, derr := os.Stat(filepath.Dir(abs)); derr != nil {
			return nil, fmt.Errorf("catalog %s: its directory %s does not exist", uri, filepath.Dir(path))
		}
	case err != nil:
		return nil, fmt.Errorf("catalog %s: %w", uri, err)
	}
	if warehouse == "" {
		warehouse = abs + ".warehouse"
	}
	if warehouse, err = filepath.Abs(warehouse); err != nil {
		return nil, err
	}
	q := url.Values{"_pragma": {"busy_timeout(10000)", "journal_mode(WAL)"}}
	db, err := sql.Open("sqlite", "file:"+abs+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("catalog %s: %w", uri, err)
	}
	cat, err := sqlcat.NewCatalog(catalogName, db, sqlcat.SQLite, ice.Properties{"warehouse": "file://" + warehouse})
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("catalog %s: not an SQL catalog: %w", uri, err)
	}
	return &openedCatalog{Catalog: cat, uri: uri, close: func() { db.Close() }}, nil
}

// openREST opens the REST catalog at base.
func openREST(ctx context.Context, uri, base, warehouse string) (*openedCatalog, error) {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, usageErr("--catalog %q: rest: needs the catalog's http:// or https:// URL, rest:URL", uri)
	}
	var opts []rest.Option
	if warehouse != "" {
		opts = append(opts, rest.WithWarehouseLocation(warehouse))
	}
	cat, err := rest.NewCatalog(ctx, "rest", base, opts...)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: %w", uri, err)
	}
	return &openedCatalog{Catalog: cat, uri: uri, close: func() {}}, nil
}

// parseIdent reads NS.TABLE (a namespace of several levels: A.B.TABLE).
func parseIdent(s string) (table.Identifier, error) {
	parts := strings.Split(s, ".")
	if len(parts) < 2 {
		return nil, usageErr("table %q: name it NAMESPACE.TABLE, such as db.events", s)
	}
	for _, p := range parts {
		if p == "" {
			return nil, usageErr("table %q: an empty name between dots", s)
		}
	}
	return parts, nil
}

// loadTable loads the table ident names.
func (c *openedCatalog) loadTable(ctx context.Context, ident table.Identifier) (*table.Table, error) {
	tbl, err := c.LoadTable(ctx, ident)
	if errors.Is(err, catalog.ErrNoSuchTable) || errors.Is(err, catalog.ErrNoSuchNamespace) {
		return nil, fmt.Errorf("catalog %s has no table %s (orc iceberg create makes one)", c.uri, strings.Join(ident, "."))
	}
	if err != nil {
		return nil, fmt.Errorf("table %s in catalog %s: %w", strings.Join(ident, "."), c.uri, err)
	}
	return tbl, nil
}

// parseTableArgs parses args with fs, then opens the table they name
// (tableArgs).
func parseTableArgs(ctx context.Context, fs *flag.FlagSet, cf catalogFlags, args []string) (*openedCatalog, table.Identifier, *table.Table, error) {
	pos, err := parseFlags(fs, args)
	if err != nil {
		return nil, nil, nil, err
	}
	return tableArgs(ctx, cf, pos)
}

// tableArgs opens the catalog and loads the one table named in pos.
func tableArgs(ctx context.Context, cf catalogFlags, pos []string) (*openedCatalog, table.Identifier, *table.Table, error) {
	if len(pos) != 1 {
		return nil, nil, nil, errUsage
	}
	ident, err := parseIdent(pos[0])
	if err != nil {
		return nil, nil, nil, err
	}
	cat, err := cf.open(ctx, false)
	if err != nil {
		return nil, nil, nil, err
	}
	tbl, err := cat.loadTable(ctx, ident)
	if err != nil {
		cat.close()
		return nil, nil, nil, err
	}
	return cat, ident, tbl, nil
}
