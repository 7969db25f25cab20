/*===- elf.c - ELF files: build ids, symbol tables, a module's file -------===*
 *
 * See symbolize.c. Function names come from a module file's ELF symbol
 * table (.symtab, or .dynsym when stripped; no library needed); a module
 * whose recorded path is gone or holds another build is searched for by
 * name and build id.
 *===----------------------------------------------------------------------===*/
#define _GNU_SOURCE

#include "internal.h"

#include <dirent.h>
#include <elf.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The hex of a GNU build-id note among the notes in [p, end), or NULL. */
char *pasta__build_id_of_notes(const unsigned char *p,
                               const unsigned char *end) {
  while (p && end - p >= 12) {
    uint32_t namesz, descsz, type;
    memcpy(&namesz, p, 4);
    memcpy(&descsz, p + 4, 4);
    memcpy(&type, p + 8, 4);
    size_t name_pad = ((size_t)namesz + 3) & ~(size_t)3;
    size_t desc_pad = ((size_t)descsz + 3) & ~(size_t)3;
    if (name_pad > (size_t)(end - p) - 12 ||
        desc_pad > (size_t)(end - p) - 12 - name_pad)
      return NULL;
    const unsigned char *name = p + 12, *desc = name + name_pad;
    if (type == NT_GNU_BUILD_ID && namesz == 4 && memcmp(name, "GNU", 4) == 0 &&
        descsz && descsz <= 64) {
      char *hex = malloc(2 * (size_t)descsz + 1);
      for (uint32_t i = 0; hex && i < descsz; ++i)
        snprintf(hex + 2 * i, 3, "%02x", desc[i]);
      return hex;
    }
    p = desc + desc_pad;
  }
  return NULL;
}

/*===-- ELF files ---------------------------------------------------------===*/

static int pasta__pread_all(int fd, void *buf, size_t len, uint64_t off) {
  size_t done = 0;
  while (done < len) {
    ssize_t n = pread(fd, (char *)buf + done, len - done, (off_t)(off + done));
    if (n <= 0)
      return -1;
    done += (size_t)n;
  }
  return 0;
}

/* A section's bytes, malloc'd; NULL when it does not fit the file. */
static void *pasta__read_section(int fd, uint64_t size_of_file,
                                 const ElfW(Shdr) * sh) {
  if (sh->sh_type == SHT_NOBITS || sh->sh_offset > size_of_file ||
      sh->sh_size > size_of_file - sh->sh_offset || sh->sh_size > (1u << 30))
    return NULL;
  void *buf = malloc(sh->sh_size ? sh->sh_size : 1);
  if (buf && pasta__pread_all(fd, buf, sh->sh_size, sh->sh_offset)) {
    free(buf);
    return NULL;
  }
  return buf;
}

/* The section headers of an ELF file of this machine's class, malloc'd. */
static ElfW(Shdr) *
    pasta__section_headers(int fd, uint64_t size_of_file, size_t *n) {
  ElfW(Ehdr) eh;
  *n = 0;
  if (pasta__pread_all(fd, &eh, sizeof eh, 0) ||
      memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != (sizeof(void *) == 8 ? ELFCLASS64 : ELFCLASS32) ||
      eh.e_shentsize != sizeof(ElfW(Shdr)) || !eh.e_shnum ||
      eh.e_shoff > size_of_file ||
      (uint64_t)eh.e_shnum * sizeof(ElfW(Shdr)) > size_of_file - eh.e_shoff)
    return NULL;
  ElfW(Shdr) *sh = malloc(eh.e_shnum * sizeof *sh);
  if (sh && pasta__pread_all(fd, sh, eh.e_shnum * sizeof *sh, eh.e_shoff)) {
    free(sh);
    return NULL;
  }
  *n = sh ? eh.e_shnum : 0;
  return sh;
}

static uint64_t pasta__file_size(int fd) {
  struct stat st;
  return fstat(fd, &st) == 0 && st.st_size > 0 ? (uint64_t)st.st_size : 0;
}

/* The build id of the ELF file at `path` (malloc'd hex), or NULL. */
static char *pasta__file_build_id(const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return NULL;
  uint64_t size = pasta__file_size(fd);
  size_t n = 0;
  ElfW(Shdr) *sh = pasta__section_headers(fd, size, &n);
  char *id = NULL;
  for (size_t i = 0; i < n && !id; ++i) {
    if (sh[i].sh_type != SHT_NOTE)
      continue;
    unsigned char *notes = pasta__read_section(fd, size, &sh[i]);
    if (notes)
      id = pasta__build_id_of_notes(notes, notes + sh[i].sh_size);
    free(notes);
  }
  free(sh);
  close(fd);
  return id;
}

static int pasta__sym_cmp(const void *a, const void *b) {
  const struct pasta__sym *x = a, *y = b;
  if (x->lo != y->lo)
    return (x->lo > y->lo) - (x->lo < y->lo);
  return (x->size < y->size) - (x->size > y->size); /* sized ones first */
}

static size_t pasta__object_name(struct pasta__object *o, const char *name,
                                 size_t len) {
  if (pasta__reserve((void **)&o->names, &o->names_cap, o->names_len + len + 1,
                     1))
    return SIZE_MAX;
  memcpy(o->names + o->names_len, name, len);
  o->names[o->names_len + len] = '\0';
  o->names_len += len + 1;
  return o->names_len - len - 1;
}

/* The functions of the file's .symtab, or of .dynsym when it was stripped:
 * no libdwarf needed. */
