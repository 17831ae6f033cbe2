package io.ridgeline.jobs.sweep;

import io.ridgeline.schema.Column;
import io.ridgeline.schema.Table;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.Metadata;
import org.apache.spark.sql.types.MetadataBuilder;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** Spark struct types of the results-schema tables; column docs and units travel as field metadata/comments. */
public final class SparkSchemas {
    private SparkSchemas() {
    }

    public static StructType of(Table table) {
        StructField[] fields = new StructField[table.columns().size()];
        for (int i = 0; i < fields.length; i++) {
            Column c = table.columns().get(i);
            Metadata md = new MetadataBuilder().putString("comment", c.doc()).putString("unit", c.unit())
                    .putLong("id", c.id()).build();
            fields[i] = new StructField(c.name(), type(c), true, md);
        }
        return new StructType(fields);
    }

    static DataType type(Column c) {
        return switch (c.type()) {
            case STRING -> DataTypes.StringType;
            case INT -> DataTypes.IntegerType;
            case LONG -> DataTypes.LongType;
            case DOUBLE -> DataTypes.DoubleType;
            case BOOLEAN -> DataTypes.BooleanType;
            case TIMESTAMP -> DataTypes.TimestampType;
        };
    }
}
