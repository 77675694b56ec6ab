package orcpb_test

import (
	"testing"

	"github.com/orcgo/orc/format/orcpb"
	"github.com/orcgo/orc/format/orcpb/internal/clash"
	"google.golang.org/protobuf/proto"
)

// This test binary links a second generated "orc.proto" (package
// "orc.proto", as scritchley/orc and others register theirs): with both
// files registered under the same name the binary would panic at start.
func TestNoRegistrationClash(t *testing.T) {
	a, err := proto.Marshal(&orcpb.PostScript{FooterLength: proto.Uint64(7)})
	if err != nil {
		t.Fatal(err)
	}
	var b clash.PostScript
	if err := proto.Unmarshal(a, &b); err != nil || b.GetFooterLength() != 7 {
		t.Fatalf("%v, %d", err, b.GetFooterLength())
	}
}
