package io.ridgeline.jobs.sql;

import io.ridgeline.engine.spec.InvalidInputException;
import org.apache.spark.sql.execution.SparkSqlParser;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The read-only rule of Spark SQL, on parsed statements: no session starts, nothing runs. */
class SparkSqlEngineTest {
    @Test
    void theReadOnlyRuleLooksIntoEveryPartOfTheStatement() throws Exception {
        SparkSqlParser parser = new SparkSqlParser();
        for (String ok : List.of("select 1", "with a as (select 1 as x) select x from a", "values (1), (2)",
                "(select 1) union all (select 2)", "select * from (select 1 as a) where a in (select 1)")) {
            assertNull(SparkSqlEngine.refused(parser.parsePlan(ok)), ok);
            SparkSqlEngine.checkReadOnly(ok);
        }
        for (String no : List.of("cache table x as select 1", "set spark.sql.shuffle.partitions=1",
                "add jar /tmp/x.jar", "create temporary view v as select 1", "drop table x",
                "select * from (select 1 as a) where a in (select reflect('java.util.UUID', 'randomUUID'))")) {
            assertNotNull(SparkSqlEngine.refused(parser.parsePlan(no)), no);
            InvalidInputException e = assertThrows(InvalidInputException.class, () -> SparkSqlEngine.checkReadOnly(no));
            assertTrue(e.getMessage().startsWith("sql: QUERY: expected a read-only query"), e.getMessage());
        }
        InvalidInputException bad = assertThrows(InvalidInputException.class,
                () -> SparkSqlEngine.checkReadOnly("select (((  from"));
        assertTrue(bad.getMessage().startsWith("sql: QUERY: expected a valid Spark SQL query over [points, frontier, "
                + "runs], found "), bad.getMessage());
    }
}
