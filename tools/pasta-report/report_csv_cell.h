/*===- report_csv_cell.h - One CSV cell (pasta-report) --------------------===*
 *
 * What every CSV writer of pasta-report writes a field with: the section
 * blocks (report_csv.c) and the per-rank columns (report_ranks.c).
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_TOOLS_REPORT_CSV_CELL_H
#define PASTA_TOOLS_REPORT_CSV_CELL_H

#include <jansson.h>
#include <stdio.h>

/* A CSV field (RFC 4180): control characters and invalid UTF-8 escaped
 * as the text tables show them (pasta__text_safe: \n, \xHH, ...), so no
 * field holds a line break or a terminal escape sequence; then quoted
 * (quotes doubled) when it holds a comma or a quote or starts or ends with
 * a space; one that starts with = + - or @ and is not a number is quoted
 * behind a ' ("'=1+1"), so that a spreadsheet does not run it as a formula.
 * NULL is the empty field. */
void pasta__csv_string(FILE *out, const char *s);

/* The value at a dotted path ("gpu_time_ns.total") in `o`, or NULL. */
json_t *pasta__csv_at(json_t *o, const char *path);

/* A JSON value as a cell: integers in full (big ones too), reals with the
 * fewest digits that read back the same, strings as pasta__csv_string,
 * true/false as such, an object or array as its JSON text (quoted), and
 * null or NULL as the empty cell. */
void pasta__csv_cell(FILE *out, json_t *v);

#endif
