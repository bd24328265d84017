#!/bin/sh
# mkproto.sh KIND N DIR: write .proto inputs for protodrive.go into DIR
# (created; old .proto files removed). The file to compile is always
# DIR/main.proto (proto2, package bench). Used by doc/cases/protocompile-reads.md.
#   msgs N     one file, N messages M<i>, each: a field of the previous
#              message's type, an enum field, field and message options
#   fields N   one message of N int64 fields with [json_name, deprecated]
#   enum N     one enum of N values with [deprecated], one field with a default
#   defaults N the enum of N values and a message of N fields of that enum,
#              field i with [default = V<i>]
#   fanin N    N files d<i>.proto (message D<i>) and main.proto importing all
#              of them, a message with one field of each D<i>
#   chain N    N files c<i>.proto, c<i> does `import public` c<i-1>; each
#              has a message with a field of C0's type (the chain's start),
#              one of the previous message and a [deprecated] option;
#              main.proto imports the last
#   flat N     the same small input whatever N (a control)
set -e
kind=$1 n=$2 dir=$3
[ -n "$dir" ] || { echo "usage: mkproto.sh KIND N DIR" >&2; exit 2; }
mkdir -p "$dir"
rm -f "$dir"/*.proto
hdr='syntax = "proto2";
package bench;
'
case $kind in
msgs)
	{
		echo "$hdr"
		echo 'enum Color { RED = 0; GREEN = 1; BLUE = 2; }'
		echo 'message M0 { optional string name = 1; }'
		i=1
		while [ $i -lt "$n" ]; do
			printf 'message M%d {\n  option deprecated = true;\n  optional string name = 1 [deprecated = true];\n  optional M%d prev = 2;\n  optional Color color = 3 [default = GREEN];\n  repeated int32 vals = 4 [packed = true];\n}\n' $i $((i - 1))
			i=$((i + 1))
		done
	} >"$dir/main.proto"
	;;
fields)
	{
		echo "$hdr"
		echo 'message Big {'
		i=1
		while [ $i -le "$n" ]; do
			printf '  optional int64 f%d = %d [json_name = "j%d", deprecated = true];\n' $i $i $i
			i=$((i + 1))
		done
		echo '}'
	} >"$dir/main.proto"
	;;
enum | defaults)
	{
		echo "$hdr"
		echo 'enum E {'
		i=0
		while [ $i -lt "$n" ]; do
			printf '  V%d = %d [deprecated = true];\n' $i $i
			i=$((i + 1))
		done
		echo '}'
		echo 'message Holder {'
		if [ "$kind" = enum ]; then
			printf '  optional E e = 1 [default = V%d];\n' $((n - 1))
		else
			i=0
			while [ $i -lt "$n" ]; do
				printf '  optional E f%d = %d [default = V%d];\n' $i $((i + 1)) $i
				i=$((i + 1))
			done
		fi
		echo '}'
	} >"$dir/main.proto"
	;;
fanin)
	i=0
	while [ $i -lt "$n" ]; do
		printf '%s\nmessage D%d { option deprecated = true; optional int32 x = 1 [deprecated = true]; }\n' "$hdr" $i >"$dir/d$i.proto"
		i=$((i + 1))
	done
	{
		echo "$hdr"
		i=0
		while [ $i -lt "$n" ]; do
			printf 'import "d%d.proto";\n' $i
			i=$((i + 1))
		done
		echo 'message Top {'
		i=0
		while [ $i -lt "$n" ]; do
			printf '  optional D%d d%d = %d;\n' $i $i $((i + 1))
			i=$((i + 1))
		done
		echo '}'
	} >"$dir/main.proto"
	;;
chain)
	printf '%s\nmessage C0 { optional int32 x = 1 [deprecated = true]; }\n' "$hdr" >"$dir/c0.proto"
	i=1
	while [ $i -lt "$n" ]; do
		printf '%s\nimport public "c%d.proto";\nmessage C%d { optional C0 root = 1; optional C%d prev = 2 [deprecated = true]; }\n' "$hdr" $((i - 1)) $i $((i - 1)) >"$dir/c$i.proto"
		i=$((i + 1))
	done
	printf '%s\nimport "c%d.proto";\nmessage Main { optional C0 root = 1; optional C%d last = 2; }\n' "$hdr" $((n - 1)) $((n - 1)) >"$dir/main.proto"
	;;
flat)
	printf '%s\nenum Color { RED = 0; GREEN = 1; }\nmessage Dep { optional Color c = 1 [default = GREEN]; }\n' "$hdr" >"$dir/dep.proto"
	printf '%s\nimport "dep.proto";\nmessage Main {\n  option deprecated = true;\n  optional Dep dep = 1 [deprecated = true];\n  repeated int32 v = 2 [packed = true];\n  optional string s = 3 [json_name = "str"];\n}\n' "$hdr" >"$dir/main.proto"
	;;
*)
	echo "mkproto.sh: unknown kind $kind" >&2
	exit 2
	;;
esac
