package io.ridgeline.jobs.sweep;

import io.ridgeline.schema.Column;
import io.ridgeline.schema.Table;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.schema.LogicalTypeAnnotation;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.parquet.schema.Types;
import org.apache.spark.sql.Row;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * Writes rows of a results-schema table straight to a Parquet file with parquet-mr, bypassing Spark SQL's per-row
 * conversion (which dominated all-points sweeps: docs/PERFORMANCE.md). The file is what Spark itself would write for
 * the same struct type: optional columns of the mapped primitive types, UTF-8 strings, and the Spark schema (with the
 * columns' docs and units) in the footer, so Spark, DuckDB and any Parquet reader see the same table. Dictionary
 * encoding is kept for strings (few distinct values) and turned off for doubles (almost all distinct: the
 * dictionary only cost time).
 */
final class ParquetRowWriter implements Closeable {
    /** Footer key under which Spark stores its own schema (ParquetReadSupport.SPARK_METADATA_KEY). */
    static final String SPARK_METADATA_KEY = "org.apache.spark.sql.parquet.row.metadata";

    private final ParquetWriter<Row> writer;

    ParquetRowWriter(Configuration conf, Path file, Table table) throws IOException {
        MessageType schema = messageType(table);
        this.writer = build(conf, file, table, new RowWriteSupport(table, schema, footer(table)));
    }

    /** Spark's own schema (with the columns' docs and units) for the file footer. */
    static Map<String, String> footer(Table table) {
        return Map.of(SPARK_METADATA_KEY, SparkSchemas.of(table).json());
    }

    /**
     * The one writer configuration of every results file written here: snappy, dictionaries for strings and ints
     * (few distinct values), none for doubles (almost all distinct: the dictionary only cost time).
     */
    static <T> ParquetWriter<T> build(Configuration conf, Path file, Table table, WriteSupport<T> support)
            throws IOException {
        Builder<T> b = new Builder<>(file, support).withConf(conf)
                .withCompressionCodec(CompressionCodecName.SNAPPY)
                .withDictionaryEncoding(true);
        for (Column c : table.columns()) {
            if (c.type() == io.ridgeline.schema.ColumnType.DOUBLE) {
                b = b.withDictionaryEncoding(c.name(), false);
            }
        }
        return b.build();
    }

    void write(Row row) throws IOException {
        writer.write(row);
    }

    @Override
    public void close() throws IOException {
        writer.close();
    }

    static MessageType messageType(Table table) {
        Types.MessageTypeBuilder b = Types.buildMessage();
        for (Column c : table.columns()) {
            Type t = switch (c.type()) {
                case STRING -> Types.optional(PrimitiveTypeName.BINARY).as(LogicalTypeAnnotation.stringType())
                        .named(c.name());
                case INT -> Types.optional(PrimitiveTypeName.INT32).named(c.name());
                case LONG -> Types.optional(PrimitiveTypeName.INT64).named(c.name());
                case DOUBLE -> Types.optional(PrimitiveTypeName.DOUBLE).named(c.name());
                case BOOLEAN -> Types.optional(PrimitiveTypeName.BOOLEAN).named(c.name());
                case TIMESTAMP -> throw new IllegalStateException("the direct writer does not write timestamps: "
                        + table.name() + "." + c.name());
            };
            b.addField(t);
        }
        return b.named("spark_schema");
    }

    private static final class Builder<T> extends ParquetWriter.Builder<T, Builder<T>> {
        private final WriteSupport<T> support;

        Builder(Path file, WriteSupport<T> support) {
            super(file);
            this.support = support;
        }

        @Override
        protected Builder<T> self() {
            return this;
        }

        @Override
        protected WriteSupport<T> getWriteSupport(Configuration conf) {
            return support;
        }
    }

    /** Field by field, straight from the row's values: no intermediate objects. */
    private static final class RowWriteSupport extends WriteSupport<Row> {
        private final MessageType schema;
        private final Map<String, String> footer;
        private final String[] names;
        private final io.ridgeline.schema.ColumnType[] types;
        /** Per column, the last string written and its UTF-8 bytes: ids repeat row after row, so encode them once. */
        private final String[] lastString;
        private final Binary[] lastBinary;
        private RecordConsumer out;

        RowWriteSupport(Table table, MessageType schema, Map<String, String> footer) {
            this.schema = schema;
            this.footer = footer;
            int n = table.columns().size();
            this.names = new String[n];
            this.types = new io.ridgeline.schema.ColumnType[n];
            this.lastString = new String[n];
            this.lastBinary = new Binary[n];
            for (int i = 0; i < n; i++) {
                names[i] = table.columns().get(i).name();
                types[i] = table.columns().get(i).type();
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
        public void write(Row row) {
            out.startMessage();
            for (int i = 0; i < names.length; i++) {
                if (row.isNullAt(i)) {
                    continue;
                }
                out.startField(names[i], i);
                switch (types[i]) {
                    case STRING -> out.addBinary(binary(i, row.getString(i)));
                    case INT -> out.addInteger(row.getInt(i));
                    case LONG -> out.addLong(row.getLong(i));
                    case DOUBLE -> out.addDouble(row.getDouble(i));
                    case BOOLEAN -> out.addBoolean(row.getBoolean(i));
                    case TIMESTAMP -> throw new IllegalStateException("timestamps are not written here");
                }
                out.endField(names[i], i);
            }
            out.endMessage();
        }

        private Binary binary(int column, String value) {
            if (value != lastString[column] && !value.equals(lastString[column])) {
                lastString[column] = value;
                lastBinary[column] = Binary.fromConstantByteArray(value.getBytes(StandardCharsets.UTF_8));
            }
            return lastBinary[column];
        }
    }
}
