# shares.awk: where an instrumented program's CPU time goes, by the part
# of suncat's writer it is spent in, from a perf profile with call stacks.
#
#   SUNCAT_TRACE=/tmp/rbtr/ perf record -g -F 10000 -o perf.data -- ./recbench-instrumented -passes 48
#   perf script -i perf.data -F ip,sym | awk -f testdata/recbench/shares.awk | sort -rn
#
# Each sample is charged to the innermost frame of the writer on its stack
# (the package suncatrt, the writer as compiled into the program), or of
# the clock's and the hash's own frames below it; samples with neither are
# the program's own work and its garbage collection. A sample in a flat
# table (flat.go) is charged to its caller: the table serves both the
# values and the call-site tree. The last line is the number of samples.
BEGIN { RS = "" }
{
	total++
	n = split($0, line, "\n")
	part = "program and its GC"
	table = 0
	for (i = 1; i <= n; i++) {
		split(line[i], field, " ")
		f = field[2]
		if (f ~ /suncatrt\./) {
			if (f ~ /flatTable|idKeys/) {
				table = 1
				continue
			}
			part = writerPart(f)
			break
		}
		if (f ~ /vdso|time\.Since|runtimeNano|nanotime1/) {
			part = "clock and order"
			break
		}
		if (f ~ /maphash|aeshash/) {
			part = "values"
			break
		}
	}
	if (part == "program and its GC" && table)
		part = "flat tables"
	count[part]++
}
END {
	for (p in count)
		printf "%5.1f%% %s\n", 100 * count[p] / total, p
	print total, "samples"
}

function writerPart(f) {
	if (f ~ /fpCallers/) return "walk"
	if (f ~ /nanotime|\.now$|order/) return "clock and order"
	if (f ~ /internString|valueDict|valueHash|hashString|\.cut$/) return "values"
	if (f ~ /callTree|commonRoot|defineFrames|memoSet/) return "call-site tree"
	if (f ~ /mapSpare|refill|unmapChunk|retire|wantsMapping/) return "mapper (chunks of the trace file)"
	if (f ~ /\(\*writer\)\.event|stackRef|reserve|commit|advance|nextChunk|leave|countChunk|writeChunk/) return "event: encode, reserve, commit"
	return "glue: String, record, pin, unpin, ready"
}
