extension HTMLAssets {
    /// The page's only script (hashed into the Content-Security-Policy, like ``css``).
    ///
    /// - Reads the report from `script#report-data` with `JSON.parse(textContent)` (the JSON
    ///   report with every finding written once, column by column: ``HTMLIsland``), and the
    ///   words it shows (pager and filter status, `missing`, `new`, …) from
    ///   `script#report-phrases` (``HTMLReporter/Page/scriptPhrases()``): no English is built in.
    /// - Tables: a samples or records table with more rows than ``HTMLReporter/eagerRows`` has
    ///   only its first rows as markup; the script hides the no-JS note under it, shows its pager
    ///   and renders the next 200 rows from the JSON when the pager scrolls near the viewport
    ///   (an `IntersectionObserver`) or its *Show more* button is pressed. A row's finding is
    ///   built from the island's columns only when the row is rendered (`finding(i)`). Rows are built with
    ///   `createElement` and `textContent`, as the Swift side writes them (control and bidi
    ///   characters made visible as `\u{…}`, like ``TerminalText/escaped(_:)``).
    /// - Filter: every term (split on white space, case-insensitive) must occur in a row's text
    ///   or its rule's; the search runs over the JSON, so it finds rows not rendered yet, and
    ///   the counts it shows are exact. A table written whole keeps its rows and hides those
    ///   that do not match; a lazy table is rebuilt from its matches, a page at a time. The
    ///   lower-cased texts are built once, after load, when the browser is idle.
    /// - The code holds no `<` (the tests read every `<…>` of the page as a tag).
    /// - Sets `data-js="ready"` (and `data-css="ok"` when the style sheet applied) on `<html>`,
    ///   and the performance marks `auditor-ready` and `auditor-indexed`.
    static let js = #"""
        (function () {
          "use strict";
          var root = document.documentElement;
          var island = document.getElementById("report-data");
          var data;
          var words;
          try { data = JSON.parse(island.textContent); words = JSON.parse(document.getElementById("report-phrases").textContent); } catch (e) { return; }
          root.setAttribute("data-js", "ready");
          if (getComputedStyle(root).getPropertyValue("--auditor-css").trim() === "1") root.setAttribute("data-css", "ok");
          var PAGE = 200;
          function slice(list) { return Array.prototype.slice.call(list); }
          // Pushed, not preallocated: a packed array, which filter() and map() walk fastest.
          function range(n) { var out = []; for (var i = 0; n > i; i++) out.push(i); return out; }
          function lower(parts) { return parts.filter(function (p) { return p !== null && p !== undefined; }).join(" ").toLowerCase(); }
          var F = data.findings, R = data.records;
          function has(object, key) { return Object.prototype.hasOwnProperty.call(object, key); }
          // Most locations have no text of their own (it is derived): skip the look-up then.
          F.location.texts = Object.keys(F.location.text).length > 0;
          R.location.texts = Object.keys(R.location.text).length > 0;
          function place(L, i) {
            if (L.texts && has(L.text, i)) return L.text[i];
            var path = L.paths[L.path[i]], at = L.locator[i];
            if (at === null) return L.record[i] === 0 ? path : path + ":#" + L.record[i];
            return path + ":" + (typeof at === "number" ? at : at[1]);
          }
          function message(i) {
            var m = F.message[i];
            if (typeof m === "string") return m;
            var t = F.templates[m], at = t.indexOf("\u0001");
            return at === -1 ? t : t.slice(0, at) + F.value[i] + t.slice(at + 1);
          }
          function finding(i) {
            var h = F.heads[F.head[i]];
            return { rule: h[0], severity: h[2], attribute: h[4], place: place(F.location, i), key: F.key[i], value: F.value[i],
                     message: message(i), "new": F["new"] ? F["new"][i] : null };
          }
          function findingText(f) { return lower([f.rule, f.severity, f.attribute, f.place, f.key, f.value, f.message, f["new"] === true ? words["new"] : null]); }
          function grouped(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, function () { return words.group; }); }
          var plurals = typeof Intl === "object" && Intl.PluralRules ? new Intl.PluralRules(words.lang) : null;
          function noun(kind, n) { var forms = words[kind]; return (plurals ? plurals.select(n) === "one" : n === 1) ? forms.one : forms.other; }
          function fill(template, values) { return template.replace(/\{(\w+)\}/g, function (m, k) { return Object.prototype.hasOwnProperty.call(values, k) ? values[k] : m; }); }
          function visible(s) {
            return s.replace(/[\u0000-\u001F\u007F-\u009F\u2028\u2029\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/g, function (c) {
              return c === "\n" ? "\\n" : c === "\r" ? "\\r" : c === "\t" ? "\\t" : "\\u{" + c.charCodeAt(0).toString(16).toUpperCase() + "}";
            });
          }
          function el(tag, cls, text) {
            var e = document.createElement(tag);
            if (cls) e.className = cls;
            if (text !== undefined) e.textContent = text;
            return e;
          }
          var ruleText = data.rules.map(function (r) { return lower([r.id, r.entity, r.attribute, r.kind, r.severity, r.status, r.summary, String(r.code), r.definedAt, r.trend && r.trend.jumped ? "jumped" : null]); });
          var ruleByID = new Map();
          data.rules.forEach(function (r, i) { if (!ruleByID.has(r.id)) ruleByID.set(r.id, i); });
          var ruleRows = slice(document.querySelectorAll("tr[data-rule]:not([data-sample])"));
          var sections = slice(document.querySelectorAll("details[data-rule]"));
          var failing = data.rules.map(function () { return false; });
          ruleRows.forEach(function (tr) { if (tr.getAttribute("data-failing") === "1") failing[+tr.getAttribute("data-rule")] = true; });
          var headRule = F.heads.map(function (h) { return ruleByID.get(h[0]); });
          function recordFails(k) { return R.findings[k].some(function (i) { var r = headRule[F.head[i]]; return r !== undefined && failing[r]; }); }
          var severityClass = { error: "sev-error", warning: "sev-warning", info: "sev-info" };
          function newBadge(f) {
            if (f["new"] !== true && f["new"] !== false) return null;
            var word = f["new"] ? "new" : "existing", badge = el("span", "badge", words[word]);
            badge.classList.add(word);
            return badge;
          }
          function sampleRow(v, j) {
            var f = finding(data.rules[v.rule].samples[0] + j);
            var tr = el("tr");
            tr.setAttribute("data-rule", String(v.rule));
            tr.setAttribute("data-sample", String(j));
            tr.setAttribute("data-failing", failing[v.rule] ? "1" : "0");
            tr.appendChild(el("td", "loc mono", visible(f.place)));
            tr.appendChild(el("td", "key mono", visible(f.key === null ? "" : f.key)));
            var value = tr.appendChild(el("td", "value"));
            if (f.value === null) value.appendChild(el("span", "note", words.missing)); else value.textContent = visible(f.value);
            tr.appendChild(el("td", "msg", visible(f.message)));
            if (v.marked) { var cell = tr.appendChild(el("td")), badge = newBadge(f); if (badge) cell.appendChild(badge); }
            return tr;
          }
          function recordRow(k) {
            var tr = el("tr");
            tr.setAttribute("data-record", String(k));
            tr.setAttribute("data-failing", recordFails(k) ? "1" : "0");
            tr.appendChild(el("td", "loc mono", visible(place(R.location, k))));
            tr.appendChild(el("td", "key mono", visible(R.key[k] === null ? "" : R.key[k])));
            var cell = tr.appendChild(el("td"));
            cell.appendChild(el("span", "meta", fill(words.code, { code: String(R.code[k]) })));
            var list = cell.appendChild(el("ul", "findings"));
            R.findings[k].forEach(function (i) {
              var f = finding(i);
              var li = list.appendChild(el("li"));
              li.appendChild(el("span", has(severityClass, f.severity) ? severityClass[f.severity] : null, f.severity));
              li.appendChild(document.createTextNode(" "));
              li.appendChild(el("code", null, visible(f.rule)));
              li.appendChild(document.createTextNode(": " + visible(f.message)));
              if (f.value !== null && f.message.indexOf("'" + f.value + "'") === -1) {
                li.appendChild(document.createTextNode(" "));
                li.appendChild(el("span", "mono", fill(words.value, { value: visible(f.value) })));
              }
              if (f["new"] === true) { li.appendChild(document.createTextNode(" ")); li.appendChild(newBadge(f)); }
            });
            return tr;
          }
          var observer = typeof IntersectionObserver === "function" ? new IntersectionObserver(function (entries) {
            entries.forEach(function (e) { var v = e.isIntersecting && pagers.get(e.target); if (v && v.matches.length > v.shown) more(v); });
          }, { rootMargin: "600px 0px" }) : null;
          var pagers = new Map();
          function updatePager(v) {
            if (!v.pager) return;
            v.status.textContent = fill(v.filtered ? words.pagerMatching : words.pager, { shown: grouped(v.shown), total: grouped(v.matches.length), noun: noun(v.kind, v.matches.length) });
            v.button.hidden = v.shown >= v.matches.length;
          }
          function render(v, count) {
            var rows = document.createDocumentFragment();
            for (var n = v.shown; count > n; n++) rows.appendChild(v.kind === "sample" ? sampleRow(v, v.matches[n]) : recordRow(v.matches[n]));
            v.tbody.appendChild(rows);
            v.shown = count;
            updatePager(v);
            // Observing again reports the pager's current state: still near the viewport, load on.
            if (observer && v.pager) { observer.unobserve(v.pager); observer.observe(v.pager); }
          }
          function more(v) { render(v, Math.min(v.matches.length, v.shown + PAGE)); }
          function View(table, kind, rule, items) {
            this.table = table; this.tbody = table.tBodies[0]; this.kind = kind; this.rule = rule; this.items = items;
            this.matches = items; this.filtered = false; this.first = this.tbody.rows.length; this.shown = this.first;
            this.marked = table.tHead.rows[0].cells.length > 4;
            this.lazy = items.length > this.first; this.pager = null;
            if (!this.lazy) return;
            var node = table.nextElementSibling, v = this;
            if (node && node.classList.contains("lazy-note")) { node.hidden = true; node = node.nextElementSibling; }
            if (!node || !node.classList.contains("pager")) return;
            this.pager = node; this.status = node.querySelector(".pager-status"); this.button = node.querySelector("button");
            node.hidden = false;
            this.button.addEventListener("click", function () { more(v); });
            pagers.set(node, this);
            updatePager(this);
            if (observer) observer.observe(node);
          }
          var views = [];
          slice(document.querySelectorAll("table.samples")).forEach(function (table) {
            var section = table.closest("details[data-rule]");
            if (!section) return;
            var r = +section.getAttribute("data-rule");
            views.push(new View(table, "sample", r, range(data.rules[r].samples[1])));
          });
          slice(document.querySelectorAll("table.records")).forEach(function (table) {
            var first = table.tBodies[0].rows[0];
            if (!first) return;
            var entity = R.entity[+first.getAttribute("data-record")], items = [];
            for (var k = 0; R.count > k; k++) if (R.entity[k] === entity) items.push(k);
            views.push(new View(table, "record", -1, items));
          });
          var sampleTexts = null, recordTexts = null, recordFailing = null;
          function index() {
            if (sampleTexts) return;
            // A finding in a rule's samples and in its record is one row of the table: its text is built once.
            var texts = new Array(F.count);
            function text(i) { if (texts[i] === undefined) texts[i] = findingText(finding(i)); return texts[i]; }
            sampleTexts = data.rules.map(function (r) { return range(r.samples[1]).map(function (j) { return text(r.samples[0] + j); }); });
            recordTexts = range(R.count).map(function (k) { return lower([R.entities[R.entity[k]], place(R.location, k), R.key[k]].concat(R.findings[k].map(text))); });
            recordFailing = range(R.count).map(recordFails);
            if (performance.mark) performance.mark("auditor-indexed");
          }
          var details = slice(document.querySelectorAll("details"));
          var controls = document.getElementById("controls");
          var input = document.getElementById("filter");
          var failingOnly = document.getElementById("failing-only");
          var status = document.getElementById("filter-status");
          controls.hidden = false;
          // A loop, not terms.every(closure): a keystroke tests 120,000 rows, and allocates nothing per row.
          function containsAll(text, terms) { for (var n = 0; terms.length > n; n++) if (text.indexOf(terms[n]) === -1) return false; return true; }
          function apply() {
            index();
            var terms = input.value.toLowerCase().split(/\s+/).filter(Boolean);
            var only = failingOnly.checked, active = terms.length > 0 || only;
            // The terms a rule's own text lacks: each of its samples must supply them.
            var missing = ruleText.map(function (text) { return terms.filter(function (t) { return text.indexOf(t) === -1; }); });
            var ruleOK = data.rules.map(function (r, i) {
              return (!only || failing[i]) && missing[i].every(function (t) { return sampleTexts[i].some(function (s) { return s.indexOf(t) >= 0; }); });
            });
            var shown = { rule: 0, sample: 0, record: 0 }, total = { rule: 0, sample: 0, record: 0 };
            ruleRows.forEach(function (tr) { var ok = ruleOK[+tr.getAttribute("data-rule")]; total.rule += 1; if (ok) shown.rule += 1; tr.hidden = !ok; });
            sections.forEach(function (d) { d.hidden = !ruleOK[+d.getAttribute("data-rule")]; });
            views.forEach(function (v) {
              var test;
              if (v.kind === "sample") {
                var texts = sampleTexts[v.rule], need = missing[v.rule], allowed = !only || failing[v.rule];
                test = function (j) { return allowed && containsAll(texts[j], need); };
              } else {
                test = function (k) { return (!only || recordFailing[k]) && containsAll(recordTexts[k], terms); };
              }
              total[v.kind] += v.items.length;
              if (!v.lazy) {
                slice(v.tbody.rows).forEach(function (tr) {
                  var ok = test(+tr.getAttribute(v.kind === "sample" ? "data-sample" : "data-record"));
                  if (ok) shown[v.kind] += 1;
                  tr.hidden = !ok;
                });
                return;
              }
              if (!active && !v.filtered) { shown[v.kind] += v.items.length; return; }
              v.matches = active ? v.items.filter(test) : v.items;
              v.filtered = active;
              shown[v.kind] += v.matches.length;
              v.tbody.textContent = "";
              v.shown = 0;
              render(v, Math.min(v.matches.length, v.first));
            });
            function count(kind) { return fill(words.count, { shown: grouped(shown[kind]), total: grouped(total[kind]), noun: noun(kind, total[kind]) }); }
            status.textContent = active ? fill(words.filter, { rules: count("rule"), samples: count("sample"), records: count("record") }) : "";
          }
          input.addEventListener("input", apply);
          failingOnly.addEventListener("change", apply);
          document.getElementById("expand").addEventListener("click", function () { details.forEach(function (d) { d.open = true; }); });
          document.getElementById("collapse").addEventListener("click", function () { details.forEach(function (d) { d.open = false; }); });
          var saved = null;
          window.addEventListener("beforeprint", function () { saved = details.map(function (d) { return d.open; }); details.forEach(function (d) { d.open = true; }); });
          window.addEventListener("afterprint", function () { if (saved) details.forEach(function (d, i) { d.open = saved[i]; }); saved = null; });
          if (performance.mark) performance.mark("auditor-ready");
          (window.requestIdleCallback || function (f) { return setTimeout(f, 1); })(index);
        })();
        """#
}
