package io.ridgeline.engine.spec;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.snakeyaml.error.Mark;
import com.fasterxml.jackson.dataformat.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Turns a YAML syntax error into an {@link InputError} at the place the YAML scanner or parser stopped. Jackson's own
 * location is that of the last token it handed out, often lines above the problem; SnakeYAML's problem mark is the
 * offending character. A TAB there, or in the indentation of that line, is named as the cause: YAML forbids tabs for
 * indentation (YAML 1.2 sec. 6.1), and editors that insert them produce errors that otherwise say nothing about it.
 */
final class YamlSyntax {
    static final String TAB_EXPECTED = "spaces instead of a TAB (YAML forbids tabs for indentation)";

    private YamlSyntax() {
    }

    static InputError error(String source, String text, JsonProcessingException e) {
        @SuppressWarnings("deprecation")
        Mark problem = e instanceof MarkedYAMLException m ? m.getProblemMark() : null;
        if (problem == null) {
            JsonLocation loc = e.getLocation();
            int line = loc == null ? 0 : Math.max(loc.getLineNr(), 0);
            int col = loc == null ? 0 : Math.max(loc.getColumnNr(), 0);
            return new InputError(source, line, col, "(syntax)", "valid YAML", firstLine(e.getOriginalMessage()));
        }
        MarkedYAMLException m = (MarkedYAMLException) e;
        int line = problem.getLine() + 1;
        int col = problem.getColumn() + 1;
        String lineText = lineAt(text, line);
        int tab = tabColumn(lineText, col);
        if (tab > 0) {
            return new InputError(source, line, tab, "(syntax)", TAB_EXPECTED, "a TAB character");
        }
        String found = firstLine(m.getProblem());
        Mark context = m.getContextMark();
        if (m.getContext() != null && context != null) {
            found += " (" + firstLine(m.getContext()) + " that starts at line " + (context.getLine() + 1)
                    + ", column " + (context.getColumn() + 1) + ")";
        }
        return new InputError(source, line, col, "(syntax)", "valid YAML", found);
    }

    /**
     * The 1-based column of the TAB that caused the error: the offending character itself, or the first TAB in the
     * line's indentation; 0 when the line has neither.
     */
    static int tabColumn(String lineText, int col) {
        if (col >= 1 && col <= lineText.length() && lineText.charAt(col - 1) == '\t') {
            return col;
        }
        for (int i = 0; i < lineText.length(); i++) {
            char ch = lineText.charAt(i);
            if (ch == '\t') {
                return i + 1;
            }
            if (ch != ' ') {
                break;
            }
        }
        return 0;
    }

    /** Line {@code line} (1-based) of {@code text} without its terminator; "" past the end. */
    static String lineAt(String text, int line) {
        int start = 0;
        for (int l = 1; l < line; l++) {
            int nl = text.indexOf('\n', start);
            if (nl < 0) {
                return "";
            }
            start = nl + 1;
        }
        int end = text.indexOf('\n', start);
        String s = end < 0 ? text.substring(start) : text.substring(start, end);
        return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
    }

    static String firstLine(String s) {
        if (s == null) {
            return "a syntax error";
        }
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).trim();
    }
}
