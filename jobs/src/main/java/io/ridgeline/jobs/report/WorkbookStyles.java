package io.ridgeline.jobs.report;

import org.apache.poi.ss.usermodel.BorderStyle;
import org.apache.poi.ss.usermodel.Cell;
import org.apache.poi.ss.usermodel.CellStyle;
import org.apache.poi.ss.usermodel.FillPatternType;
import org.apache.poi.ss.usermodel.Font;
import org.apache.poi.ss.usermodel.IndexedColors;
import org.apache.poi.ss.usermodel.Row;
import org.apache.poi.ss.usermodel.Sheet;
import org.apache.poi.xssf.usermodel.XSSFWorkbook;

import java.util.LinkedHashMap;
import java.util.Map;

/** Cell styles of the TCO workbook, created once per workbook (Excel caps the number of styles). */
final class WorkbookStyles {
    final XSSFWorkbook wb;
    final CellStyle title;
    final CellStyle header;
    final CellStyle formulaHeader;
    final CellStyle input;
    final CellStyle constant;
    final Map<String, CellStyle> numbers = new LinkedHashMap<>();

    WorkbookStyles(XSSFWorkbook wb) {
        this.wb = wb;
        Font bold = wb.createFont();
        bold.setBold(true);
        Font big = wb.createFont();
        big.setBold(true);
        big.setFontHeightInPoints((short) 14);
        title = wb.createCellStyle();
        title.setFont(big);
        header = wb.createCellStyle();
        header.setFont(bold);
        header.setBorderBottom(BorderStyle.THIN);
        formulaHeader = wb.createCellStyle();
        formulaHeader.cloneStyleFrom(header);
        formulaHeader.setFillForegroundColor(IndexedColors.LIGHT_GREEN.getIndex());
        formulaHeader.setFillPattern(FillPatternType.SOLID_FOREGROUND);
        // Finance convention: blue = input you may change.
        Font blue = wb.createFont();
        blue.setColor(IndexedColors.BLUE.getIndex());
        input = wb.createCellStyle();
        input.setFont(blue);
        input.setFillForegroundColor(IndexedColors.LIGHT_TURQUOISE.getIndex());
        input.setFillPattern(FillPatternType.SOLID_FOREGROUND);
        input.setDataFormat(wb.createDataFormat().getFormat("General"));
        constant = wb.createCellStyle();
    }

    CellStyle number(String format) {
        return numbers.computeIfAbsent(format, f -> {
            CellStyle st = wb.createCellStyle();
            st.setDataFormat(wb.createDataFormat().getFormat(f));
            return st;
        });
    }

    /** Writes {@code text} into a cell, creating the row as needed. */
    static void text(Sheet sh, int row, int col, String text, CellStyle style) {
        Row r = sh.getRow(row) == null ? sh.createRow(row) : sh.getRow(row);
        Cell c = r.createCell(col);
        c.setCellValue(text);
        if (style != null) {
            c.setCellStyle(style);
        }
    }
}
