package export

import "html/template"

// pageTemplate is the report's page: one file, its styles inline, no
// script. Every class, count and prediction in it is text (from
// prioritize's renderer), so it reads without colour; charts scale to
// the window's width.
var pageTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>suncat report: {{.Title}}</title>
<style>` + pageCSS + `</style>
</head>
<body>
<header><h1>suncat report</h1><p class="of">{{.Title}}</p>{{if .Verdict}}<p class="verdict">{{.Verdict}}</p>{{end}}</header>
<main>
{{- if .NoSizes}}<section class="run"><h2>{{.NoSizes}}</h2></section>{{end}}
{{- range .Sections}}
<section class="run">
{{- if .Name}}<h2 class="family">{{.Name}}</h2>{{end}}
<p class="grows">{{if .Name}}{{else}}Findings: {{end}}{{.Heading}}</p>
{{- range .Findings}}
<article class="finding" id="{{.ID}}">
<h3><span class="rank">{{.Rank}}.</span> <span class="class">{{.Class}}</span> <span class="frame">{{.Frame}}</span></h3>
<dl class="facts">
<dt>calls per size</dt><dd class="counts">{{.Counts}}</dd>
<dt>predicted</dt><dd class="prediction">{{.Prediction}}</dd>
<dt>fit</dt><dd>{{.Fit}}</dd>
<dt>what</dt><dd>{{.Name}}{{.Via}}{{with .CoversLine}}<br>{{.}}{{end}}{{with .Clock}}<br>{{.}}{{end}}</dd>
</dl>
<div class="chart-box">{{.Chart}}
<table class="points"><tr><th>size</th>{{range .Points}}<td>{{.Size}}</td>{{end}}</tr><tr><th>calls</th>{{range .Points}}<td>{{.Y}}</td>{{end}}</tr></table>
</div>
{{- if .Full}}<p class="value-h">most repeated value, {{.Repeats}} times:</p><pre class="value">{{.Full}}</pre>{{end}}
<details class="stack"><summary>stack, getter first, down to the responsible frame ({{.Why}})</summary><ol>
{{- range .Stack}}<li{{if .Responsible}} class="responsible"{{end}}>{{.Text}}{{if .Responsible}} ◀ responsible{{end}}</li>{{end}}</ol></details>
{{- if .Source}}
<div class="source"><p class="file">{{.File}} <span class="legend">▶ the call · │ the loop around it</span></p><pre>
{{- range .Source}}<span class="line {{.Mark}}" data-line="{{.N}}"><span class="ln">{{if .N}}{{.N}}{{end}}</span><span class="gut">{{.Gutter}}</span>{{.Text}}</span>{{end}}</pre></div>
{{- else}}<p class="file">{{.File}} (source not at hand)</p>{{end}}
</article>
{{- end}}
{{- if .More}}<p class="more">… {{.More}} more finding(s) (-top shows them)</p>{{end}}
{{- with .Time}}<div class="time"><h3>time per sub-trace</h3><p>{{.Text}}</p><div class="chart-box">{{.Chart}}</div></div>{{end}}
{{- range .Notes}}<p class="note">{{.}}</p>{{end}}
</section>
{{- end}}
{{- if .Unsized}}<section class="unsized"><h2>tests that give no class</h2><ul>{{range .Unsized}}<li>{{.}}</li>{{end}}</ul></section>{{end}}
{{- range .Compare}}
<section class="compare">
<h2>BASE against HEAD{{if .Family}}: {{.Family}}{{end}}</h2>
<p>{{.Heading}}</p>{{with .Note}}<p class="note">note: {{.}}</p>{{end}}
<div class="table-wrap"><table class="sites">
<thead><tr><th>site</th><th>base</th><th>head</th><th>predicted</th><th>change</th></tr></thead>
<tbody>
{{- range .Rows}}<tr{{if .Up}} class="up"{{end}}><td>{{.Where}}</td><td>{{.Base}}</td><td>{{.Head}}</td><td>{{.BasePred}} → {{.HeadPred}}</td><td>{{if .Up}}▲ {{end}}{{.Change}}{{with .Check}} · {{.}}{{end}}</td></tr>
{{- if .Chart}}<tr class="chart-row"><td colspan="5"><div class="chart-box">{{.Chart}}<p class="legend">● BASE · ■ HEAD</p></div></td></tr>{{end}}
{{- end}}
</tbody></table></div>
</section>
{{- end}}
</main>
<footer><p>Written by suncat report. Charts: log-log; points are the recorded counts, the line the fitted class, ◆ the prediction, the shaded band the classes the data cannot tell apart.</p></footer>
</body>
</html>
`))

const pageCSS = `
:root{--fg:#1b1f24;--muted:#57606a;--line:#d0d7de;--bg:#fff;--accent:#0969da;--loop:#fff8c5;--event:#ffd8b5;--up:#ffebe9}
*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header,main,footer{max-width:1180px;margin:0 auto;padding:0 16px}
header{padding-top:12px;border-bottom:1px solid var(--line)}
h1{font-size:20px;margin:0}
.of{color:var(--muted);margin:2px 0 8px;overflow-wrap:anywhere}
.verdict{font-weight:600}
h2{font-size:18px;margin:20px 0 4px}
.grows{color:var(--muted);margin:4px 0 12px}
.finding{border:1px solid var(--line);border-radius:6px;padding:10px 12px;margin:12px 0;display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:4px 18px;align-items:start}
.finding>h3,.finding>.value-h,.finding>pre.value,.finding>.stack,.finding>.source,.finding>.file{grid-column:1/-1}
.finding h3{font-size:16px;margin:0;overflow-wrap:anywhere}
.class{font-weight:700;text-transform:uppercase;letter-spacing:.03em}
.frame{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:14px}
dl.facts{margin:4px 0;display:grid;grid-template-columns:max-content minmax(0,1fr);gap:2px 10px}
dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
.counts,.prediction{font-family:ui-monospace,monospace}
.chart-box{min-width:0}
svg.chart{width:100%;max-width:560px;height:auto;display:block}
.frame-r,.chart .frame{fill:none;stroke:var(--line)}
.chart .grid{stroke:#eaeef2}
.chart .tick,.chart .axis,.chart .limit-label,.chart .pred-label{font:11px system-ui,sans-serif;fill:var(--muted)}
.chart .pred-label{fill:var(--fg)}
.chart .fit{fill:none;stroke:var(--accent);stroke-width:2}
.chart .fit.s1{stroke:#cf222e;stroke-dasharray:6 3}
.chart .band{fill:var(--accent);fill-opacity:.14;stroke:none}
.chart .band.s1{fill:#cf222e}
.chart .pt{fill:var(--fg)}
.chart .pt.s1{fill:#cf222e}
.chart .pred{fill:#fff;stroke:var(--fg);stroke-width:1.5}
.chart .limit{stroke:#cf222e;stroke-dasharray:4 3}
table.points{border-collapse:collapse;font:12px ui-monospace,monospace;margin-top:4px}
table.points th,table.points td{border:1px solid var(--line);padding:1px 5px;text-align:right}
pre{margin:0;overflow-x:auto;tab-size:4;font:13px/1.4 ui-monospace,SFMono-Regular,Menlo,monospace}
pre.value{white-space:pre-wrap;background:#f6f8fa;padding:6px 8px;border-radius:4px;max-height:12em;overflow:auto}
.value-h,.file{margin:6px 0 2px;color:var(--muted);font-size:13px;overflow-wrap:anywhere}
.legend{font-size:12px}
.source pre{border:1px solid var(--line);border-radius:4px;padding:4px 0}
.line{display:block;padding-right:8px;min-height:1.4em}
.line.loop{background:var(--loop)}
.line.gap{color:var(--muted)}
.line.event{background:var(--event);font-weight:700}
.ln{display:inline-block;width:4.5em;padding-right:8px;text-align:right;color:var(--muted);user-select:none}
.gut{display:inline-block;width:1.4em;color:var(--fg)}
.stack ol{margin:4px 0;padding-left:28px;font:13px ui-monospace,monospace;overflow-wrap:anywhere}
.stack .responsible{font-weight:700}
.time{margin:8px 0 16px}
.time h3{font-size:15px;margin:0}
.table-wrap{overflow-x:auto}
table.sites{border-collapse:collapse;font-size:13px;width:100%}
table.sites th,table.sites td{border-bottom:1px solid var(--line);padding:4px 6px;text-align:left;vertical-align:top}
table.sites td:first-child{font-family:ui-monospace,monospace;overflow-wrap:anywhere}
tr.up td{background:var(--up);font-weight:600}
footer{color:var(--muted);font-size:12px;border-top:1px solid var(--line);margin-top:24px;padding-bottom:16px}
@media (max-width:760px){.finding{grid-template-columns:minmax(0,1fr)}body{font-size:14px}.ln{width:3em}}
@media print{.chart .band{fill-opacity:.25}}
`
