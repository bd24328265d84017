#!/bin/sh
# mkgoja.sh N [MODE]: writes a JavaScript program of size N to standard
# output, for goja's own command (github.com/dop251/goja's ./goja) to
# run. It fills an object with N properties "req0".."req(N-1)" (a table
# of pending requests keyed by id), then deletes them all, each after
# reading it. MODE:
#   lifo (the default): newest first. goja's baseObject._delete
#     (object.go:400) scans the object's property names from the front
#     for the one deleted, so a delete of the last of k names costs k
#     turns: N*(N+1)/2 in all, quadratic.
#   fifo: oldest first: the name deleted is always the first, one turn a
#     delete (linear), but _delete's copy moves all the names after it:
#     quadratic inside one Go statement (memmove).
#   flat: lifo over 1000 properties whatever N (N only names the file):
#     the same work at every size.
# Used by doc/cases/goja-reads.md.
#
#	sh mkgoja.sh 1000 >lifo1000.js
#	sh mkgoja.sh 1000 flat >flat1000.js
set -e
n=$1 mode=${2:-lifo}
case $mode in
lifo) order='for (var i = n - 1; i >= 0; i--)' ;;
fifo) order='for (var i = 0; i < n; i++)' ;;
flat) n=1000 order='for (var i = n - 1; i >= 0; i--)' ;;
*) echo "mkgoja.sh: unknown mode $mode" >&2; exit 2 ;;
esac
cat <<JS
var n = $n;
var pending = {};
for (var i = 0; i < n; i++) {
  pending["req" + i] = { id: i, size: i % 7 };
}
var total = 0;
$order {
  var k = "req" + i;
  total += pending[k].size;
  delete pending[k];
}
console.log("$mode", n, total, Object.keys(pending).length);
JS
