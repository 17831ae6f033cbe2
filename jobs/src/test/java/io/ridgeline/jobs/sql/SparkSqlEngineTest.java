package io.ridgeline.jobs.sql;

import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The read-only rule of Spark SQL, on parsed statements (nothing runs). */
class SparkSqlEngineTest {
    @Test
    void theReadOnlyRuleLooksIntoEveryPartOfTheStatement() throws Exception {
        SparkSession spark = SparkSession.builder().master("local[1]").appName("SqlEnginesTest")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate();
        try {
            for (String ok : List.of("select 1", "with a as (select 1 as x) select x from a", "values (1), (2)",
                    "(select 1) union all (select 2)", "select * from (select 1 as a) where a in (select 1)")) {
                assertNull(SparkSqlEngine.refused(spark.sessionState().sqlParser().parsePlan(ok)), ok);
            }
            for (String no : List.of("cache table x as select 1", "set spark.sql.shuffle.partitions=1",
                    "add jar /tmp/x.jar", "create temporary view v as select 1", "drop table x",
                    "select * from (select 1 as a) where a in (select reflect('java.util.UUID', 'randomUUID'))")) {
                assertNotNull(SparkSqlEngine.refused(spark.sessionState().sqlParser().parsePlan(no)), no);
            }
        } finally {
            spark.stop();
        }
    }
}
