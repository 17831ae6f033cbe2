/** User input and its errors: {@link io.ridgeline.engine.spec.InputError} (file, line, column, field, expected, found), the one user-error exception, did-you-mean suggestions and the CSV reader of catalogues and case files. */
package io.ridgeline.engine.spec;
