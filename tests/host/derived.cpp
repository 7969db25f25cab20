// Host block counts derived from others (counter placement, as on GPUs)
// stay exact when frames end inside a call: by longjmp, by an exception
// caught two frames up and by exit() (tests/run_host_derived.sh builds this
// with and without placement and compares the two profiles).
//   leave_in_loop: a loop whose blocks before and after a call that may
//                  leave are counted; the call longjmps out or throws on
//                  some iterations, so the blocks after it run fewer times
//                  than those before it.
//   kinds:         a switch over many cases, each counting its own blocks,
//                  joined into one return.
//   finish:        exit() from inside a loop, two frames below main.
// usage: derived [rounds]
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>

static std::jmp_buf env;
static volatile double sink[64];

__attribute__((noinline)) void maybe_leave(int i) {
  if (i % 7 == 3)
    std::longjmp(env, 1);
  if (i % 11 == 5)
    throw std::runtime_error("leave");
}

__attribute__((noinline)) int leave_in_loop(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) {
    if (i % 3 == 0)
      sink[i % 64] = sink[i % 64] + 1.0;
    else
      sink[i % 64] = sink[i % 64] * 2.0;
    maybe_leave(i + n);
    sink[(i + 1) % 64] = sink[(i + 1) % 64] - 1.0;
    s += i;
  }
  return s;
}

__attribute__((noinline)) int kinds(const char *p) {
  int v = 0;
  switch (*p) {
  case 'a':
    for (int i = 0; i < 3; ++i)
      sink[1] = sink[1] + p[1];
    v = 1;
    break;
  case 'b':
    if (p[1] == 'x')
      return 7;
    sink[2] = sink[2] * 0.5;
    v = 2;
    break;
  case 'c':
    sink[3] = sink[3] + 1.0;
    sink[4] = sink[4] + 2.0;
    v = 3;
    break;
  case 'd':
    while (*++p == 'd')
      sink[5] = sink[5] + 1.0;
    v = 4;
    break;
  case 'e':
    if (p[1] && p[2] == 'e')
      return 9;
    v = 5;
    break;
  case 'f':
    sink[6] = sink[6] - 1.0;
    return p[1] == 'f' ? 11 : 12;
  default:
    sink[7] = sink[7] + 3.0;
    v = -1;
  }
  return v + (sink[0] > 1e300);
}

__attribute__((noinline)) void finish(int rounds) {
  for (int i = 0;; ++i) {
    sink[8] = sink[8] + 1.0;
    if (i == rounds) {
      std::printf("derived: done\n");
      std::exit(0);
    }
    sink[9] = sink[9] * 1.5;
  }
}

__attribute__((noinline)) void run(int rounds) { finish(rounds); }

int main(int argc, char **argv) {
  int rounds = argc > 1 ? std::atoi(argv[1]) : 200;
  volatile int jumped = 0, caught = 0;
  for (volatile int r = 0; r < rounds; ++r) {
    if (setjmp(env) == 0) {
      try {
        leave_in_loop(r % 13);
      } catch (const std::exception &) {
        caught = caught + 1;
      }
    } else {
      jumped = jumped + 1;
    }
  }
  static const char *const inputs[] = {"a1",  "bx",  "by", "c",  "dddd",
                                       "e.e", "e..", "ff", "fg", "z"};
  int sum = 0;
  for (int r = 0; r < rounds; ++r)
    sum += kinds(inputs[r % 10]);
  std::printf("derived: jumped %d caught %d sum %d\n", jumped, caught, sum);
  run(rounds);
}
