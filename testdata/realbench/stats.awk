# stats.awk: reads `suncat events -stacks TRACE` and prints the events per
# getter and per goroutine entry, and the depth of the recorded stacks
# (frames from the getter to the goroutine's entry), weighted by events.
/^stack [0-9]+ / { cur = $2; next }
/^\t[^\t]/ && cur != "" { depth[cur]++; next }
/^[0-9]+ [0-9.]+s / {
  cur = ""; n++; g[$4]++; e[$3]++
  d = depth[$5]; sum += d; hist[d]++; if (d > max) max = d
  next
}
END {
  if (n == 0) { print "no events"; exit }
  c = 0
  for (d = 0; d <= max; d++) {
    c += hist[d]
    if (!p50 && c >= n * 0.5) p50 = d
    if (!p90 && c >= n * 0.9) p90 = d
    if (!p99 && c >= n * 0.99) p99 = d
  }
  printf "stack depth per event: mean %.1f, median %d, p90 %d, p99 %d, max %d\n", sum / n, p50, p90, p99, max
  for (x in g) printf "  getter %8d %s\n", g[x], x | "sort -k2 -nr | head -8"
  close("sort -k2 -nr | head -8")
  for (x in e) printf "  goroutine %8d %s\n", e[x], x | "sort -k2 -nr | head -5"
  close("sort -k2 -nr | head -5")
}
