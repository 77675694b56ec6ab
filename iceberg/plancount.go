package iceberg

import (
	"context"
	"fmt"

	ice "github.com/apache/iceberg-go"
	"github.com/apache/iceberg-go/table"
)

// Counting what scan planning ruled out, for WithPlanCounts. iceberg-go's
// planning returns only the files it kept; to say why the others went, the
// live data files of the snapshot are listed from its manifests (all of
// them, read once more: the price of the counts) and each file not kept is
// tested against the row filter projected onto its partition spec, as
// iceberg-go's planning projects it (Apache Iceberg's inclusive
// projection). A file that projection rules out was skipped by its
// partition (or, with it, by its manifest's partition summaries, which
// bound the partition values of the files in it); any other file not
// kept was skipped by its column metrics.

// countPlan fills st's FilesConsidered, SkippedByPartition and
// SkippedByMetrics for a scan of snap with filter f that planned tasks.
func countPlan(ctx context.Context, tbl *table.Table, snap *table.Snapshot, f ice.BooleanExpression,
	tasks []table.FileScanTask, st *ScanStats) error {
	if snap == nil {
		return nil // an empty table
	}
	fs, err := tbl.FS(ctx)
	if err != nil {
		return err
	}
	kept := make(map[string]bool, len(tasks))
	for _, t := range tasks {
		kept[t.File.FilePath()] = true
	}
	manifests, err := snap.Manifests(fs)
	if err != nil {
		return err
	}
	evals := map[int32]func(ice.DataFile) (bool, error){}
	for _, m := range manifests {
		if m.ManifestContent() != ice.ManifestContentData {
			continue
		}
		eval, ok := evals[m.PartitionSpecID()]
		if !ok {
			spec := tbl.Metadata().PartitionSpecByID(int(m.PartitionSpecID()))
			if spec == nil {
				return fmt.Errorf("iceberg: manifest %s: no partition spec %d", m.FilePath(), m.PartitionSpecID())
			}
			if eval, err = partitionEvaluator(tbl.Schema(), *spec, f); err != nil {
				return fmt.Errorf("iceberg: projecting the filter on partition spec %d: %w", spec.ID(), err)
			}
			evals[m.PartitionSpecID()] = eval
		}
		for e, err := range m.Entries(fs, true) {
			if err != nil {
				return err
			}
			df := e.DataFile()
			st.FilesConsidered++
			if kept[df.FilePath()] {
				continue
			}
			match, err := eval(df)
			if err != nil {
				return fmt.Errorf("iceberg: data file %s: %w", df.FilePath(), err)
			}
			if match {
				st.SkippedByMetrics++
			} else {
				st.SkippedByPartition++
			}
		}
	}
	return nil
}

// partitionEvaluator returns a test of whether a data file of spec may
// hold rows filter f keeps, by its partition values alone.
func partitionEvaluator(s *ice.Schema, spec ice.PartitionSpec, f ice.BooleanExpression) (func(ice.DataFile) (bool, error), error) {
	e, err := ice.RewriteNotExpr(f)
	if err != nil {
		return nil, err
	}
	bound, err := ice.BindExpr(s, e, true)
	if err != nil {
		return nil, err
	}
	proj, err := ice.VisitExpr(bound, &projector{spec: spec})
	if err != nil {
		return nil, err
	}
	partType := spec.PartitionType(s)
	fn, err := ice.ExpressionEvaluator(ice.NewSchema(0, partType.FieldList...), proj, true)
	if err != nil {
		return nil, err
	}
	return func(df ice.DataFile) (bool, error) {
		return fn(partitionRow{values: df.Partition(), fields: partType.FieldList})
	}, nil
}

// projector projects a bound row filter onto a partition spec: each
// predicate becomes the AND of what every partition field of its column
// implies (none: TRUE), so that the projection keeps every partition
// holding a row the filter keeps.
type projector struct{ spec ice.PartitionSpec }

func (*projector) VisitTrue() ice.BooleanExpression  { return ice.AlwaysTrue{} }
func (*projector) VisitFalse() ice.BooleanExpression { return ice.AlwaysFalse{} }

// VisitNot is not reached: the filter's NOTs were rewritten away.
func (*projector) VisitNot(ice.BooleanExpression) ice.BooleanExpression { return ice.AlwaysTrue{} }

func (*projector) VisitAnd(l, r ice.BooleanExpression) ice.BooleanExpression { return ice.NewAnd(l, r) }
func (*projector) VisitOr(l, r ice.BooleanExpression) ice.BooleanExpression  { return ice.NewOr(l, r) }

// VisitUnbound is not reached: the filter is bound.
func (*projector) VisitUnbound(ice.UnboundPredicate) ice.BooleanExpression { return ice.AlwaysTrue{} }

func (p *projector) VisitBound(pred ice.BoundPredicate) ice.BooleanExpression {
	var out ice.BooleanExpression = ice.AlwaysTrue{}
	for _, pf := range p.spec.FieldsBySourceID(pred.Term().Ref().Field().ID) {
		proj, err := pf.Transform.Project(pf.Name, pred)
		if err != nil || proj == nil {
			continue // this field implies nothing
		}
		out = ice.NewAnd(out, proj)
	}
	return out
}

// partitionRow is a data file's partition values as a row of the
// partition type.
type partitionRow struct {
	values map[int]any
	fields []ice.NestedField
}

func (r partitionRow) Size() int       { return len(r.fields) }
func (r partitionRow) Get(pos int) any { return r.values[r.fields[pos].ID] }
func (r partitionRow) Set(int, any)    {}
