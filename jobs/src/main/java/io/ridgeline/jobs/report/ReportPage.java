package io.ridgeline.jobs.report;

import java.util.List;

/**
 * The content of a run report, independent of how it is rendered ({@link HtmlReport}): a title and sections, each a
 * list of parts (text, facts, tables, charts).
 */
public record ReportPage(String title, String subtitle, List<Section> sections) {
    public ReportPage {
        sections = List.copyOf(sections);
    }

    /** A titled part of the page; {@code id} is its anchor. */
    public record Section(String id, String title, List<Part> parts) {
        public Section {
            parts = List.copyOf(parts);
        }
    }

    /** What a section holds. */
    public sealed interface Part permits Text, Facts, Table, Chart {
    }

    /** A paragraph of plain text. */
    public record Text(String text) implements Part {
    }

    /** Label-value pairs under a heading (a manifest block). */
    public record Facts(String heading, List<Fact> facts) implements Part {
        public Facts {
            facts = List.copyOf(facts);
        }
    }

    /** One label and its value as shown. */
    public record Fact(String label, String value) {
    }

    /**
     * A table of result rows with unit headers ({@link ColumnSelector#header}); sortable tables sort by a click on a
     * header.
     */
    public record Table(String id, ResultRows rows, boolean sortable) implements Part {
    }

    /** An inline SVG chart with a caption. */
    public record Chart(String id, String svg, String caption) implements Part {
    }

    /** Every chart of the page, in order. */
    public List<Chart> charts() {
        return sections.stream().flatMap(s -> s.parts().stream()).filter(p -> p instanceof Chart)
                .map(p -> (Chart) p).toList();
    }
}
