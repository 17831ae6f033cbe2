package io.ridgeline.jobs.sweep;

import io.ridgeline.schema.ResultsSchema;
import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.hadoop.ParquetFileReader;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class WritePointsPartitionTest {
    private final Configuration conf = new Configuration();

    private ParquetMetadata footer(Path file) throws Exception {
        try (ParquetFileReader r = ParquetFileReader.open(HadoopInputFile.fromPath(
                new org.apache.hadoop.fs.Path(file.toUri()), conf))) {
            return r.getFooter();
        }
    }

    @Test
    void anEmptyTableStillGetsOneFileWithTheSchemaSparkWouldWrite(@TempDir Path dir) throws Exception {
        WritePointsPartition.finish(conf, dir.toUri().toString());
        Path file = dir.resolve(WritePointsPartition.fileName(0));
        assertTrue(Files.exists(file));
        ParquetMetadata meta = footer(file);
        assertEquals(0, meta.getBlocks().stream().mapToLong(b -> b.getRowCount()).sum());
        assertEquals(ResultsSchema.POINTS.columns().size(), meta.getFileMetaData().getSchema().getFieldCount());
        String spark = meta.getFileMetaData().getKeyValueMetaData().get(ParquetRowWriter.SPARK_METADATA_KEY);
        assertEquals(SparkSchemas.of(ResultsSchema.POINTS).json(), spark);
    }

    @Test
    void leftoversOfFailedAttemptsAreDroppedAndWrittenPartsKept(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve(".part-00003.attempt-0" + WritePointsPartition.IN_PROGRESS_SUFFIX), "partial");
        WritePointsPartition.finish(conf, dir.toUri().toString());
        try (var files = Files.list(dir)) {
            assertFalse(files.anyMatch(p -> p.getFileName().toString().endsWith(
                    WritePointsPartition.IN_PROGRESS_SUFFIX)));
        }
        long before = Files.getLastModifiedTime(dir.resolve(WritePointsPartition.fileName(0))).toMillis();
        WritePointsPartition.finish(conf, dir.toUri().toString());
        assertEquals(before, Files.getLastModifiedTime(dir.resolve(WritePointsPartition.fileName(0))).toMillis(),
                "an existing part file must not be rewritten");
    }
}
