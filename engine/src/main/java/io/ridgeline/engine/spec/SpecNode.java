package io.ridgeline.engine.spec;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node of a parsed sweep file that remembers where it came from, so every validation error can name the line and
 * column. Jackson's own tree ({@code JsonNode}) forgets locations, hence this small one.
 */
public sealed interface SpecNode permits SpecNode.MapNode, SpecNode.ListNode, SpecNode.Scalar {
    int line();

    int column();

    /** How the node reads in an error's "found" part: "a list", "a mapping", "'abc'", "12". */
    String describe();

    /** A mapping; keys keep file order and their own positions. */
    record MapNode(int line, int column, LinkedHashMap<String, SpecNode> values, Map<String, int[]> keyPositions)
            implements SpecNode {
        public SpecNode get(String key) {
            return values.get(key);
        }

        public int keyLine(String key) {
            return keyPositions.get(key)[0];
        }

        public int keyColumn(String key) {
            return keyPositions.get(key)[1];
        }

        @Override
        public String describe() {
            return "a mapping";
        }
    }

    record ListNode(int line, int column, List<SpecNode> items) implements SpecNode {
        @Override
        public String describe() {
            return "a list";
        }
    }

    /** A scalar: its kind as the parser saw it (quoted strings stay strings) and its text. */
    record Scalar(int line, int column, Kind kind, String text) implements SpecNode {
        public enum Kind { STRING, INTEGER, DECIMAL, BOOLEAN, NULL }

        @Override
        public String describe() {
            return switch (kind) {
                case STRING -> "'" + text + "'";
                case NULL -> "null";
                default -> text;
            };
        }
    }
}
