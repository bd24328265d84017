#!/bin/sh
# mklua.sh N: writes a Lua script of size N to standard output, for
# gopher-lua's glua (github.com/yuin/gopher-lua's cmd/glua) to run:
# table.insert(t, 1, i) N times (LTable.Insert shifts the array part
# with copy: O(n) a call, quadratic in N, but in one Go statement), a
# running maximum math.max(unpack(t)) every 8th turn (baseUnpack's and
# mathMax's Go loops over the t so far: quadratic in N, N*N/16 turns),
# and as linear controls a loop summing t and a string.format per
# element. With a second argument "insert", the running maximum is left
# out: the only quadratic is then the shifting inside copy. Used by
# doc/cases/glua-reads.md.
#
#	sh mklua.sh 1000 >s1000.lua
#	sh mklua.sh 16000 insert >i16000.lua
set -e
every=8
if [ "$2" = insert ]; then every=0; fi
cat <<LUA
local n = $1
local every = $every
local t = {}
local m = 0
for i = 1, n do
  table.insert(t, 1, i)
  if every > 0 and i % every == 0 then
    m = math.max(unpack(t))
  end
end
local sum = 0
for i = 1, #t do
  sum = sum + t[i]
end
local bytes = 0
for i = 1, #t do
  bytes = bytes + #string.format("%d:%d,", i, t[i])
end
print(n, #t, t[1], t[n], m, sum, bytes)
LUA
