package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.evaluation.ResultRow;
import io.ridgeline.schema.Column;
import io.ridgeline.schema.ColumnType;
import io.ridgeline.schema.ResultsSchema;
import io.ridgeline.schema.Table;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.column.ColumnWriteStore;
import org.apache.parquet.column.ColumnWriter;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.compression.CompressionCodecFactory;
import org.apache.parquet.hadoop.CodecFactory;
import org.apache.parquet.hadoop.ColumnChunkPageWriteStore;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.util.HadoopOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes evaluated points straight into parquet-mr's column writers: {@link PointRows#emit} hands each non-null value
 * with its primitive type to the column's {@link ColumnWriter} ({@code write(value, 0, 1)}), and every column the
 * point left out gets {@code writeNull(0, 0)}. No {@code Row}, {@code Object[]}, boxed number or record-consumer
 * bookkeeping per value. The file is the one {@link ParquetRowWriter} writes for the same rows (same schema, footer,
 * snappy, dictionaries for strings and ints only, 128 MiB row groups, 1 MiB pages); SweepJobTest compares them.
 *
 * <p>Lifecycle: the constructor creates the file; {@link #write} buffers pages in memory and flushes a row group when
 * the buffered size reaches the row-group size; {@link #close} flushes the last row group and writes the footer. If
 * anything fails the file is incomplete, which is why callers write it under a hidden in-progress name.
 */
final class ParquetPointWriter implements Closeable, PointRows.Fields {
    private static final long ROW_GROUP_BYTES = ParquetWriter.DEFAULT_BLOCK_SIZE;
    /** Rows between buffered-size checks (parquet-mr's own writer checks adaptively between 100 and 10,000). */
    private static final int SIZE_CHECK_ROWS = 1000;

    private final MessageType schema;
    private final ParquetProperties props;
    private final ParquetFileWriter file;
    private final CodecFactory codecs;
    private final CompressionCodecFactory.BytesInputCompressor compressor;
    private final java.util.Map<String, String> footer;
    private final int width;
    private final ColumnWriter[] columns;
    /** Per column, whether the current point wrote a value. */
    private final boolean[] written;
    /** Per column, the last string written and its UTF-8 bytes: ids repeat row after row, so encode them once. */
    private final String[] lastString;
    private final Binary[] lastBinary;
    private ColumnChunkPageWriteStore pages;
    private ColumnWriteStore store;
    private long rowsInGroup;
    private int rowGroupOrdinal;

    ParquetPointWriter(Configuration conf, Path path) throws IOException {
        Table table = ResultsSchema.POINTS;
        this.schema = ParquetRowWriter.messageType(table);
        this.footer = ParquetRowWriter.footer(table);
        ParquetProperties.Builder b = ParquetProperties.builder().withDictionaryEncoding(true);
        for (Column c : table.columns()) {
            if (c.type() == ColumnType.DOUBLE) {
                b = b.withDictionaryEncoding(c.name(), false);
            }
        }
        this.props = b.build();
        this.width = table.columns().size();
        this.columns = new ColumnWriter[width];
        this.written = new boolean[width];
        this.lastString = new String[width];
        this.lastBinary = new Binary[width];
        this.file = new ParquetFileWriter(HadoopOutputFile.fromPath(path, conf), schema, ParquetFileWriter.Mode.CREATE,
                ROW_GROUP_BYTES, ParquetWriter.MAX_PADDING_SIZE_DEFAULT, null, props);
        file.start();
        this.codecs = new CodecFactory(conf, props.getPageSizeThreshold());
        this.compressor = codecs.getCompressor(CompressionCodecName.SNAPPY);
        startRowGroup();
    }

    private void startRowGroup() {
        pages = new ColumnChunkPageWriteStore(compressor, schema, props.getAllocator(),
                props.getColumnIndexTruncateLength(), props.getPageWriteChecksumEnabled(), null, rowGroupOrdinal);
        store = props.newColumnWriteStore(schema, pages, pages);
        for (int c = 0; c < width; c++) {
            columns[c] = store.getColumnWriter(schema.getColumns().get(c));
        }
        rowsInGroup = 0;
    }

    private void flushRowGroup() throws IOException {
        if (rowsInGroup > 0) {
            file.startBlock(rowsInGroup);
            store.flush();
            pages.flushToFileWriter(file);
            file.endBlock();
            rowGroupOrdinal++;
        }
        store.close();
        pages.close();
    }

    void write(ResultRow point) throws IOException {
        PointRows.emit(point, this);
        for (int c = 0; c < width; c++) {
            if (!written[c]) {
                columns[c].writeNull(0, 0);
            }
        }
        Arrays.fill(written, false);
        store.endRecord();
        rowsInGroup++;
        if (rowsInGroup % SIZE_CHECK_ROWS == 0 && (store.getBufferedSize() >= ROW_GROUP_BYTES
                || rowsInGroup >= props.getRowGroupRowCountLimit())) {
            flushRowGroup();
            startRowGroup();
        }
    }

    @Override
    public void close() throws IOException {
        try {
            flushRowGroup();
            file.end(footer);
        } finally {
            codecs.release();
        }
    }

    @Override
    public void longAt(int column, long value) {
        columns[column].write(value, 0, 1);
        written[column] = true;
    }

    @Override
    public void intAt(int column, int value) {
        columns[column].write(value, 0, 1);
        written[column] = true;
    }

    @Override
    public void doubleAt(int column, double value) {
        columns[column].write(value, 0, 1);
        written[column] = true;
    }

    @Override
    public void stringAt(int column, String value) {
        if (value != lastString[column] && !value.equals(lastString[column])) {
            lastString[column] = value;
            lastBinary[column] = Binary.fromConstantByteArray(value.getBytes(StandardCharsets.UTF_8));
        }
        columns[column].write(lastBinary[column], 0, 1);
        written[column] = true;
    }

    @Override
    public void booleanAt(int column, boolean value) {
        columns[column].write(value, 0, 1);
        written[column] = true;
    }
}
