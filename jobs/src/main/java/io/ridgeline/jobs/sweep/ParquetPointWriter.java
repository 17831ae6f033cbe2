package io.ridgeline.jobs.sweep;

import io.ridgeline.engine.sweep.EvaluatedPoint;
import io.ridgeline.schema.ResultsSchema;
import io.ridgeline.schema.Table;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.MessageType;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes evaluated points straight to a points-table Parquet file: {@link PointRows#emit} hands each non-null value
 * to the record consumer with its primitive type, so no {@code Row}, {@code Object[]} or boxed number is made per
 * point. Same file layout and writer settings as {@link ParquetRowWriter} (which writes the same table from rows).
 */
final class ParquetPointWriter implements Closeable {
    private final ParquetWriter<EvaluatedPoint> writer;

    ParquetPointWriter(Configuration conf, Path file) throws IOException {
        Table table = ResultsSchema.POINTS;
        this.writer = ParquetRowWriter.build(conf, file, table,
                new PointWriteSupport(table, ParquetRowWriter.messageType(table), ParquetRowWriter.footer(table)));
    }

    void write(EvaluatedPoint point) throws IOException {
        writer.write(point);
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    private static final class PointWriteSupport extends WriteSupport<EvaluatedPoint> implements PointRows.Fields {
        private final MessageType schema;
        private final Map<String, String> footer;
        private final String[] names;
        /** Per column, the last string written and its UTF-8 bytes: ids repeat row after row, so encode them once. */
        private final String[] lastString;
        private final Binary[] lastBinary;
        private RecordConsumer out;

        PointWriteSupport(Table table, MessageType schema, Map<String, String> footer) {
            this.schema = schema;
            this.footer = footer;
            int n = table.columns().size();
            this.names = new String[n];
            this.lastString = new String[n];
            this.lastBinary = new Binary[n];
            for (int i = 0; i < n; i++) {
                names[i] = table.columns().get(i).name();
            }
        }

        @Override
        public WriteContext init(Configuration configuration) {
            return new WriteContext(schema, footer);
        }

        @Override
        public void prepareForWrite(RecordConsumer recordConsumer) {
            this.out = recordConsumer;
        }

        @Override
        public void write(EvaluatedPoint point) {
            out.startMessage();
            PointRows.emit(point, this);
            out.endMessage();
        }

        @Override
        public void longAt(int column, long value) {
            out.startField(names[column], column);
            out.addLong(value);
            out.endField(names[column], column);
        }

        @Override
        public void intAt(int column, int value) {
            out.startField(names[column], column);
            out.addInteger(value);
            out.endField(names[column], column);
        }

        @Override
        public void doubleAt(int column, double value) {
            out.startField(names[column], column);
            out.addDouble(value);
            out.endField(names[column], column);
        }

        @Override
        public void stringAt(int column, String value) {
            if (value != lastString[column] && !value.equals(lastString[column])) {
                lastString[column] = value;
                lastBinary[column] = Binary.fromConstantByteArray(value.getBytes(StandardCharsets.UTF_8));
            }
            out.startField(names[column], column);
            out.addBinary(lastBinary[column]);
            out.endField(names[column], column);
        }

        @Override
        public void booleanAt(int column, boolean value) {
            out.startField(names[column], column);
            out.addBoolean(value);
            out.endField(names[column], column);
        }
    }
}
