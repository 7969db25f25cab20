/*===- demangle.h - C++ names as people read them -------------------------===*
 *
 * Kernel, device and host function names are recorded mangled (the symbol)
 * and shown demangled, the way Nsight Compute's "demangled" names read:
 * `void ns::scale<float>(float*, int)`. The plugin demangles the names of
 * the functions it instruments with LLVM's demangler and records them
 * (pasta__demangle_remember); other names go to the C++ runtime's
 * __cxa_demangle (libstdc++ or libc++abi), never a hand-written demangler:
 * libpasta_rt is linked into C programs too, so it is referenced weakly and
 * looked up at run time, and when there is none the mangled name is shown.
 *
 * Table columns are narrow and these names are not (a CUB radix-sort
 * kernel's is 586 characters): pasta__short_name() shortens a name the way
 * ncu's short names do, by dropping the return type, template arguments and
 * parameters (`cub::...::DeviceRadixSortOnesweepKernel<...>(...)`), then
 * leading scopes, so the distinguishing base name survives; it never cuts
 * a name to a prefix that several kernels share.
 *===----------------------------------------------------------------------===*/
#ifndef PASTA_PROFILE_DEMANGLE_H
#define PASTA_PROFILE_DEMANGLE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The demangled form of an Itanium C++ name ("_Z..."), malloc'd; NULL when
 * `mangled` is not one, no demangler is at hand, or out of memory. A name
 * the plugin demangled (pasta__demangle_remember) reads as it recorded it;
 * the C++ runtime demangles only the others. Thread safe. */
char *pasta_demangle(const char *mangled);

/* Records what the plugin demangled at compile time (LLVM's demangler; a
 * function table's `display`): pasta_demangle(mangled) returns a copy of
 * `shown` from now on, whatever the C++ runtime at hand could read. Both
 * are copied; the first record of a name stays. Thread safe. Returns 0, or
 * -1 out of memory (the name is then left to the C++ runtime). */
int pasta__demangle_remember(const char *mangled, const char *shown);

/* What a human reads: the demangled name, or a copy of `name` as it is
 * (C names, or no demangler). malloc'd; NULL only out of memory. */
char *pasta__display_name_dup(const char *name);

/* Writes to out[0, size) the display name `name` shortened to at most
 * `width` bytes where it can be: as it is when it fits; else without its
 * return type; else with each template argument list and the parameter list
 * replaced by "<...>" and "(...)"; else with leading scopes replaced by
 * "...::" (keeping at least the last one); else the last scope with its
 * middle replaced by "...". Lambdas (`{lambda(float)#1}`), `(anonymous
 * namespace)` and operator names stay whole. Returns out. */
char *pasta__short_name(const char *name, size_t width, char *out, size_t size);

/* One table column of names: the pasta__short_name() of each of names[0, n)
 * (a NULL name reads "?"); names that differ but whose short forms are the
 * same (instantiations of one template) get " #1", " #2", ... after it, in
 * table order, so that distinct names stay distinct rows. Returns an array
 * of n strings in one malloc'd block (free() it), or NULL without memory. */
char **pasta__short_names(const char *const *names, size_t n, size_t width);

/* For tests: 1 forces "no demangler at hand" (pasta_demangle returns NULL),
 * 0 restores the lookup. */
void pasta__demangle_disable(int disable);

#ifdef __cplusplus
}
#endif

#endif /* PASTA_PROFILE_DEMANGLE_H */
