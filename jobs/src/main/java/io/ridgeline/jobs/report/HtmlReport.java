package io.ridgeline.jobs.report;

import io.ridgeline.schema.ResultsSchema;

import java.util.Locale;

/**
 * Renders a {@link ReportPage} as one self-contained HTML file: inline CSS, charts as inline SVG, and a few lines of
 * inline JavaScript that sort tables by a click on a header. Nothing is loaded from anywhere (no scripts, fonts,
 * styles or images by URL), so the file opens offline and can be mailed or archived as is.
 */
public final class HtmlReport {
    private static final String CSS = String.join("\n",
            "body{font-family:sans-serif;margin:0 auto;max-width:1100px;padding:0 16px 48px;color:#222}",
            "h1{font-size:1.5em;margin:24px 0 4px}h2{font-size:1.2em;margin-top:32px;border-bottom:1px solid #ccc}",
            "h3{font-size:1em;margin:16px 0 4px}.sub{color:#555;margin:0 0 12px}",
            "nav a{margin-right:12px}p{line-height:1.4}",
            "table{border-collapse:collapse;font-size:12px;margin:8px 0}",
            "th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;white-space:nowrap}",
            "td.n{text-align:right;font-variant-numeric:tabular-nums}th{background:#f3f3f3}",
            "table.sortable th{cursor:pointer}th[aria-sort=ascending]::after{content:' \\25B2'}",
            "th[aria-sort=descending]::after{content:' \\25BC'}",
            ".scroll{overflow-x:auto;max-height:640px;overflow-y:auto}",
            "dl{display:grid;grid-template-columns:max-content auto;gap:2px 16px;font-size:13px;margin:4px 0}",
            "dt{color:#555}dd{margin:0;word-break:break-all}",
            ".facts{display:inline-block;vertical-align:top;margin-right:48px;max-width:100%}",
            "figure{margin:12px 0}figure svg{max-width:100%;height:auto;border:1px solid #eee}",
            "figcaption{font-size:12px;color:#555}");
    /**
     * Sorts a table's body by the clicked column: numbers by their {@code data-v} value, text by locale order;
     * a second click reverses. Empty cells sort last either way.
     */
    private static final String SORT_JS = String.join("\n",
            "document.querySelectorAll('table.sortable').forEach(function (table) {",
            "  table.querySelectorAll('th').forEach(function (th, col) {",
            "    th.addEventListener('click', function () {",
            "      var asc = th.getAttribute('aria-sort') !== 'ascending';",
            "      table.querySelectorAll('th').forEach(function (h) { h.removeAttribute('aria-sort'); });",
            "      th.setAttribute('aria-sort', asc ? 'ascending' : 'descending');",
            "      var body = table.tBodies[0];",
            "      var rows = Array.prototype.slice.call(body.rows);",
            "      rows.sort(function (a, b) {",
            "        var x = a.cells[col], y = b.cells[col];",
            "        var ex = x.textContent === '', ey = y.textContent === '';",
            "        if (ex || ey) { return ex === ey ? 0 : (ex ? 1 : -1); }",
            "        var c = x.hasAttribute('data-v') && y.hasAttribute('data-v')",
            "          ? parseFloat(x.getAttribute('data-v')) - parseFloat(y.getAttribute('data-v'))",
            "          : x.textContent.localeCompare(y.textContent);",
            "        return asc ? c : -c;",
            "      });",
            "      rows.forEach(function (r) { body.appendChild(r); });",
            "    });",
            "  });",
            "});");

    private HtmlReport() {
    }

