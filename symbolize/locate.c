/*===- locate.c - Return addresses of this process to module locations ----===*
 *
 * pasta__locate() (symbolize.h): dladdr() names the object, its load base
 * and the nearest exported symbol; the module's path, build id and load
 * bias are read once per module and kept for the process's life.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE /* dladdr, Dl_info */

#include "internal.h"

#include <dlfcn.h>
#include <elf.h>
#include <limits.h>
#include <link.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <unistd.h>

/*===-- Modules at run time -----------------------------------------------===*/

/* What pasta__locate() learnt of one loaded module; kept for the process's
 * life, because call paths refer to modules that may be unloaded later. */
struct pasta__module {
  uint64_t base;  /* dli_fbase */
  char *fname;    /* dli_fname as dladdr gave it: tells mappings apart */
  char *path;     /* absolute path of the file, or NULL (the vDSO) */
  char *build_id; /* lowercase hex, or NULL */
  uint64_t bias;  /* load address of ELF virtual address 0 */
};

static pthread_mutex_t pasta__modules_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pasta__module *pasta__modules;
static size_t pasta__nmodules, pasta__modules_cap;

/* Reads the load bias and build id of the module mapped at `base` (its ELF
 * header is mapped there). ET_EXEC modules have a bias of 0. */
static void pasta__module_from_memory(struct pasta__module *m) {
  const ElfW(Ehdr) *eh = (const void *)(uintptr_t)m->base;
  if (memcmp(eh->e_ident, ELFMAG, SELFMAG) != 0 ||
      eh->e_phentsize != sizeof(ElfW(Phdr)))
    return;
  const ElfW(Phdr) *ph = (const void *)(uintptr_t)(m->base + eh->e_phoff);
  uint64_t first = UINT64_MAX;
  for (unsigned i = 0; i < eh->e_phnum; ++i)
    if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr < first)
      first = ph[i].p_vaddr;
  if (first == UINT64_MAX)
    return;
  /* dli_fbase is where the first PT_LOAD's page starts. */
  m->bias = m->base - (first & ~(uint64_t)0xfff);
  for (unsigned i = 0; i < eh->e_phnum && !m->build_id; ++i)
    if (ph[i].p_type == PT_NOTE) {
      const unsigned char *p =
          (const void *)(uintptr_t)(m->bias + ph[i].p_vaddr);
      m->build_id = pasta__build_id_of_notes(p, p + ph[i].p_filesz);
    }
}

/* The registry entry of the module holding `pc`, added on first sight.
 * Called with the registry locked. */
static const struct pasta__module *pasta__module_of(const Dl_info *info,
                                                    int is_main) {
  uint64_t base = (uint64_t)(uintptr_t)info->dli_fbase;
  const char *fname = info->dli_fname ? info->dli_fname : "";
  for (size_t i = 0; i < pasta__nmodules; ++i)
    if (pasta__modules[i].base == base &&
        strcmp(pasta__modules[i].fname, fname) == 0)
      return &pasta__modules[i];
  if (pasta__reserve((void **)&pasta__modules, &pasta__modules_cap,
                     pasta__nmodules + 1, sizeof *pasta__modules))
    return NULL;
  struct pasta__module m;
  memset(&m, 0, sizeof m);
  m.base = base;
  m.fname = strdup(fname);
  char real[PATH_MAX];
  if (is_main) { /* dladdr names it after argv[0], maybe relative or bare */
    ssize_t n = readlink("/proc/self/exe", real, sizeof real - 1);
    if (n > 0) {
      real[n] = '\0';
      m.path = strdup(real);
    }
  } else if (strchr(fname, '/')) { /* else the vDSO: no file */
    m.path = strdup(realpath(fname, real) ? real : fname);
  }
  pasta__module_from_memory(&m);
  if (!m.fname) {
    free(m.path);
    free(m.build_id);
    return NULL;
  }
  pasta__modules[pasta__nmodules] = m;
  return &pasta__modules[pasta__nmodules++];
}

int pasta__locate(uint64_t address, pasta_frame_loc *out) {
  if (!out)
    return -1;
  memset(out, 0, sizeof *out);
  if (address < 2)
    return -1;
  uint64_t pc = address - 1; /* inside the call, not after it */
  Dl_info info;
  memset(&info, 0, sizeof info);
  if (!dladdr((void *)(uintptr_t)pc, &info) || !info.dli_fbase)
    return -1;
  /* The executable is the object that holds the program's entry point. */
  Dl_info main_info;
  unsigned long entry = getauxval(AT_ENTRY);
  int is_main = entry && dladdr((void *)entry, &main_info) &&
                main_info.dli_fbase == info.dli_fbase;
  pthread_mutex_lock(&pasta__modules_lock);
  const struct pasta__module *m = pasta__module_of(&info, is_main);
  if (m) {
    out->object = m->path;
    out->build_id = m->build_id;
    out->offset = address - m->base;
    out->vaddr = address - m->bias;
  }
  pthread_mutex_unlock(&pasta__modules_lock);
  return m ? 0 : -1;
}
