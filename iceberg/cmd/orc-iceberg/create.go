package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"sort"
	"strings"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/catalog"
	"github.com/apache/iceberg-go/table"
	"github.com/orcgo/orc/iceberg"
)

var createCmd = command{name: "create",
	usage: "create --catalog CATALOG NS.TABLE --schema S [--partition-by 'day(ts),bucket(16,id)'] [--metrics 'default=truncate(16),col=none'] [--property k=v] [--warehouse DIR]",
	desc:  "create a table whose data files are ORC",
	run:   runCreate}

// propFlag collects --property key=value.
type propFlag map[string]string

func (p propFlag) String() string { return "" }

func (p propFlag) Set(s string) error {
	k, v, ok := strings.Cut(s, "=")
	if !ok || k == "" {
		return fmt.Errorf("%q: want key=value", s)
	}
	p[k] = v
	return nil
}

func runCreate(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("create", flag.ContinueOnError)
	cf := addCatalogFlags(fs)
	schemaText := fs.String("schema", "", "the table's columns: an ORC type, struct<id:bigint,ts:timestamp,name:string> (every column\n"+
		"optional), or an Iceberg schema in JSON ({\"type\":\"struct\",\"fields\":[...]}, with required fields)")
	partBy := fs.String("partition-by", "", "the partition spec: columns and transforms, comma-separated: col, year(col), month(col),\n"+
		"day(col), hour(col), bucket(N, col), truncate(W, col), void(col)")
	metrics := fs.String("metrics", "", "metrics modes: default=MODE and col=MODE, comma-separated; MODE is none, counts,\n"+
		"truncate(N) or full (Iceberg's default: truncate(16), none past the first 100 columns)")
	props := propFlag{}
	fs.Var(props, "property", "a table property key=value (repeatable)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return errUsage
	}
	ident, err := parseIdent(pos[0])
	if err != nil {
		return err
	}
	if *schemaText == "" {
		return usageErr("--schema is required: struct<name:type,...>")
	}
	schema, err := iceberg.SchemaFromText(*schemaText)
	if err != nil {
		return usageErr("--schema: %s", strings.TrimPrefix(err.Error(), "iceberg: "))
	}
	spec, err := iceberg.ParsePartitionSpec(schema, *partBy)
	if err != nil {
		return usageErr("--partition-by: %s", strings.TrimPrefix(err.Error(), "iceberg: "))
	}
	mprops, err := iceberg.ParseMetricsModes(schema, *metrics)
	if err != nil {
		return usageErr("--metrics: %s", strings.TrimPrefix(err.Error(), "iceberg: "))
	}
	for k, v := range mprops {
		props[k] = v
	}
	if _, ok := props["write.format.default"]; !ok {
		props["write.format.default"] = "orc"
	}
	cat, err := cf.open(ctx, true)
	if err != nil {
		return err
	}
	defer cat.close()
	tbl, err := createTable(ctx, cat, ident, schema, spec, props)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "created %s at %s\n  schema: %s\n  partitioned by: %s\n  properties: %s\n", strings.Join(ident, "."),
		tbl.Location(), schemaLine(tbl.Schema()), specLine(tbl.Spec(), tbl.Schema()), propsLine(tbl.Properties()))
	return nil
}

// createTable creates the table, and its namespace when it has none.
func createTable(ctx context.Context, cat *openedCatalog, ident table.Identifier, s *ice.Schema,
	spec ice.PartitionSpec, props map[string]string) (*table.Table, error) {
	ns := catalog.NamespaceFromIdent(ident)
	exists, err := cat.CheckNamespaceExists(ctx, ns)
	if err != nil {
		return nil, fmt.Errorf("catalog %s: %w", cat.uri, err)
	}
	if !exists {
		if err := cat.CreateNamespace(ctx, ns, nil); err != nil && !errors.Is(err, catalog.ErrNamespaceAlreadyExists) {
			return nil, fmt.Errorf("catalog %s: creating namespace %s: %w", cat.uri, strings.Join(ns, "."), err)
		}
	}
	tbl, err := cat.CreateTable(ctx, ident, s, catalog.WithPartitionSpec(&spec), catalog.WithProperties(props))
	if errors.Is(err, catalog.ErrTableAlreadyExists) {
		return nil, fmt.Errorf("catalog %s already has a table %s", cat.uri, strings.Join(ident, "."))
	}
	if err != nil {
		return nil, fmt.Errorf("catalog %s: creating %s: %w", cat.uri, strings.Join(ident, "."), err)
	}
	return tbl, nil
}

// schemaLine prints a schema's columns on one line: name type, with
// "not null" on required ones.
func schemaLine(s *ice.Schema) string {
	var cols []string
	for _, f := range s.Fields() {
		c := f.Name + " " + f.Type.String()
		if f.Required {
			c += " not null"
		}
		cols = append(cols, c)
	}
	return strings.Join(cols, ", ")
}

// specLine prints a partition spec: name=transform(column), ...
func specLine(spec ice.PartitionSpec, s *ice.Schema) string {
	if spec.IsUnpartitioned() {
		return "(unpartitioned)"
	}
	var out []string
	for _, f := range spec.Fields() {
		src := "?"
		if len(f.SourceIDs) == 1 {
			if c, ok := s.FindColumnName(f.SourceIDs[0]); ok {
				src = c
			}
		}
		out = append(out, fmt.Sprintf("%s=%s(%s)", f.Name, f.Transform, src))
	}
	return strings.Join(out, ", ")
}

// propsLine prints properties sorted by key.
func propsLine(p ice.Properties) string {
	var out []string
	for k, v := range p {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}
