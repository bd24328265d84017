#!/bin/sh
# mkxml.sh SHAPE N: writes an XML document of size N to stdout, for
# doc/cases/xmlquery-reads.md.
#   sib    <root> with N <item id="iK"> children, one a line
#   deep   N <a> elements nested, one <b/> at the bottom
#   attrs  one <e> element with N attributes aK="vK"
set -eu
shape=$1 n=$2
case $shape in
sib)
  awk -v n="$n" 'BEGIN { print "<root>"; for (i = 1; i <= n; i++) printf "<item id=\"i%d\">%d</item>\n", i, i; print "</root>" }' ;;
deep)
  awk -v n="$n" 'BEGIN { for (i = 1; i <= n; i++) printf "<a>"; printf "<b/>"; for (i = 1; i <= n; i++) printf "</a>"; print "" }' ;;
attrs)
  awk -v n="$n" 'BEGIN { printf "<root><e"; for (i = 1; i <= n; i++) printf " a%d=\"v%d\"", i, i; print "/></root>" }' ;;
*)
  echo "mkxml.sh: unknown shape $shape (sib, deep, attrs)" >&2; exit 2 ;;
esac
