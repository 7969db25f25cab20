/*===- div_batch.h - A source line's accesses measured by one call -------===*
 *
 * Internal, header-only (C and C++): the table the compiler plugin
 * (passes/DivergenceMeasures.cpp, planBatches) emits for one batch of
 * out-of-line access measurements and the runtime's
 * __pasta_div_access_batch_out (device_rt/device_rt_div_rows.inc.c) reads.
 * A batch is accesses of one block (of one source line, or of several)
 * that the copy measures under the same condition: each stages its
 * address, and the last one makes a single call that measures every one
 * of them as __pasta_div_access_out or __pasta_div_access_lanes_out would,
 * and returns their figures summed by line (each times its group's
 * accesses on the line).
 * The layout is the plugin's and runtime's of one build: no file holds it.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_DIV_BATCH_H
#define PASTA_DIV_BATCH_H

/* The words of one access's entry in a batch's table. */
enum pasta_div_batch_word {
  PASTA_DIV_BATCH_SIZE,   /* its size in bytes */
  PASTA_DIV_BATCH_STRIDE, /* the lanes helper's stride (lanes entries) */
  PASTA_DIV_BATCH_HINT,   /* its space, | PASTA_DIV_ALIGNED */
  PASTA_DIV_BATCH_FLAGS,  /* below */
  PASTA_DIV_BATCH_LINE,   /* its figures go to out[8 * LINE ..] */
  PASTA_DIV_BATCH_WORDS
};

/* PASTA_DIV_BATCH_FLAGS: the low byte says which figures it adds (bit k:
 * out[k], k = figure - PASTA_DIV_REQUESTS_GLOBAL), the high half how many
 * times (its group's accesses on the line). */
#define PASTA_DIV_BATCH_FIGURES 0xffu
#define PASTA_DIV_BATCH_SECTORED (1u << 8)   /* a load or store */
#define PASTA_DIV_BATCH_LANES (1u << 9)      /* __pasta_div_access_lanes */
#define PASTA_DIV_BATCH_ROW_WIDTH (1u << 10) /* given the row width, else 0 */
#define PASTA_DIV_BATCH_TIMES_SHIFT 16u

/* Entries one call takes at most (its staged addresses: a private array),
 * so lines too. */
#define PASTA_DIV_BATCH_MAX 32u

#endif
