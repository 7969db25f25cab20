/*===- env.h - Reading PASTA_* environment variables ---------------------===*
 *
 * The run-time options' one parser: a yes/no flag accepts 1/0, on/off,
 * true/false, yes/no in any case (the compiler plugin accepts the same,
 * passes/Options.cpp); anything else is one warning that names the
 * variable, its value and what is accepted, and the default is used.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_HOST_RT_ENV_H
#define PASTA_HOST_RT_ENV_H

#include <stdint.h>

/* 1 or 0 for a yes/no value (see above), -1 for anything else. */
int pasta__parse_flag(const char *s);

/* The flag `name`: `fallback` when unset or empty, or (after a warning)
 * when it is not a yes/no value. */
int pasta__env_flag(const char *name, int fallback);

/* The decimal number `name`, from min to max: `fallback` when unset or
 * empty, or (after a warning) when it is not such a number. */
uint64_t pasta__env_u64(const char *name, uint64_t fallback, uint64_t min,
                        uint64_t max);

#endif
