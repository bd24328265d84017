#!/bin/sh
# mkcobra.sh SHAPE N: writes to stdout the main.go of a generated
# github.com/spf13/cobra CLI "app" (doc/cases/cobra-reads.md), one
# statement a command or flag, as a code generator would write it:
#
#	wide    N persistent string flags --flag0..--flagN-1 on the root and
#	        N leaf subcommands cmd0..cmdN-1
#	groups  as wide, and the commands in N/10 groups g0.., cmdI in g(I mod N/10)
#	deep    a chain of N commands d1 > d2 > ... > dN under the root, each
#	        runnable, added parent first (root.AddCommand(d1), d1.AddCommand(d2), ...)
#
# Every leaf runs `run`, which prints its command path, the flags set and
# the arguments left. main comes first and calls build(), which makes the
# tree, so that main's call of Execute is at the same line at every N
# (suncat matches call stacks by file and line). Build it in a module
# that requires cobra v1.10.2.
shape=$1 n=$2
awk -v shape="$shape" -v n="$n" 'BEGIN {
	print "package main\n"
	print "import (\n\t\"fmt\"\n\t\"os\"\n\n\t\"github.com/spf13/cobra\"\n)\n"
	print "func run(cmd *cobra.Command, args []string) {"
	print "\tfmt.Printf(\"%s: %d flags set, %d args\\n\", cmd.CommandPath(), cmd.Flags().NFlag(), len(args))"
	print "}\n"
	print "func main() {\n\tif err := build().Execute(); err != nil {\n\t\tos.Exit(1)\n\t}\n}\n"
	if (shape == "wide" || shape == "groups") printf "var flags [%d]string\n\n", n
	print "func build() *cobra.Command {"
	printf "\troot := &cobra.Command{Use: \"app\", Short: \"A generated CLI (%s %d)\"}\n", shape, n
	if (shape == "wide" || shape == "groups") {
		print "\tpf := root.PersistentFlags()"
		for (i = 0; i < n; i++)
			printf "\tpf.StringVar(&flags[%d], \"flag%d\", \"\", \"flag %d\")\n", i, i, i
		g = int(n / 10)
		if (shape == "groups")
			for (i = 0; i < g; i++)
				printf "\troot.AddGroup(&cobra.Group{ID: \"g%d\", Title: \"Group %d:\"})\n", i, i
		for (i = 0; i < n; i++) {
			grp = shape == "groups" ? sprintf(", GroupID: \"g%d\"", i % g) : ""
			printf "\troot.AddCommand(&cobra.Command{Use: \"cmd%d\", Short: \"command %d\"%s, Run: run})\n", i, i, grp
		}
	} else if (shape == "deep") {
		p = "root"
		for (i = 1; i <= n; i++) {
			printf "\td%d := &cobra.Command{Use: \"d%d\", Short: \"level %d\", Run: run}\n", i, i, i
			printf "\t%s.AddCommand(d%d)\n", p, i
			p = "d" i
		}
	} else {
		print "mkcobra.sh: SHAPE is wide, groups or deep" > "/dev/stderr"
		exit 2
	}
	print "\treturn root\n}"
}'
