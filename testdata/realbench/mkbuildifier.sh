#!/bin/sh
# mkbuildifier.sh FILE N [warn|wide]: writes a BUILD file of N rules for buildifier
# (github.com/bazelbuild/buildtools/buildifier). Used by
# doc/cases/buildifier-reads.md.
#
# The file starts with N/10 load statements, last first (buildifier sorts
# them), each of one macro m<j>_library from //tools:m<j>.bzl, and one of
# cc_library from @rules_cc (left out with warn: then each cc_library is a
# native-cc-library warning of buildifier -lint=warn, 9N/10 of them). Then N
# rules, each after a comment line: every tenth is m<i/10>_library, the
# others cc_library. Each rule has a name lib<i>, srcs of five files
# written in reverse order, hdrs of one, deps of four labels unsorted (one
# in //third_party/z*, the rule before it with a suffix comment, one in
# //third_party/a*, one in //base), then visibility, which buildifier
# moves before deps. Feed it on standard input: given a file name,
# buildifier's default -mode=fix rewrites the file in place.
#
#	buildifier -type=build < FILE                  # format to stdout
#	buildifier -lint=warn -type=build < FILE       # lint (warnings to stderr)
#	buildifier -mode=check -type=build < FILE      # exit 4: reformat needed
#
# With wide: one cc_library whose deps are N labels //pkg/d<k>:d<k>, k
# drawn at random (awk's rand after srand(1)), for the sort of one long
# list (n log n).
set -e
file=$1 n=$2 mode=$3
case $mode in
"" | warn | wide) ;;
*)
  echo "mkbuildifier.sh: the third argument is warn, wide or nothing, not $mode" >&2
  exit 2
  ;;
esac
if [ "$mode" = wide ]; then
  awk -v n="$n" 'BEGIN {
    srand(1)
    print "load(\"@rules_cc//cc:cc_library.bzl\", \"cc_library\")"
    print ""
    print "cc_library("
    print "    name = \"wide\","
    print "    deps = ["
    for (i = 0; i < n; i++) {
      k = int(rand() * 1000000000)
      printf "        \"//pkg/d%d:d%d\",\n", k, k
    }
    print "    ],"
    print ")"
  }' >"$file"
  exit 0
fi
awk -v n="$n" -v mode="$mode" 'BEGIN {
  print "# Generated BUILD file of " n " rules."
  print ""
  for (j = int(n / 10) - 1; j >= 0; j--)
    printf "load(\"//tools:m%d.bzl\", \"m%d_library\")\n", j, j
  if (mode != "warn") print "load(\"@rules_cc//cc:cc_library.bzl\", \"cc_library\")"
  print ""
  print "package(default_visibility = [\"//visibility:private\"])"
  for (i = 0; i < n; i++) {
    print ""
    printf "# Rule %d: a library.\n", i
    if (i % 10 == 0 && int(i / 10) < int(n / 10)) printf "m%d_library(\n", i / 10
    else print "cc_library("
    printf "    name = \"lib%d\",\n", i
    printf "    srcs = [\n"
    for (k = 4; k >= 0; k--) printf "        \"src%d_%d.cc\",\n", i, k
    printf "    ],\n"
    printf "    hdrs = [\"lib%d.h\"],\n", i
    printf "    deps = [\n"
    printf "        \"//third_party/z%d:z\",\n", i % 7
    if (i > 0) printf "        \":lib%d\",  # the one before\n", i - 1
    printf "        \"//third_party/a%d:a\",\n", i % 5
    printf "        \"//base:b%d\",\n", i % 3
    printf "    ],\n"
    printf "    visibility = [\"//visibility:public\"],\n"
    print ")"
  }
}' >"$file"
