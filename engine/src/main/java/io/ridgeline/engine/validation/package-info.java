/**
 * Scoring against measured runs: case rows (validation/ format) mapped to engine inputs with documented defaults and
 * read as one-point specs the evaluation facade evaluates ({@code CasePoint}), per-case
 * outcomes, grouped summaries and docs/ACCURACY.md.
 */
package io.ridgeline.engine.validation;
