package io.ridgeline.jobs.sql;

import org.apache.spark.SparkConf;
import org.apache.spark.sql.SparkSession;

/** The one way ridgeline starts Spark (sweep, sql --engine spark): which master, and local mode kept on loopback. */
public final class SparkSessions {
    private SparkSessions() {
    }

    /** The master a session will use: the one asked for, else spark-submit's, else local[*]. */
    public static String master(String asked, SparkConf conf) {
        return asked != null ? asked : conf.get("spark.master", "local[*]");
    }

    /**
     * A session builder for {@code appName}: the master set unless spark-submit already set it and none was asked
     * for; a local master without the web UI and bound to 127.0.0.1 (no ports opened beyond the machine).
     */
    public static SparkSession.Builder builder(String appName, String asked, SparkConf conf) {
        String master = master(asked, conf);
        SparkSession.Builder b = SparkSession.builder().appName(appName);
        if (!conf.contains("spark.master") || asked != null) {
            b.master(master);
        }
        if (master.startsWith("local")) {
            b.config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                    .config("spark.driver.bindAddress", "127.0.0.1");
        }
        return b;
    }
}
