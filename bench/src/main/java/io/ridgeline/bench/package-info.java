/**
 * JMH benchmarks of the engine's hot paths (one training or inference evaluation, warm and cold caches) and the
 * plan-search command. Performance lives here, not in timed unit tests: nothing in this module runs under
 * {@code mvn test}. Results and the commands that reproduce them are in docs/PERFORMANCE.md; {@code scripts/bench}
 * runs everything.
 */
package io.ridgeline.bench;
