/// The HTML report's only style sheet and script, inline (no external resource).
///
/// ``HTMLReporter`` hashes exactly these bytes into its Content-Security-Policy, so editing
/// them needs nothing else; inline `style=` attributes and event-handler attributes are never
/// used (the policy would block them). The script (``js``, in `HTMLAssets+Script.swift`) reads
/// the data only through `JSON.parse(textContent)`; it never parses markup: it builds rows with
/// `createElement` (fixed tag names), writes data only with `textContent`, and otherwise sets
/// `hidden`, `open`, class names and numeric `data-` attributes.
enum HTMLAssets {
    static let css = """
        :root{--auditor-css:1;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;--soft:#f6f8fa;--error:#b42318;--warning:#9a6700;--info:#0550ae;--tolerated:#6e40c9;--passed:#1a7f37;--existing:#1b7c83;color-scheme:light}
        *{box-sizing:border-box}
        body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif;color:var(--fg);background:#fff}
        header.verdict{padding:20px 32px;border-bottom:4px solid var(--line);background:var(--soft)}
        header.verdict.failed,header.verdict.incomplete{border-color:var(--error);background:#fff1f0}
        header.verdict.passed{border-color:var(--passed);background:#effaf2}
        header h1{margin:0;font-size:28px;letter-spacing:.02em}
        header.failed h1,header.incomplete h1{color:var(--error)}
        header.passed h1{color:var(--passed)}
        header h1 small{font-size:15px;font-weight:500;color:var(--muted);margin-left:10px}
        header .why{margin:6px 0 0;font-size:17px}
        header .why li{margin:2px 0}
        header .meta{margin:8px 0 0;color:var(--muted);font-size:13px}
        main{padding:8px 32px 32px;max-width:1400px}
        h2{font-size:20px;margin:28px 0 10px;padding-bottom:4px;border-bottom:1px solid var(--line)}
        h3{font-size:16px;margin:0;display:inline}
        .cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(150px,1fr));gap:10px;margin:0}
        .cards div{border:1px solid var(--line);border-radius:6px;padding:8px 12px;background:var(--soft)}
        .cards dt{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
        .cards dd{margin:2px 0 0;font-size:22px;font-weight:600}
        .cards .bad dd{color:var(--error)}
        .cards .soft dd{color:var(--tolerated)}
        .cards .good dd{color:var(--passed)}
        table{border-collapse:collapse;width:100%;margin:8px 0 14px;font-size:14px}
        th,td{border-bottom:1px solid var(--line);padding:5px 8px;text-align:left;vertical-align:top}
        th{background:var(--soft);font-weight:600;font-size:13px;color:var(--muted)}
        td.n,th.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
        td.loc,td.key,table.samples td,table.records td{overflow-wrap:anywhere}
        table.samples,table.records{table-layout:fixed}
        .scroll{overflow-x:auto;margin:8px 0 14px}.scroll>table{margin:0}
        td.value,code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:13px}
        td.value{word-break:break-all;max-width:320px}
        td.msg{word-break:break-word}
        .badge{display:inline-block;border-radius:10px;padding:0 8px;font-size:12px;font-weight:600;white-space:nowrap;border:1px solid currentColor}
        .st-failed{color:var(--error)}.st-violated{color:var(--warning)}.st-tolerated{color:var(--tolerated)}
        .st-passed{color:var(--passed)}.st-not-evaluated{color:var(--muted)}.st-existing{color:var(--existing)}
        .badge.new{color:var(--error)}.badge.existing{color:var(--muted)}.badge.jumped{color:var(--warning)}
        td.fresh{color:var(--error);font-weight:600}
        td.trend{white-space:nowrap}
        svg.spark{vertical-align:middle;display:inline-block}
        svg.spark rect.run{fill:#8c959f}svg.spark rect.zero{fill:var(--line)}svg.spark rect.now{fill:var(--fg)}svg.spark rect.jumped{fill:var(--error)}
        svg.spark line.median{stroke:var(--warning);stroke-width:1;stroke-dasharray:2 2}
        .sev-error{color:var(--error)}.sev-warning{color:var(--warning)}.sev-info{color:var(--info)}
        tr.row-passed td{color:var(--muted)}
        details{margin:8px 0}
        details>summary{cursor:pointer;padding:6px 4px}
        details.entity{border:1px solid var(--line);border-radius:8px;padding:4px 14px 8px;margin:14px 0}
        details.entity>summary .meta,details.rule>summary .meta{color:var(--muted);font-size:13px;margin-left:8px}
        details.rule{border-left:3px solid var(--line);padding-left:10px;margin-left:4px}
        details.rule.st-failed{border-color:var(--error)}details.rule.st-violated{border-color:var(--warning)}
        details.rule.st-tolerated{border-color:var(--tolerated)}details.rule.st-existing{border-color:var(--existing)}
        details.rule{color:var(--fg)}
        table.samples th:nth-child(1){width:26%}table.samples th:nth-child(2){width:10%}table.samples th:nth-child(3){width:20%}
        table.records th:nth-child(1){width:26%}table.records th:nth-child(2){width:10%}
        .note{color:var(--muted);font-size:13px;margin:4px 0}
        .more{color:var(--muted);font-style:italic;font-size:13px}
        ul.findings{margin:0;padding-left:18px}
        ul.values{display:flex;flex-wrap:wrap;gap:4px 16px;list-style:none;margin:2px 0 8px;padding:0;font-size:14px}
        ul.values li{overflow-wrap:anywhere}
        .controls{position:sticky;top:0;z-index:1;background:#fff;border-bottom:1px solid var(--line);padding:10px 0;display:flex;flex-wrap:wrap;gap:12px;align-items:center}
        .controls input[type=search]{font:inherit;padding:5px 8px;width:min(420px,100%);border:1px solid var(--line);border-radius:6px}
        .controls button{font:inherit;font-size:13px;padding:4px 10px;border:1px solid var(--line);border-radius:6px;background:var(--soft);cursor:pointer}
        #filter-status{color:var(--muted);font-size:13px}
        .pager{color:var(--muted);font-size:13px;margin:0 0 14px}
        .pager button{font:inherit;font-size:13px;padding:4px 10px;margin-left:8px;border:1px solid var(--line);border-radius:6px;background:var(--soft);cursor:pointer}
        [hidden]{display:none!important}
        svg.chart{max-width:100%;height:auto;display:block}
        svg.chart text{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;fill:var(--fg)}
        svg.chart text.count{fill:var(--muted)}
        svg.chart .bar-failed{fill:var(--error)}svg.chart .bar-violated{fill:#d4a72c}svg.chart .bar-tolerated{fill:#a98eda}svg.chart .bar-existing{fill:#6fb3b8}
        svg.chart .limit{stroke:var(--fg);stroke-width:2}
        svg.chart .axis{stroke:var(--line)}
        .legend{font-size:13px;color:var(--muted)}
        .chart-legend span{margin-right:14px;font-size:13px}
        #summary h3{display:block;margin:18px 0 0}
        footer{padding:16px 32px;color:var(--muted);font-size:12px;border-top:1px solid var(--line)}
        @media (max-width:700px){
        header.verdict{padding:14px 14px}
        main{padding:4px 12px 20px}
        footer{padding:12px 14px}
        header .meta,header .why,details>summary,.note,.more,footer,table.samples td,table.records td{overflow-wrap:anywhere}
        table.rules td,table.inputs td{white-space:nowrap}
        details.entity{padding:4px 8px 8px}
        details.rule{padding-left:6px;margin-left:0}
        table.samples,table.records,table.samples tbody,table.records tbody,table.samples tr,table.records tr,table.samples td,table.records td{display:block;width:auto}
        table.samples thead,table.records thead{display:none}
        table.samples tr,table.records tr{border:1px solid var(--line);border-radius:6px;margin:8px 0;padding:4px 0}
        table.samples td,table.records td{border:none;padding:2px 10px;white-space:normal;max-width:none}
        table.samples td::before,table.records td::before{display:block;font:600 11px system-ui,sans-serif;color:var(--muted);text-transform:uppercase;letter-spacing:.04em}
        table.samples td:nth-child(1)::before,table.records td:nth-child(1)::before{content:"Location"}
        table.samples td:nth-child(2)::before,table.records td:nth-child(2)::before{content:"Key"}
        table.samples td:nth-child(3)::before{content:"Value"}
        table.samples td:nth-child(4)::before{content:"Message"}
        table.samples td:nth-child(5)::before{content:"Baseline"}
        table.records td:nth-child(3)::before{content:"Findings"}
        table.samples td:empty,table.records td:empty{display:none}
        }
        @media print{
        body{font-size:10pt}
        .controls,.noprint,.pager button{display:none!important}
        header.verdict,.badge,svg.chart,svg.spark{print-color-adjust:exact;-webkit-print-color-adjust:exact}
        main{padding:0 8px;max-width:none}
        details>summary{list-style:none}
        details.entity{border:none;padding:0}
        tr{break-inside:avoid}
        thead{display:table-header-group}
        a{color:inherit;text-decoration:none}
        td.value{max-width:none}
        }
        """
}
