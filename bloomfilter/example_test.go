package bloomfilter_test

import (
	"fmt"

	"github.com/orcgo/orc/bloomfilter"
)

// A writer builds one filter per row group and stores its Proto; a reader
// decodes it with FromProto and skips the row group when Test says false.
func Example() {
	f := bloomfilter.New(10000, bloomfilter.DefaultFPP)
	f.AddString("apple")
	f.AddLong(42)

	stored := f.Proto()
	g, err := bloomfilter.FromProto(stored)
	if err != nil {
		panic(err)
	}
	fmt.Println(g.NumBits(), g.NumHashFunctions())
	fmt.Println(g.TestString("apple"), g.TestLong(42), g.TestString("pear"))
	// Output:
	// 95872 7
	// true true false
}
