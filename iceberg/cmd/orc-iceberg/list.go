package main

import (
	"context"
	"flag"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

var filesCmd = command{name: "files",
	usage: "files --catalog CATALOG NS.TABLE [--snapshot ID]",
	desc:  "list the data and delete files of a table's snapshot: path, format, records, bytes, partition",
	run:   runFiles}

var snapshotsCmd = command{name: "snapshots",
	usage: "snapshots --catalog CATALOG NS.TABLE",
	desc:  "list a table's snapshots, the current one marked *",
	run:   runSnapshots}

func runFiles(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("files", flag.ContinueOnError)
	cf := addCatalogFlags(fs)
	snapshot := fs.String("snapshot", "", "list this snapshot's files (default: the current snapshot's)")
	cat, ident, tbl, err := parseTableArgs(ctx, fs, cf, args)
	if err != nil {
		return err
	}
	defer cat.close()
	snap := tbl.CurrentSnapshot()
	if *snapshot != "" {
		id, err := strconv.ParseInt(*snapshot, 10, 64)
		if err != nil {
			return usageErr("--snapshot %q: a snapshot id is a whole number (orc iceberg snapshots lists them)", *snapshot)
		}
		if snap = tbl.SnapshotByID(id); snap == nil {
			return fmt.Errorf("table %s has no snapshot %d (orc iceberg snapshots lists them)", strings.Join(ident, "."), id)
		}
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "content\tpath\tformat\trecords\tbytes\tpartition")
	if snap != nil {
		if err := listFiles(ctx, tw, tbl, snap); err != nil {
			return err
		}
	}
	return tw.Flush()
}

// listFiles prints a line per live file of snap's manifests.
func listFiles(ctx context.Context, tw *tabwriter.Writer, tbl *table.Table, snap *table.Snapshot) error {
	fs, err := tbl.FS(ctx)
	if err != nil {
		return err
	}
	manifests, err := snap.Manifests(fs)
	if err != nil {
		return err
	}
	for _, m := range manifests {
		spec := tbl.Metadata().PartitionSpecByID(int(m.PartitionSpecID()))
		for en, err := range m.Entries(fs, true) {
			if err != nil {
				return err
			}
			df := en.DataFile()
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\n", contentName(df.ContentType()), df.FilePath(), df.FileFormat(),
				df.Count(), df.FileSizeBytes(), partitionText(spec, tbl.Schema(), df.Partition()))
		}
	}
	return nil
}

func contentName(c ice.ManifestEntryContent) string {
	switch c {
	case ice.EntryContentPosDeletes:
		return "position-deletes"
	case ice.EntryContentEqDeletes:
		return "equality-deletes"
	}
	return "data"
}

// partitionText prints partition values as name=value, in the spec's
// order, each as the transform shows it (a day as 2024-01-02).
func partitionText(spec *ice.PartitionSpec, s *ice.Schema, values map[int]any) string {
	if spec == nil || spec.IsUnpartitioned() {
		return "-"
	}
	var out []string
	for _, f := range spec.Fields() {
		v := "null"
		if x, ok := values[f.FieldID]; ok && x != nil {
			v = fmt.Sprint(x)
			if len(f.SourceIDs) == 1 {
				if src, ok := s.FindFieldByID(f.SourceIDs[0]); ok {
					v = f.Transform.ToHumanStrType(src.Type, x)
				}
			}
		}
		out = append(out, f.Name+"="+v)
	}
	return strings.Join(out, ",")
}

func runSnapshots(ctx context.Context, e env, args []string) error {
	fs := flag.NewFlagSet("snapshots", flag.ContinueOnError)
	cf := addCatalogFlags(fs)
	cat, _, tbl, err := parseTableArgs(ctx, fs, cf, args)
	if err != nil {
		return err
	}
	defer cat.close()
	snaps := append([]table.Snapshot(nil), tbl.Metadata().Snapshots()...)
	sort.SliceStable(snaps, func(i, j int) bool { return snaps[i].SequenceNumber < snaps[j].SequenceNumber })
	var current int64 = -1
	if c := tbl.CurrentSnapshot(); c != nil {
		current = c.SnapshotID
	}
	tw := tabwriter.NewWriter(e.stdout, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "\tsnapshot\tparent\tcommitted\toperation\tadded-files\tadded-records\ttotal-files\ttotal-records")
	for _, s := range snaps {
		mark, parent := "", "-"
		if s.SnapshotID == current {
			mark = "*"
		}
		if s.ParentSnapshotID != nil {
			parent = strconv.FormatInt(*s.ParentSnapshotID, 10)
		}
		op, sum := "-", ice.Properties{}
		if s.Summary != nil {
			op, sum = string(s.Summary.Operation), s.Summary.Properties
		}
		get := func(k string) string {
			if v, ok := sum[k]; ok {
				return v
			}
			return "-"
		}
		fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", mark, s.SnapshotID, parent,
			time.UnixMilli(s.TimestampMs).UTC().Format("2006-01-02T15:04:05.000Z"), op,
			get("added-data-files"), get("added-records"), get("total-data-files"), get("total-records"))
	}
	return tw.Flush()
}
