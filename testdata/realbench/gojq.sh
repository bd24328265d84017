# gojq.sh: sourced by countcheck.sh and stackcheck.sh. It sets WORK
# (default /tmp/realbench-gojq), RECORDS (2000), module and version
# (GOJQ_VERSION, v0.12.17) and src, the copy of gojq's module in WORK,
# fetched from the module proxy the first time.
WORK=${WORK:-/tmp/realbench-gojq}
RECORDS=${RECORDS:-2000}
module=github.com/itchyny/gojq version=${GOJQ_VERSION:-v0.12.17}
mkdir -p "$WORK"
src=$WORK/gojq-$version
if [ ! -d "$src" ]; then
  dir=$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  cp -r "$dir" "$src.tmp" && chmod -R u+w "$src.tmp" && mv "$src.tmp" "$src"
fi
