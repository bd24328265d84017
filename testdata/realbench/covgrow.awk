# covgrow.awk: reads the go tool covdata textfmt files of one program run
# at growing input sizes (smallest first) and prints, per cover block
# with a count at the largest size, the ratio of its largest count to its
# smallest and its counts, fastest growing first (for sort -rn). A block
# whose ratio passes the ratio of the sizes grows faster than linear.
#
#	awk -f covgrow.awk cover100.txt cover200.txt cover400.txt cover800.txt | sort -rn | head -30
FNR == 1 { f++ }
/^mode:/ { next }
{
  blk = $1; c[blk, f] += $3; seen[blk] = 1
}
END {
  for (b in seen) {
    last = c[b, f]; first = c[b, 1]
    if (last == 0) continue
    s = c[b, 1]
    for (i = 2; i <= f; i++) s = s "|" c[b, i]
    r = first > 0 ? last / first : 1e9
    n = split(b, parts, "/")
    printf "%10.1f  %s  %s\n", r, s, parts[n]
  }
}
