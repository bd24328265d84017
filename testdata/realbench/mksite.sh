#!/bin/sh
# mksite.sh DIR N: writes a Hugo site of N pages into DIR (emptied first):
# 8 sections, tags and categories, a related-pages list, a recursive
# footer partial over the sections (3 levels), a shortcode and a
# highlighted code block on every page. Used by run.sh.
set -e
dir=$1; n=$2
rm -rf "$dir"; mkdir -p "$dir/layouts/_default" "$dir/layouts/partials" "$dir/layouts/shortcodes" "$dir/content"
cat > "$dir/hugo.toml" <<'T'
baseURL = "https://example.org/"
title = "bench"
disableKinds = ["RSS", "sitemap", "robotsTXT", "404"]
[taxonomies]
tag = "tags"
category = "categories"
[pagination]
pagerSize = 20
T
cat > "$dir/layouts/_default/baseof.html" <<'T'
<!doctype html><html><head><title>{{ .Title }} | {{ site.Title }}</title></head>
<body><nav>{{ range site.Sections }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</nav>
{{ block "main" . }}{{ end }}
<footer>{{ partial "tree.html" (dict "p" site.Home "d" 0) }}</footer></body></html>
T
cat > "$dir/layouts/_default/single.html" <<'T'
{{ define "main" }}<article><h1>{{ .Title }}</h1>
<p>{{ .Date.Format "2006-01-02" }} in {{ .Section }} {{ with .Params.tags }}{{ range . }}<a href="{{ (printf "/tags/%s/" (. | urlize)) | relURL }}">{{ . }}</a> {{ end }}{{ end }}</p>
{{ .TableOfContents }}{{ .Content }}
<ul>{{ range first 5 (site.RegularPages.Related .) }}<li><a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a></li>{{ end }}</ul>
{{ with .PrevInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}
{{ with .NextInSection }}<a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ end }}</article>{{ end }}
T
cat > "$dir/layouts/_default/list.html" <<'T'
{{ define "main" }}<h1>{{ .Title }}</h1>
<ul>{{ range .Paginator.Pages }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a> {{ .Summary }} {{ .WordCount }}</li>{{ end }}</ul>
{{ template "_internal/pagination.html" . }}{{ end }}
T
cat > "$dir/layouts/partials/tree.html" <<'T'
{{ $d := .d }}{{ if lt $d 3 }}<ul>{{ range first 4 .p.Sections }}<li><a href="{{ .RelPermalink }}">{{ .Title }}</a>{{ partial "tree.html" (dict "p" . "d" (add $d 1)) }}</li>{{ end }}</ul>{{ end }}
T
cat > "$dir/layouts/shortcodes/note.html" <<'T'
<div class="note {{ .Get 0 }}">{{ .Inner | markdownify }}</div>
T
i=1
while [ $i -le "$n" ]; do
  s=s$((i % 8)); mkdir -p "$dir/content/$s"
  [ -f "$dir/content/$s/_index.md" ] || printf -- '---\ntitle: "Section %s"\n---\n' "$s" > "$dir/content/$s/_index.md"
  cat > "$dir/content/$s/p$i.md" <<P
---
title: "Page $i"
date: 2024-01-$(printf %02d $(( (i % 28) + 1 )))
tags: ["t$((i % 23))", "t$((i % 7))", "u$((i % 11))"]
categories: ["c$((i % 5))"]
---
## Intro $i

Some *text* for page $i with a [link](/s1/) and \`code\`. Lorem ipsum dolor sit amet, consectetur adipiscing elit.

{{< note info >}}A **note** on page $i.{{< /note >}}

### Details

- item one of $i
- item two of $i

\`\`\`go
func f$i(x int) int { return x * $i }
\`\`\`

## More

Another paragraph with words, words and more words for page $i.
P
  i=$((i + 1))
done
