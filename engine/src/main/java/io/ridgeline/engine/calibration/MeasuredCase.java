package io.ridgeline.engine.calibration;

import io.ridgeline.engine.spec.CsvTable;

/**
 * One row of a case file, read once: what a fit selects on, groups by and compares with. The row itself is scored by
 * the validation code ({@code validation.Validator}) for every candidate set of constants.
 *
 * @param file      the case file's name (for grouping)
 * @param framework the row's {@code framework} ("" when the file has no such column or the cell is empty)
 * @param precision the row's {@code precision} ("" when not stated)
 */
public record MeasuredCase(int index, String file, CsvTable.Row row, String caseId, String source, String phase,
                           String metric, String gpu, String framework, String precision, double measured) {

    static MeasuredCase of(int index, String file, CsvTable.Row row) {
        return new MeasuredCase(index, file, row, row.string("case_id"), row.stringOr("source", ""),
                row.string("phase"), row.string("metric"), row.stringOr("gpu", ""),
                row.stringOr("framework", ""), row.stringOr("precision", ""), row.positive("measured"));
    }
}
