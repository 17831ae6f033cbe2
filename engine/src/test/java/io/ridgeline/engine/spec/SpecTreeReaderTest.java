package io.ridgeline.engine.spec;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** YAML syntax errors point at the offending line and column, and say when a TAB is the cause. */
class SpecTreeReaderTest {
    private static String error(String text) {
        return assertThrows(InvalidInputException.class, () -> SpecTreeReader.parse("s.yaml", text)).getMessage();
    }

    @Test
    void aTabIndentingAListItemIsNamedOnItsOwnLine() {
        // Jackson's own location said 2:7 (the previous token).
        assertEquals("s.yaml:3:1: (syntax): expected spaces instead of a TAB (YAML forbids tabs for indentation), "
                + "found a TAB character", error("name: x\nmodels:\n\t- a\n"));
    }

    @Test
    void aTabIndentingAKeyAfterSpacedLinesIsNamed() {
        assertEquals("s.yaml:4:1: (syntax): expected spaces instead of a TAB (YAML forbids tabs for indentation), "
                + "found a TAB character", error("name: x\nhardware:\n  presets: [a]\n\tcluster: 1\n"));
    }

    @Test
    void aTabAfterSpacesInTheIndentationIsNamedAtItsColumn() {
        String e = error("name: x\ncluster:\n  gpu_count: [8]\n  \tfoo: 1\n");
        assertEquals("s.yaml:4:3: (syntax): expected spaces instead of a TAB (YAML forbids tabs for indentation), "
                + "found a TAB character", e);
    }

    @Test
    void aTabBeforeAValueIsNamed() {
        assertEquals("s.yaml:3:13: (syntax): expected spaces instead of a TAB (YAML forbids tabs for indentation), "
                + "found a TAB character", error("name: x\ncluster:\n  gpu_count:\t[8]\n"));
    }

    @Test
    void anUnclosedFlowSequencePointsAtTheProblemAndWhereTheSequenceStarts() {
        assertEquals("s.yaml:3:8: (syntax): expected valid YAML, found expected ',' or ']', but got : (while "
                + "parsing a flow sequence that starts at line 2, column 9)",
                error("name: x\nmodels: [a, b\ncluster: {gpu_count: [8]}\n"));
    }

    @Test
    void aWrongIndentationPointsAtTheMisalignedKey() {
        assertEquals("s.yaml:4:2: (syntax): expected valid YAML, found expected <block end>, but found '<block "
                + "mapping start>' (while parsing a block mapping that starts at line 1, column 1)",
                error("name: x\ncluster:\n  gpu_count: [8]\n foo: 1\n"));
    }

    @Test
    void tabsInsideQuotedValuesAreFine() {
        SpecNode n = SpecTreeReader.parse("s.yaml", "name: \"a\tb\"\n");
        assertEquals("a\tb", ((SpecNode.Scalar) ((SpecNode.MapNode) n).get("name")).text());
    }
}
