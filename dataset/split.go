package dataset

import (
	"fmt"
)

// Split is a unit of work for a distributed scan: the stripes of File whose
// first byte lies in [Offset, Offset+Length). The splits Splits returns
// cover every stripe of every file exactly once, so scanning each once
// (WithSplits) returns every row once. It is plain data, for JSON.
type Split struct {
	File   string `json:"file"`
	Offset int64  `json:"offset"`
	Length int64  `json:"length"`
	Rows   int64  `json:"rows"` // rows of its stripes, for planning
}

// Splits cuts the dataset into splits of about targetBytes each: stripes of
// one file are grouped until they reach targetBytes, and a stripe is never
// cut. Files with no rows give no split. It opens every file's tail.
func (d *Dataset) Splits(targetBytes int64) ([]Split, error) {
	if targetBytes < 1 {
		return nil, fmt.Errorf("dataset: Splits(%d): the target must be at least 1 byte", targetBytes)
	}
	var out []Split
	for i, f := range d.files {
		of, err := d.open(i)
		if err != nil {
			return nil, err
		}
		stripes := of.r.Stripes()
		of.close()
		var cur *Split
		for _, st := range stripes {
			if cur == nil {
				out = append(out, Split{File: f.Name, Offset: st.Offset})
				cur = &out[len(out)-1]
			}
			cur.Length = st.Offset + st.Length() - cur.Offset
			cur.Rows += int64(st.NumRows)
			if cur.Length >= targetBytes {
				cur = nil
			}
		}
	}
	return out, nil
}