void pasta__read_symbols(struct pasta__object *o, const char *path) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return;
  uint64_t size = pasta__file_size(fd);
  size_t n = 0;
  ElfW(Shdr) *sh = pasta__section_headers(fd, size, &n);
  size_t table = n;
  for (size_t i = 0; i < n; ++i)
    if (sh[i].sh_type == SHT_SYMTAB ||
        (sh[i].sh_type == SHT_DYNSYM && table == n))
      table = i;
  if (table < n && sh[table].sh_link < n &&
      sh[table].sh_entsize == sizeof(ElfW(Sym))) {
    ElfW(Sym) *syms = pasta__read_section(fd, size, &sh[table]);
    char *strs = pasta__read_section(fd, size, &sh[sh[table].sh_link]);
    size_t nsyms = sh[table].sh_size / sizeof(ElfW(Sym));
    size_t strs_size = sh[sh[table].sh_link].sh_size;
    for (size_t i = 0; syms && strs && i < nsyms; ++i) {
      const ElfW(Sym) *y = &syms[i];
      int type = ELF64_ST_TYPE(y->st_info);
      if ((type != STT_FUNC && type != STT_GNU_IFUNC) ||
          y->st_shndx == SHN_UNDEF || !y->st_value || y->st_name >= strs_size)
        continue;
      const char *name = strs + y->st_name;
      size_t len = strnlen(name, strs_size - y->st_name);
      size_t off = len ? pasta__object_name(o, name, len) : SIZE_MAX;
      if (off == SIZE_MAX || pasta__reserve((void **)&o->syms, &o->syms_cap,
                                            o->nsyms + 1, sizeof *o->syms))
        continue;
      o->syms[o->nsyms++] = (struct pasta__sym){y->st_value, y->st_size, off};
    }
    free(syms);
    free(strs);
  }
  free(sh);
  close(fd);
  pasta__sort(o->syms, o->nsyms, sizeof *o->syms, pasta__sym_cmp);
}

/* The symbol whose range holds target; a sizeless one holds everything up
 * to the next symbol. */
const struct pasta__sym *pasta__find_sym(const struct pasta__object *o,
                                         uint64_t target) {
  /* the first symbol starting after target */
  size_t lo = pasta__upper_bound(o->syms, o->nsyms, sizeof *o->syms, target);
  if (lo == 0)
    return NULL;
  /* Of the symbols that start there, the first: a sized one if any. */
  size_t i = lo - 1;
  while (i > 0 && o->syms[i - 1].lo == o->syms[lo - 1].lo)
    --i;
  const struct pasta__sym *y = &o->syms[i];
  return !y->size || target - y->lo < y->size ? y : NULL;
}

/*===-- Finding a module's file -------------------------------------------===*/

/* Only a regular file is read as a module: a profile from elsewhere may
 * name a fifo, a terminal or a device as a frame's object, and opening one
 * blocks (or reads without end). */
static int pasta__readable(const char *path) {
  struct stat st;
  return path && stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
         access(path, R_OK) == 0;
}

/* Whether the file at `path` is the module: readable and, when the
 * module's build id was recorded and the file has one, of that build id. */
static int pasta__is_module(const char *path, const char *build_id) {
  if (!pasta__readable(path))
    return 0;
  if (!build_id)
    return 1;
  char *id = pasta__file_build_id(path);
  int same = !id || strcmp(id, build_id) == 0;
  free(id);
  return same;
}

/* Whether the file at `path` has the build id `build_id`. */
static int pasta__has_build_id(const char *path, const char *build_id) {
  char *id = pasta__file_build_id(path);
  int same = id && strcmp(id, build_id) == 0;
  free(id);
  return same;
}

/* Searches dir (and its subdirectories, `depth` levels) for a file named
 * `base` that is the module, or, with a build id, any file of that id. */
static char *pasta__search(const char *dir, const char *base,
                           const char *build_id, int depth) {
  DIR *d = opendir(dir);
  if (!d)
    return NULL;
  char *found = NULL;
  struct dirent *e;
  while (!found && (e = readdir(d)) != NULL) {
    if (e->d_name[0] == '.')
      continue;
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", dir, e->d_name) >=
        (int)sizeof path)
      continue;
    struct stat st;
    if (stat(path, &st) != 0)
      continue;
    if (S_ISDIR(st.st_mode)) {
      if (depth > 0)
        found = pasta__search(path, base, build_id, depth - 1);
      continue;
    }
    if (!S_ISREG(st.st_mode))
      continue;
    int named = base && strcmp(e->d_name, base) == 0;
    if ((named && pasta__is_module(path, build_id)) ||
        (!named && build_id && pasta__has_build_id(path, build_id)))
      found = strdup(path);
  }
  closedir(d);
  return found;
}

/* The file to read for the module: the recorded path if it is still the
 * module, else a search directory's file of the same name and build id,
 * else one of the same build id. NULL when none. */
const char *pasta__module_file(pasta_symbolizer *s, const char *path,
                               const char *build_id) {
  if (pasta__is_module(path, build_id))
    return pasta__intern(s, path);
  const char *slash = path ? strrchr(path, '/') : NULL;
  const char *base = slash ? slash + 1 : path;
  for (char **dir = s->search_dirs; dir && *dir; ++dir) {
    char *found = pasta__search(*dir, base, build_id, 3);
    if (found) {
      const char *r = pasta__intern(s, found);
      free(found);
      return r;
    }
  }
  return NULL;
}
