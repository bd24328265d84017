// Package protoimpl stands in for google.golang.org/protobuf's runtime
// packages, so that busv1/stop.pb.go keeps the shape of protoc-gen-go's
// output without a protobuf dependency.
package protoimpl

import "fmt"

type (
	MessageState  struct{ atomicMessageInfo *int }
	SizeCache     = int32
	UnknownFields = []byte
	EnumNumber    int32
)

type export struct{}

// X is protoimpl.X.
var X export

// reject call to fmt.Sprint
func (export) MessageStringOf(m interface{}) string { return fmt.Sprint(m) }

// reject call to fmt.Sprint
func (export) EnumStringOf(names map[int32]string, n EnumNumber) string {
	return fmt.Sprint(n)
}