    public static String render(ReportPage page) {
        StringBuilder h = new StringBuilder(1 << 16);
        h.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
                .append("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
                // An empty data: icon keeps browsers from asking for /favicon.ico.
                .append("<link rel=\"icon\" href=\"data:,\">\n")
                .append("<title>").append(esc(page.title())).append("</title>\n<style>\n").append(CSS)
                .append("\n</style>\n</head>\n<body>\n<h1>").append(esc(page.title())).append("</h1>\n")
                .append("<p class=\"sub\">").append(esc(page.subtitle())).append("</p>\n<nav>");
        for (ReportPage.Section s : page.sections()) {
            h.append("<a href=\"#").append(esc(s.id())).append("\">").append(esc(s.title())).append("</a>");
        }
        h.append("</nav>\n");
        for (ReportPage.Section s : page.sections()) {
            h.append("<section id=\"").append(esc(s.id())).append("\">\n<h2>").append(esc(s.title()))
                    .append("</h2>\n");
            for (ReportPage.Part p : s.parts()) {
                part(h, p);
            }
            h.append("</section>\n");
        }
        h.append("<script>\n").append(SORT_JS).append("\n</script>\n</body>\n</html>\n");
        return h.toString();
    }

    private static void part(StringBuilder h, ReportPage.Part p) {
        if (p instanceof ReportPage.Text t) {
            h.append("<p>").append(esc(t.text())).append("</p>\n");
        } else if (p instanceof ReportPage.Facts f) {
            h.append("<div class=\"facts\"><h3>").append(esc(f.heading())).append("</h3>\n<dl>");
            for (ReportPage.Fact x : f.facts()) {
                h.append("<dt>").append(esc(x.label())).append("</dt><dd>").append(esc(x.value())).append("</dd>");
            }
            h.append("</dl></div>\n");
        } else if (p instanceof ReportPage.Table t) {
            table(h, t);
        } else if (p instanceof ReportPage.Chart c) {
            h.append("<figure id=\"").append(esc(c.id())).append("\">\n").append(c.svg())
                    .append("\n<figcaption>").append(esc(c.caption())).append("</figcaption>\n</figure>\n");
        }
    }

    private static void table(StringBuilder h, ReportPage.Table t) {
        ResultRows r = t.rows();
        h.append("<div class=\"scroll\"><table id=\"").append(esc(t.id())).append("\"")
                .append(t.sortable() ? " class=\"sortable\"" : "").append(">\n<thead><tr>");
        boolean schema = ResultsSchema.TABLES.stream().anyMatch(x -> x.name().equals(r.table()));
        for (String c : r.columns()) {
            // Result tables get their schema units; derived tables (operators, diff) name units in their headers.
            h.append("<th>").append(esc(schema ? ColumnSelector.header(r.table(), c) : c)).append("</th>");
        }
        h.append("</tr></thead>\n<tbody>\n");
        for (Object[] row : r.rows()) {
            h.append("<tr>");
            for (Object v : row) {
                if (v instanceof Number n && !(v instanceof Double d && !Double.isFinite(d))) {
                    h.append("<td class=\"n\" data-v=\"").append(n).append("\">").append(number(n))
                            .append("</td>");
                } else {
                    h.append("<td>").append(v == null ? "" : esc(v.toString())).append("</td>");
                }
            }
            h.append("</tr>\n");
        }
        h.append("</tbody></table></div>\n");
    }

    /**
     * Integers as they are; other numbers from 1,000 to a million rounded to a whole number, below 1,000 with four
     * significant digits, and beyond those in exponent form ({@code 1.664e6}, {@code 2.5e-4}).
     */
    static String number(Number n) {
        if (n instanceof Integer || n instanceof Long || n instanceof Short || n instanceof Byte) {
            return n.toString();
        }
        double v = n.doubleValue();
        double a = Math.abs(v);
        if (v == 0 || !Double.isFinite(v)) {
            return v == 0 ? "0" : "";
        }
        if (a >= 1e3 && a < 1e6) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 1e-3 && a < 1e3) {
            return new java.math.BigDecimal(v).round(new java.math.MathContext(4)).stripTrailingZeros()
                    .toPlainString();
        }
        String s = String.format(Locale.ROOT, "%.3e", v);
        String mantissa = s.substring(0, s.indexOf('e')).replaceAll("0+$", "").replaceAll("\\.$", "");
        return mantissa + "e" + Integer.parseInt(s.substring(s.indexOf('e') + 1).replace("+", ""));
    }

    /** HTML text and attribute escaping. */
    static String esc(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                case '\'' -> b.append("&#39;");
                default -> b.append(ch);
            }
        }
        return b.toString();
    }
}
