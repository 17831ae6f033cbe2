/** Spark jobs and the command-line interface of Ridgeline: everything that knows about Spark, files and consoles. */
package io.ridgeline.jobs;
